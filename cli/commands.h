#pragma once
// The sub-commands of cqlindex. Each returns the process exit code (see exit_codes.h).

namespace cqlindex::exec {
struct RunSettings;
struct RunSummary;
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

// cqlindex explain QUERY.cql -i REPO.pgn [--index DIR]: the plan of a query over an index (command_explain.cpp).
int command_explain(int argc, char** argv);
// `run QUERY.cql [options]`: parse (and later evaluate) a CQL query; returns the exit code.
int run_command(int argc, char** argv);
// `run` with `evaluate` answering the settings (exec::run_query, or exec::run_distributed on an MPI rank);
// `speaks`: usage errors and the summary lines printed (rank 0 only). Returns the exit code.
int run_command_with(int argc, char** argv, exec::RunSummary (*evaluate)(const exec::RunSettings&), bool speaks);
// cqlindex yacpdb 'QUERY' -i FILE [-o OUT.pgn] [--count]: YACPDB queries over problems (command_yacpdb.cpp).
int command_yacpdb(int argc, char** argv);

// cqlindex serve REPO.pgn [--port N] [--bind ADDR] [...]: runs the server executable cqlindex-serve built beside
// this one with the same arguments (command_serve.cpp); returns an exit code only when it cannot be run.
int command_serve(int argc, char** argv);

}  // namespace cqlindex::cli
