// Step times from the monotonic clock, getrusage (process) and the calling thread's CPU clock.
#include "indexer/build_step_times.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string_view>
#include <sys/resource.h>

namespace cqlindex::indexer {
namespace {

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double process_cpu_seconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

}  // namespace

double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

StepClock::StepClock() : wall_(wall_seconds()), cpu_(process_cpu_seconds()), thread_cpu_(thread_cpu_seconds()) {}

void StepClock::lap(std::string name, double busiest_thread) {
  const double wall = wall_seconds(), cpu = process_cpu_seconds(), own = thread_cpu_seconds();
  steps_.push_back(StepTime{std::move(name), wall - wall_, cpu - cpu_, std::max(busiest_thread, own - thread_cpu_)});
  wall_ = wall;
  cpu_ = cpu;
  thread_cpu_ = own;
}

std::string format_step_times(const std::vector<StepTime>& steps, unsigned cores) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%-16s %8s %8s %9s %9s %12s\n", "build step", "wall s", "CPU s", "CPU/wall",
                "busiest s", "idle-est. s");
  out += line;
  StepTime total{"total"};
  double estimate_total = 0;
  for (const StepTime& s : steps) {
    const double estimate = std::max(s.cpu / std::max(cores, 1u), s.busiest_thread);
    std::snprintf(line, sizeof line, "%-16s %8.3f %8.3f %9.2f %9.3f %12.3f\n", s.name.c_str(), s.wall, s.cpu,
                  s.wall > 0 ? s.cpu / s.wall : 0.0, s.busiest_thread, estimate);
    out += line;
    total.wall += s.wall;
    total.cpu += s.cpu;
    estimate_total += estimate;
  }
  std::snprintf(line, sizeof line, "%-16s %8.3f %8.3f %9.2f %9s %12.3f\n", "total", total.wall, total.cpu,
                total.wall > 0 ? total.cpu / total.wall : 0.0, "", estimate_total);
  out += line;
  return out;
}

bool step_times_wanted() {
  const char* v = std::getenv("CQLINDEX_BUILD_TIMES");
  return v && *v && std::string_view(v) != "0";
}

}  // namespace cqlindex::indexer
