#pragma once
// `mpirun -np K cqlindex similar SUBMISSIONS.pgn -i NAME.cqlrepo` (issue 18, docs/distributed.md): every rank reads
// the submissions and searches its share of the repository (whole files, or parts of files cut between ranks:
// look-ups and replays), rank 0 gathers the matched games in game order and the hits, and finishes as one
// process does (the judges' reports, CQL's output, the summary): the same bytes as one process.
#include "exec/similar_query.h"

namespace cqlindex::exec {

// Runs the search as this process's rank of MPI_COMM_WORLD (MPI initialised by the caller); every rank must
// call it. Returns rank 0's summary; on the other ranks one with status Ok and nothing to print. A rank that
// cannot go on after the others started ends the job with MPI_Abort (exit 2).
SimilarSummary run_similar_distributed(const SimilarRequest& request);

}  // namespace cqlindex::exec
