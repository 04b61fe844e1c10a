// cqlindex-mpi run QUERY.cql -i REPO [...] (or similar SUBMISSIONS.pgn -i REPO [...]): `cqlindex run` (`similar`)
// as one rank of an MPI job (issue 18, docs/distributed.md). `cqlindex run` (`similar`) execs it when mpirun
// started several processes; it is a program of its own so that only it links Open MPI (CMakeLists.txt says why).
// Rank 0 prints what one process would print and exits with its exit code; the other ranks print only their own
// problems and exit 0 when rank 0 reports the outcome. A rank that cannot go on once the others have started ends
// the job with MPI_Abort (exit 2).
#include <mpi.h>

#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "exec/distributed_agreement.h"
#include "exec/distributed_run.h"
#include "exec/distributed_similar.h"
#include "exec/output_file.h"
#include "exec/whole_lines.h"

namespace {

// When every rank runs on this node (mpirun's OMPI_COMM_WORLD_LOCAL_SIZE equals OMPI_COMM_WORLD_SIZE), asks Open MPI
// for its ob1 messaging layer, whose shared-memory transport (vader, one copy through CMA) is the one-node path,
// unless the user chose a layer (OMPI_MCA_pml, set before MPI_Init as mpirun's own settings are). Where UCX is
// installed Open MPI otherwise chooses it, whose start probes every network device: 0.19 s of each job's wall
// on this machine, a tenth of a 2-rank run over 100,000 games. Across nodes Open MPI chooses as it would.
void prefer_shared_memory_on_one_node() {
  const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  const char* all = std::getenv("OMPI_COMM_WORLD_SIZE");
  if (local && all && std::string(local) == all && !std::getenv("OMPI_MCA_pml")) setenv("OMPI_MCA_pml", "ob1", 0);
}

}  // namespace

int main(int argc, char** argv) {
  const cqlindex::exec::WholeLineStandardError whole_lines;  // the ranks share stderr through mpirun
  cqlindex::exec::fail_writes_past_file_size_limit();
  prefer_shared_memory_on_one_node();
  int provided = 0;
  // The worker threads of a rank make no MPI call: only the main thread does (FUNNELED).
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    std::cerr << "cqlindex run: MPI_Init failed\n";
    return cqlindex::cli::kExitInput;
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const std::string command = argc < 2 ? "" : argv[1];
  if (command != "run" && command != "similar") {
    if (rank == 0)
      std::cerr << "usage: mpirun -np K cqlindex run QUERY.cql -i REPO [-o OUT.pgn] [CQL options]\n"
                   "       mpirun -np K cqlindex similar SUBMISSIONS.pgn -i REPO [-o OUT.pgn] [options]\n";
    MPI_Finalize();
    return cqlindex::cli::kExitUsage;
  }
  // Every rank runs the same command: mpirun can start them with other arguments (a stop, not a wrong merge).
  if (!cqlindex::exec::ranks_agree(cqlindex::exec::argument_facts(argc - 1, argv + 1), command)) {
    MPI_Finalize();
    return cqlindex::cli::kExitInput;
  }
  int rc = cqlindex::cli::kExitInput;
  try {
    cqlindex::exec::StandardOutputWatch watch;
    rc = command == "run"
             ? cqlindex::cli::run_command_with(argc - 1, argv + 1, cqlindex::exec::run_distributed, rank == 0)
             : cqlindex::cli::similar_command_with(argc - 1, argv + 1, cqlindex::exec::run_similar_distributed,
                                                   rank == 0);
    if (auto error = rc == cqlindex::cli::kExitOk ? cqlindex::exec::standard_output_error() : std::nullopt) {
      std::cerr << "cqlindex " << command << ": " << *error << "\n";
      rc = cqlindex::cli::kExitInput;
    }
  } catch (const std::bad_alloc&) {  // the others may wait for this rank: end them all
    std::cerr << "cqlindex " << command << ": rank " << rank << ": out of memory\n";
    MPI_Abort(MPI_COMM_WORLD, cqlindex::cli::kExitInput);
  } catch (const std::exception& e) {
    std::cerr << "cqlindex " << command << ": rank " << rank << ": " << e.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, cqlindex::cli::kExitInput);
  }
  cqlindex::exec::wait_for_every_rank();
  MPI_Finalize();
  return rc;
}
