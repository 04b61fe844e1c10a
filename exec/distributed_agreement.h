#pragma once
// Before a distributed run scans, its ranks agree that they run the same command on the same data: mpirun may
// start them with other arguments (`mpirun -np 1 ... q1.cql : -np 1 ... q2.cql`) or in other folders
// (`-wdir A ... : -wdir B ...`), whose merge would match neither. Rank 0's facts are sent to every rank; a rank
// whose facts differ names the first difference on stderr, and every rank learns that one differed.
// MPI code: built into cqlindex-mpi alone (CMakeLists.txt).
#include <string>
#include <utility>
#include <vector>

namespace cqlindex::exec {

// One fact a rank states about its run: what it is about (an argument, a file) and its value.
struct RankFact {
  std::string name;
  std::string value;
};

// Returns true when every rank's `facts` are rank 0's; else false on every rank, after each rank that differs
// wrote "cqlindex COMMAND: rank K: NAME is 'VALUE', but on rank 0 it is 'VALUE0'" (and rank 0 a line saying the job
// stopped). Collective.
bool ranks_agree(const std::vector<RankFact>& facts, const std::string& command);

// Returns the fact of a command line: its arguments, quoted where a shell would need it.
std::vector<RankFact> argument_facts(int argc, char** argv);

// Returns the facts of the files a rank reads: each file's size and the XXH3-64 of its sampled blocks (what an
// index's freshness check compares: store/content_fingerprint.h), or why it cannot be read. Paths are named as
// given: ranks in other folders see other files under one relative name.
std::vector<RankFact> file_facts(const std::vector<std::string>& paths);

}  // namespace cqlindex::exec
