#pragma once
// The lines that close a query's run, printed from the summary the execution layer returns.
#include "exec/run_query.h"
#include "exec/similar_query.h"
#include "exec/yacpdb_query.h"

namespace cqlindex::cli {

// Prints "N matches of M games in S seconds using T threads to OUT" on stdout, as CQL does.
void print_similar_summary(const exec::SimilarSummary& summary);

// Prints CQL's line "N matches of M games in S seconds using T threads to OUT" and the persistent variables on
// stdout, then the accounting of every game on stderr.
void print_run_summary(const exec::RunSummary& summary);

// Prints "N matches of M entries in S seconds" (and the entries not analysed), on stderr when the entries went
// to stdout, else on stdout.
void print_yacpdb_summary(const exec::YacpdbSummary& summary);

}  // namespace cqlindex::cli
