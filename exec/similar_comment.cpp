#include "exec/similar_comment.h"

#include <regex>

#include "engine/cql/similar/near_distance.h"

namespace cqlindex::exec {

std::optional<SimilarComment> read_similar_comment(std::string_view text) {
  // the identity's name is empty: CQL writes "wtm " and nothing after it
  static const std::regex comment("^see .* game: ([0-9]+) at move: ([0-9]+) (wtm|btm) ?(.*)$");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_match(text.begin(), text.end(), m, comment)) return std::nullopt;
  SimilarComment out;
  out.submission_game = std::stoull(m[1].str());
  out.move = std::stoull(m[2].str());
  out.white_to_move = m[3].str() == "wtm";
  out.transform = cql::similar::transform_in_words(m[4].str());
  return out;
}

}  // namespace cqlindex::exec
