#pragma once
// The sub-commands of cqlindex. Each returns the process exit code (see exit_codes.h).

namespace cqlindex::exec {
struct RunSettings;
struct RunSummary;
struct SimilarRequest;
struct SimilarSummary;
}  // namespace cqlindex::exec

namespace cqlindex::cli {

// Runs the sub-command named by argv[1]; returns the exit code.
int dispatch(int argc, char** argv);

// cqlindex check FILE.pgn [--fen] [--threads N]: validates a PGN file (command_check.cpp).
int command_check(int argc, char** argv);

// cqlindex build REPO.pgn [--index DIR] [--threads N] [--append]: indexes a repository (command_build.cpp).
int command_build(int argc, char** argv);

// cqlindex info [REPO.pgn | --index DIR]: what an index holds (command_info.cpp).
int command_info(int argc, char** argv);
// cqlindex verify [REPO.pgn | --index DIR]: reads every byte of an index and its PGN's indexed prefix
// (command_verify.cpp).
int command_verify(int argc, char** argv);
// cqlindex similar SUBMISSIONS.pgn -i REPO.pgn [...]: CQL's -similarposition through the index
// (command_similar.cpp).
int command_similar(int argc, char** argv);
// `similar` with `search` answering the request (exec::run_similar, or exec::run_similar_distributed on an MPI
// rank); `speaks`: usage errors and the summary line printed (rank 0 only). Returns the exit code.
int similar_command_with(int argc, char** argv, exec::SimilarSummary (*search)(const exec::SimilarRequest&),
                         bool speaks);

// cqlindex explain QUERY.cql -i REPO.pgn [--index DIR]: the plan of a query over an index (command_explain.cpp).
int command_explain(int argc, char** argv);
// `run QUERY.cql [options]`: parse (and later evaluate) a CQL query; returns the exit code.
int run_command(int argc, char** argv);
// `run` with `evaluate` answering the settings (exec::run_query, or exec::run_distributed on an MPI rank);
// `speaks`: usage errors and the summary lines printed (rank 0 only). Returns the exit code.
int run_command_with(int argc, char** argv, exec::RunSummary (*evaluate)(const exec::RunSettings&), bool speaks);
// Runs cqlindex-mpi, built beside this program, with the sub-command argv[0] and the same arguments (one of
// several MPI ranks: exec/distributed_launch.h); returns an exit code only when it cannot be run.
int run_distributed_executable(int argc, char** argv);
// cqlindex yacpdb 'QUERY' -i FILE [-o OUT.pgn] [--count]: YACPDB queries over problems (command_yacpdb.cpp).
int command_yacpdb(int argc, char** argv);

// cqlindex serve REPO.pgn [--port N] [--bind ADDR] [...]: runs the server executable cqlindex-serve built beside
// this one with the same arguments (command_serve.cpp); returns an exit code only when it cannot be run.
int command_serve(int argc, char** argv);

}  // namespace cqlindex::cli
