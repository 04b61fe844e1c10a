// Near-anticipations (issue 17): how far a repository board is from a submission board under the transforms
// similarposition uses (board_transform.h), and those transforms said in words for a judge.
//
// The distance of two boards is the number of squares whose contents differ: an added, removed or replaced
// piece counts 1, a piece moved to another square 2. A repository board is within distance K of a submission
// board when some image of the submission board (under the transforms CQL tries for it) is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/chess/types.h"
#include "engine/cql/similar/board_transform.h"

namespace cqlindex::cql::similar {

// Returns the number of squares whose contents differ between `a` and `b`.
unsigned board_distance(const Board& a, const Board& b);

// The image of a submission board closest to a repository board.
struct NearFit {
  unsigned distance = 0;
  const BoardTransform* transform = nullptr;  // takes the submission board to that image
};

// Returns the image of `submission` (transforms_for(pawnless, notransform), the first in CQL's order among the
// closest) nearest to `repository`, or nullopt when every image is more than `limit` squares away.
std::optional<NearFit> nearest_image(const Board& submission, bool notransform, const Board& repository,
                                     unsigned limit);

// Returns `t` in words, in the order it is applied: "as it stands", "mirrored left-right", "shifted two files
// right, then mirrored left-right", "rotated 90 degrees clockwise", ...
std::string transform_in_words(const BoardTransform& t);
// The same from CQL's name of a transform as its comments write it ("reflect_v left^2"; "" the identity).
std::string transform_in_words(const std::string& name);

// Writes `image` as the submission is oriented (t undone) to `out`; returns how many of its pieces t's inverse
// takes off the board (a near match may add a piece where the submission, shifted back, has no square).
unsigned undo_transform(const BoardTransform& t, const Board& image, Board& out);

}  // namespace cqlindex::cql::similar
