// What `cqlindex similar --near K` and `--report FILE.html` add once CQL's output is written (issue 17): the
// near-anticipations (near_search.h) on stderr, and the judges' report (near_report.h). Called from
// run_similar by one delimited hook; CQL's output file is not touched.
#pragma once

#include <string_view>

#include "exec/near_search.h"
#include "exec/output_file.h"
#include "exec/similar_query.h"
#include "exec/status.h"

namespace cqlindex::exec {

// Searches within opt.near (0 when only a report is asked), through `index` when there is one and the limit
// allows, else by a scan of the repository; prints the common positions and the pairs; writes `report` when
// given; counts the pairs in `counted`. Returns how it ended (the messages are on stderr).
// A served search (opt.memory) says its lines in the run's diagnostics, goes through the index only, stops
// when the run is cancelled, and hands each pair's facts to opt.memory->on_near.
Status run_near(const SimilarRequest& opt, cql::similar::SubmissionDb& db,
                const store::IndexStore* index, const pgn::RangeReader& repo, std::string_view submissions_text,
                OutputFile* report, unsigned threads, NearSummary& counted);

}  // namespace cqlindex::exec
