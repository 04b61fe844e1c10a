// A position CQL's similarposition matched, read back from the comment it writes there ("see FILE game: G at
// move: M wtm NAME", cql::similar::SubmissionDb::describe), so that a page or report can say it in words
// without knowing CQL's text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cqlindex::exec {

struct SimilarComment {
  uint64_t submission_game = 0, move = 0;  // the submission position it is like: its game and move number
  bool white_to_move = true;
  std::string transform;  // in words: "as it stands", "reflected in the a1-h8 diagonal", ...
};

// Returns what `text` says, or nullopt when it is not such a comment.
std::optional<SimilarComment> read_similar_comment(std::string_view text);

}  // namespace cqlindex::exec
