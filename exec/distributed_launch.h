#pragma once
// How `cqlindex run` knows it was started as one of several MPI processes (issue 18): the launcher's
// environment, read before anything else, so that the one-process path never loads the MPI libraries. (Header
// only: the exec/distributed_*.cpp files are the MPI code, built into cqlindex-mpi alone; see CMakeLists.txt.)
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <string>

namespace cqlindex::exec {

// The executable that runs a query as one rank of several (built beside cqlindex when Open MPI is installed).
constexpr const char* kDistributedExecutable = "cqlindex-mpi";

// Returns the number of processes the MPI launcher started this one among (Open MPI's mpirun sets
// OMPI_COMM_WORLD_SIZE; Slurm's srun with PMI-2 sets PMI_SIZE); 1 when there is no launcher.
inline int launched_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* value = std::getenv(name)) {
      try {
        return std::max(1, std::stoi(value));
      } catch (const std::exception&) {  // not a number: not a launcher's
      }
    }
  return 1;
}

// Returns this process's rank among launched_ranks() (OMPI_COMM_WORLD_RANK, PMI_RANK); 0 without a launcher.
inline int launched_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK"})
    if (const char* value = std::getenv(name)) {
      try {
        return std::max(0, std::stoi(value));
      } catch (const std::exception&) {  // not a number: not a launcher's
      }
    }
  return 0;
}

}  // namespace cqlindex::exec
