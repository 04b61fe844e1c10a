// A rank's steps timed (distributed_timeline.h).
#include "exec/distributed_timeline.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include <unistd.h>

namespace cqlindex::exec {
namespace {

double clock_seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// Returns when this process started, in seconds since boot (/proc/self/stat's 22nd field): the time before
// main (mpirun's launch, the dynamic loader) is part of a rank's wall.
double process_start() {
  std::ifstream stat("/proc/self/stat");
  std::string line;
  std::getline(stat, line);
  const size_t name_end = line.rfind(')');  // the command name may hold spaces
  if (name_end == std::string::npos) return 0;
  std::istringstream fields(line.substr(name_end + 2));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i) {
  }
  return double(std::atoll(field.c_str())) / double(sysconf(_SC_CLK_TCK));
}

}  // namespace

RankTimeline::RankTimeline(int rank) : rank_(rank), on_(std::getenv("CQLINDEX_RANK_TIMES") != nullptr) {
  if (!on_) return;
  marks_.push_back({"exec", process_start(), 0});
  mark("start");
}

void RankTimeline::mark(const char* what) {
  if (on_) marks_.push_back({what, clock_seconds(CLOCK_BOOTTIME), clock_seconds(CLOCK_PROCESS_CPUTIME_ID)});
}

RankTimeline::~RankTimeline() {
  if (!on_) return;
  std::ostringstream line;
  line.setf(std::ios::fixed);
  line.precision(3);
  line << "cqlindex run: rank " << rank_ << " times (wall since boot / CPU s):";
  for (const Mark& m : marks_) line << " " << m.what << " " << m.wall << "/" << m.cpu;
  std::cerr << line.str() + "\n";
}

}  // namespace cqlindex::exec
