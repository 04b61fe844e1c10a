#include "engine/cql/similar/near_images.h"

#include <algorithm>
#include <bit>

#include "engine/cql/similar/submission_db.h"

namespace cqlindex::cql::similar {
namespace {

// The kings of `b` (SQ_NONE when absent).
std::pair<chess::Square, chess::Square> kings_of(const Board& b) {
  chess::Square w = chess::SQ_NONE, k = chess::SQ_NONE;
  for (int sq = 0; sq < 64; ++sq) {
    if (b[sq] == chess::W_KING) w = chess::Square(sq);
    if (b[sq] == chess::B_KING) k = chess::Square(sq);
  }
  return {w, k};
}

uint32_t kings_key(chess::Color side, chess::Square w, chess::Square b) { return uint32_t(side) << 16 | w << 8 | b; }
uint32_t king_key(chess::Color side, chess::Square k) { return uint32_t(side) << 16 | k; }

}  // namespace

RepositoryBoard repository_board(const chess::Position& pos) {
  RepositoryBoard r;
  r.board = board_of(pos);
  r.occupied = pos.pieces();
  r.side = pos.side_to_move();
  std::tie(r.white_king, r.black_king) = kings_of(r.board);
  return r;
}

void NearImages::add(uint32_t id, const chess::Position& pos) {
  const Board board = board_of(pos);
  const size_t begin = images_.size();
  Image image;
  for (const BoardTransform* t : transforms_for(pos.pieces(chess::PAWN) == 0, notransform_)) {
    if (!apply_transform(*t, board, image.board)) continue;
    image.occupied = 0;
    for (int sq = 0; sq < 64; ++sq)
      if (image.board[sq] != chess::NO_PIECE) image.occupied |= chess::Bitboard(1) << sq;
    image.id = id;
    image.transform = t;
    image.side = pos.side_to_move();
    std::tie(image.white_king, image.black_king) = kings_of(image.board);
    const uint32_t at = uint32_t(images_.size());
    images_.push_back(image);
    by_kings_[kings_key(image.side, image.white_king, image.black_king)].push_back(at);
    by_white_king_[king_key(image.side, image.white_king)].push_back(at);
    by_black_king_[king_key(image.side, image.black_king)].push_back(at);
    by_side_[image.side].push_back(at);
  }
  first_image_[id] = {begin, images_.size()};
}

const Board& NearImages::board(uint32_t id) const { return images_[first_image_.at(id).first].board; }
chess::Color NearImages::side(uint32_t id) const { return images_[first_image_.at(id).first].side; }

std::optional<unsigned> NearImages::distance(const Image& i, const RepositoryBoard& r, unsigned limit) {
  if (i.side != r.side) return std::nullopt;
  // Each square occupied on one board only differs: a bound before comparing the pieces.
  if (unsigned(std::popcount(i.occupied ^ r.occupied)) > limit) return std::nullopt;
  unsigned d = 0;
  for (chess::Bitboard b = i.occupied | r.occupied; b; b &= b - 1) {
    const int sq = std::countr_zero(b);
    if (i.board[sq] != r.board[sq] && ++d > limit) return std::nullopt;
  }
  return d;
}

std::optional<NearFit> NearImages::nearest(uint32_t id, const RepositoryBoard& r, unsigned limit) const {
  auto range = first_image_.find(id);
  if (range == first_image_.end()) return std::nullopt;
  std::optional<NearFit> best;
  for (size_t i = range->second.first; i < range->second.second; ++i)
    if (auto d = distance(images_[i], r, limit); d && (!best || *d < best->distance))
      best = NearFit{*d, images_[i].transform};
  return best;
}

void NearImages::for_each_near(const RepositoryBoard& r, unsigned limit,
                               const std::function<void(uint32_t, const NearFit&)>& visit) const {
  // A king cannot be added or removed (a game's positions hold one of each): a king on another square costs 2.
  std::vector<uint32_t> candidates;
  auto take = [&](const std::unordered_map<uint32_t, std::vector<uint32_t>>& map, uint32_t key) {
    if (auto it = map.find(key); it != map.end())
      candidates.insert(candidates.end(), it->second.begin(), it->second.end());
  };
  if (limit < 2) {
    take(by_kings_, kings_key(r.side, r.white_king, r.black_king));
  } else if (limit < 4) {
    // Both kings elsewhere make 4 squares differ, unless a king stands where the other one was.
    take(by_white_king_, king_key(r.side, r.white_king));
    take(by_black_king_, king_key(r.side, r.black_king));
    take(by_white_king_, king_key(r.side, r.black_king));
    take(by_black_king_, king_key(r.side, r.white_king));
  } else {
    take(by_side_, r.side);
  }
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  // Images are stored by id, each id's in CQL's order: the first closest image of each id wins.
  std::optional<NearFit> best;
  uint32_t current = UINT32_MAX;
  for (uint32_t at : candidates) {
    const Image& i = images_[at];
    if (i.id != current) {
      if (best) visit(current, *best);
      best.reset();
      current = i.id;
    }
    if (auto d = distance(i, r, limit); d && (!best || *d < best->distance)) best = NearFit{*d, i.transform};
  }
  if (best) visit(current, *best);
}

}  // namespace cqlindex::cql::similar
