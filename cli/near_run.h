// What `cqlindex similar --near K` and `--report FILE.html` add once CQL's output is written (issue 17): the
// near-anticipations (near_search.h) on stderr, and the judges' report (near_report.h). Called from
// run_similar by one delimited hook; CQL's output file is not touched.
#pragma once

#include <string_view>

#include "cli/near_search.h"
#include "cli/output_file.h"
#include "cli/similar_run.h"

namespace cqlindex::cli {

// Searches within opt.near (0 when only a report is asked), through `index` when there is one and the limit
// allows, else by a scan of the repository; prints the common positions and the pairs; writes `report` when
// given. Returns the exit code.
int run_near(const SimilarRequest& opt, cql::similar::SubmissionDb& db, const NearSubmissions& subs,
             const store::IndexStore* index, const pgn::RangeReader& repo, std::string_view submissions_text,
             OutputFile* report, unsigned threads);

}  // namespace cqlindex::cli
