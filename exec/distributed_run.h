#pragma once
// `mpirun -np K cqlindex run Q.cql -i NAME.cqlrepo -o OUT.pgn` (issue 18, docs/distributed.md): each rank
// evaluates a contiguous share of the repository's games (whole files, or parts of files when there are fewer
// files than ranks) with its own threads, and rank 0 writes the matched games in game order (or merges them in
// sort order) into the output, which is the one-process run's byte for byte, as are the summary line and the
// accounting. Queries with state carried from game to game (persistent, dictionaries, readfile/writefile),
// `message`, a query that can stop at a game and -lex/-parse run on rank 0 alone, as one process; the other
// ranks return at once. A lone similarposition is split as `cqlindex similar` is (distributed_similar.h).
#include "exec/run_query.h"

namespace cqlindex::exec {

// Runs the query `settings` name as this process's rank of MPI_COMM_WORLD (MPI initialised by the caller);
// every rank must call it. Returns the run's summary on rank 0; on the other ranks a summary with nothing to
// print (their status Ok, as rank 0 reports every refusal). A rank that cannot go on after the others started
// ends the run with MPI_Abort (exit 2); the output file is written only when every rank finished its share.
RunSummary run_distributed(const RunSettings& settings);

// Waits, sleeping, until every rank has called it: before MPI_Finalize, whose own wait polls a core while rank
// 0 answers a query alone.
void wait_for_every_rank();

}  // namespace cqlindex::exec
