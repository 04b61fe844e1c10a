// The submission positions as boards, each with its images under similarposition's transforms, for finding the
// repository positions within distance K of them (near_distance.h). Used both to verify the candidates the
// index gives and by the full scan, which asks every repository position of every game.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "engine/chess/position.h"
#include "engine/cql/similar/near_distance.h"

namespace cqlindex::cql::similar {

// A repository position as the near search sees it.
struct RepositoryBoard {
  Board board;
  chess::Bitboard occupied = 0;
  chess::Color side = chess::WHITE;
  chess::Square white_king = chess::SQ_NONE, black_king = chess::SQ_NONE;
};

// Returns `pos` as a RepositoryBoard.
RepositoryBoard repository_board(const chess::Position& pos);

class NearImages {
 public:
  explicit NearImages(bool notransform) : notransform_(notransform) {}

  // Adds submission position `id` (ids increasing, not necessarily every one).
  void add(uint32_t id, const chess::Position& pos);
  bool notransform() const { return notransform_; }
  bool contains(uint32_t id) const { return first_image_.count(id) > 0; }
  const Board& board(uint32_t id) const;
  chess::Color side(uint32_t id) const;

  // Returns the closest image of position `id` to `r` when it is within `limit` (side to move equal).
  std::optional<NearFit> nearest(uint32_t id, const RepositoryBoard& r, unsigned limit) const;

  // Calls visit(id, fit) for every submission position within `limit` of `r` (its closest image), ids in
  // increasing order. The brute force of the full scan: only images sharing `r`'s kings (limit < 2), or one
  // king, or a king on the square of the other one (limit < 4), are compared square by square.
  void for_each_near(const RepositoryBoard& r, unsigned limit,
                     const std::function<void(uint32_t, const NearFit&)>& visit) const;

 private:
  struct Image {
    Board board;
    chess::Bitboard occupied;
    uint32_t id;
    const BoardTransform* transform;
    chess::Color side;
    chess::Square white_king, black_king;
  };
  // Returns the distance of image `i` to `r` when within `limit`.
  static std::optional<unsigned> distance(const Image& i, const RepositoryBoard& r, unsigned limit);

  bool notransform_;
  std::vector<Image> images_;                                            // by id, each id's in CQL's transform order
  std::unordered_map<uint32_t, std::pair<size_t, size_t>> first_image_;  // id -> [begin, end) in images_
  // Images by side and kings: both (side, white king, black king), either one, and by side alone.
  std::unordered_map<uint32_t, std::vector<uint32_t>> by_kings_, by_white_king_, by_black_king_, by_side_;
};

}  // namespace cqlindex::cql::similar
