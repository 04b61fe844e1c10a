// The judges' report of `cqlindex similar --report FILE.html` (issue 17): one self-contained HTML file (no
// network, no fonts, no scripts). A navigation list of the submissions at the top; for each submission its
// header and diagram; for each repository game within reach of it (by distance, then earliest date), its header,
// the matching position drawn as the submission is oriented (the transform undone) beside the submission's
// position, with the squares that differ outlined, the transform in words, the move where it occurs and the
// moves leading to it. Diagrams are inline SVG drawn here. Past kCollapseAbove matches every submission's list
// starts collapsed (<details>), so that the page opens on the navigation list whatever its size. A4 print rules
// keep a match on one page.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "exec/near_search.h"

namespace cqlindex::exec {

// Above this many matches the match lists start collapsed.
constexpr size_t kCollapseAbove = 500;

struct ReportInput {
  const cql::similar::SubmissionDb& db;
  std::string_view submissions_text;
  const pgn::RangeReader& repo;
  const NearSearch& search;
  const std::vector<NearPair>& pairs;  // near_pairs order
  std::string submissions_name, repository_name;
  const std::vector<uint32_t>& common;  // submission positions near a large share of the repository (noted)
  bool common_skipped = false;          // --ignore-common: they are left out
};

// Writes the report; false (with `error`) when a repository game cannot be read again.
bool write_near_report(std::ostream& out, const ReportInput& in, std::string* error);

}  // namespace cqlindex::exec
