#pragma once
// The one page of `cqlindex serve` (GET /): HTML, CSS and JavaScript in the binary, nothing fetched from the
// network. A query editor (parse errors at their line and column), the results, an SVG board to step through a
// result game with the matched positions marked and an explorer of the moves played from the board shown (a
// click walks on); a tab to paste a study (FEN or PGN) and see its predecessors beside it.
#include <string_view>

namespace cqlindex::serve {

// Returns the page's HTML.
std::string_view page_html();

}  // namespace cqlindex::serve
