#pragma once
// The wall and CPU seconds of each step of a build, and how many threads were busy in it: what
// CQLINDEX_BUILD_TIMES=1 prints on stderr. On a shared machine wall time is noise; the CPU of the step and of its
// busiest thread are not, and they bound the wall time the step takes on an idle machine of N cores:
// max(CPU / N, busiest thread's CPU).
#include <string>
#include <vector>

namespace cqlindex::indexer {

struct StepTime {
  std::string name;
  double wall = 0;            // seconds
  double cpu = 0;             // CPU seconds of the whole process (every thread)
  double busiest_thread = 0;  // CPU seconds of the step's busiest thread (the critical path when it runs alone)
};

// Returns the CPU seconds the calling thread has used so far.
double thread_cpu_seconds();

// Laps of a build: each lap closes one step.
class StepClock {
 public:
  StepClock();
  // Closes step `name`: the time since the last lap. `busiest_thread` is the CPU of the step's busiest helper
  // thread, if it ran any (the calling thread's own CPU in the step is measured here).
  void lap(std::string name, double busiest_thread = 0);
  const std::vector<StepTime>& steps() const { return steps_; }

 private:
  double wall_, cpu_, thread_cpu_;
  std::vector<StepTime> steps_;
};

// Returns a table of `steps`: wall, CPU, CPU / wall (threads busy on average), the busiest thread's CPU, and the
// wall time each would take on an idle machine of `cores` cores.
std::string format_step_times(const std::vector<StepTime>& steps, unsigned cores);

// True when the environment asks for the step times (CQLINDEX_BUILD_TIMES set and not "0").
bool step_times_wanted();

}  // namespace cqlindex::indexer
