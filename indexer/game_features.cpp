// Per-game extraction: every mainline position's canonical key (as its hash) and material, the pieces' squares, the
// game's flags, and the tag-derived attributes.
#include "indexer/game_features.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "engine/chess/movegen.h"
#include "indexer/explore_postings.h"
#include "store/keys/canonical_key.h"
#include "store/keys/material_key.h"
#include "store/keys/tag_key.h"
#include "store/position_buckets.h"

namespace cqlindex::indexer {
namespace {

using store::keys::canonical_key;
using store::keys::GameFlag;
using store::keys::kGameFlagCount;
using store::keys::kIndexedTags;
using store::keys::kMaxKeyBytes;
using store::keys::Material;
using store::keys::material_key;
using store::keys::material_of;
using store::keys::tag_key;
using store::keys::TagKeyKind;

// Returns the leading decimal number of `text` if it is in [lo, hi], else 0 ("?", "????.??.??", "").
uint16_t leading_number(std::string_view text, int digits, int lo, int hi) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + std::min<size_t>(text.size(), digits), value);
  if (ec != std::errc() || end == text.data() || value < lo || value > hi) return 0;
  return static_cast<uint16_t>(value);
}

store::GameResult result_of(std::optional<std::string_view> tag) {
  if (!tag) return store::GameResult::Unknown;
  if (*tag == "1-0") return store::GameResult::WhiteWins;
  if (*tag == "0-1") return store::GameResult::BlackWins;
  if (*tag == "1/2-1/2") return store::GameResult::Draw;
  return store::GameResult::Unknown;
}

constexpr chess::Piece kPieces[] = {chess::W_PAWN, chess::W_KNIGHT, chess::W_BISHOP, chess::W_ROOK,
                                    chess::W_QUEEN, chess::W_KING,  chess::B_PAWN,   chess::B_KNIGHT,
                                    chess::B_BISHOP, chess::B_ROOK,  chess::B_QUEEN,  chess::B_KING};

uint32_t bit(GameFlag f) { return 1u << static_cast<unsigned>(f); }

// The flags a move sets.
uint32_t move_flags(chess::Move m) {
  using namespace chess;
  if (m.is_null()) return bit(GameFlag::NullMove);
  switch (m.kind()) {
    case PROMOTION:
      switch (m.promotion()) {
        case QUEEN: return bit(GameFlag::PromoteQueen);
        case ROOK: return bit(GameFlag::PromoteRook);
        case BISHOP: return bit(GameFlag::PromoteBishop);
        default: return bit(GameFlag::PromoteKnight);
      }
    case CASTLING: return file_of(m.to()) > file_of(m.from()) ? bit(GameFlag::CastleShort) : bit(GameFlag::CastleLong);
    case EN_PASSANT: return bit(GameFlag::EnPassant);
    default: return 0;
  }
}

// True when `a` and `b` are the same counts. (Two word loads: std::array's == was a call to memcmp, 3 % of a
// build.)
bool same_material(const Material& a, const Material& b) {
  static_assert(sizeof(Material) == 10);
  uint64_t a8, b8;
  uint16_t a2, b2;
  std::memcpy(&a8, a.data(), 8), std::memcpy(&b8, b.data(), 8);
  std::memcpy(&a2, a.data() + 8, 2), std::memcpy(&b2, b.data() + 8, 2);
  return a8 == b8 && a2 == b2;
}

// Collects what the positions of one mainline show.
class PositionVisitor {
 public:
  PositionVisitor(uint32_t id, WorkerPostings& out) : id_(id), out_(out) {}

  // `may_be_last`: no move but a null move may follow (a position without a legal move is the mainline's last,
  // as the reader accepts legal moves only; `--` may still follow a stalemate): mate and stalemate are looked
  // for there only, which spares a move generation at nearly every position.
  void visit(const chess::Position& pos, bool may_be_last) {
    char key[kMaxKeyBytes];
    const uint64_t h = store::position_hash(std::string_view(key, canonical_key(pos, key)));
    out_.distinct.add(h);
    out_.runs.add_position(h, id_);
    // Only a capture or a promotion changes the material: counted then (and at the first position) only.
    if (material_may_change_) {
      material_may_change_ = false;
      const Material m = material_of(pos);
      if (!same_material(m, last_material_)) {
        last_material_ = m;
        if (std::none_of(materials_.begin(), materials_.end(), [&](const Material& s) { return same_material(s, m); })) {
          materials_.push_back(m);
          out_.runs.add(store::Family::Material, material_key(m), id_);
        }
      }
    }
    for (chess::Piece p : kPieces) seen_[p] |= pos.pieces(chess::color_of(p), chess::type_of(p));
    if (pos.in_check()) {
      flags_ |= bit(GameFlag::Check);
      if (may_be_last && !chess::has_legal_move(pos)) flags_ |= bit(GameFlag::Mate);
    } else if (may_be_last && !chess::has_legal_move(pos)) {
      flags_ |= bit(GameFlag::Stalemate);
    }
  }
  // Notes move `m`, played from `before`.
  void move(const chess::Position& before, chess::Move m) {
    flags_ |= move_flags(m);
    if (m.kind() == chess::PROMOTION || before.captured_piece(m) != chess::NO_PIECE) material_may_change_ = true;
  }

  // Hands the game's piece squares and flags to the worker's bitmaps; returns the flags.
  uint32_t finish() {
    for (int p = 0; p < 16; ++p)
      for (chess::Bitboard b = seen_[p]; b;) out_.add_piece_square(p * 64 + chess::pop_lsb(b), id_);
    for (size_t f = 0; f < kGameFlagCount; ++f)
      if (flags_ & (1u << f)) out_.flags[f].add(id_);
    return flags_;
  }

 private:
  uint32_t id_;
  WorkerPostings& out_;
  std::vector<Material> materials_;
  Material last_material_{0xFF};  // (no position has 255 queens: the first position is always new)
  chess::Bitboard seen_[16] = {};
  uint32_t flags_ = 0;
  bool material_may_change_ = true;  // the position to visit may have other material than the last one
};

// Returns the place of `name` in kIndexedTags, or -1. (Length and first letter first: compared whole to every
// indexed name, a game's tags cost a hundred memcmp calls, 3 % of a build.)
int indexed_tag_index(std::string_view name) {
  for (size_t i = 0; i < std::size(kIndexedTags); ++i) {
    const std::string_view indexed = kIndexedTags[i];
    if (indexed.size() == name.size() && indexed[0] == name[0] && indexed == name) return static_cast<int>(i);
  }
  return -1;
}

// Emits the game's tags family postings: every value of the indexed tags, the missing ones, and the
// termination marker. (Their order is free: a run sorts them.)
void add_tag_postings(const pgn::Game& game, uint32_t id, RunWriter& runs) {
  static_assert(std::size(kIndexedTags) <= 32);
  uint32_t seen = 0;
  for (const pgn::Tag& t : game.tags) {
    const int i = indexed_tag_index(t.name);
    if (i < 0) continue;
    runs.add(store::Family::Tags, tag_key(kIndexedTags[i], t.value), id);
    if (t.raw_value != t.value) runs.add(store::Family::Tags, tag_key(kIndexedTags[i], t.raw_value), id);  // escapes kept
    seen |= 1u << i;
  }
  for (size_t i = 0; i < std::size(kIndexedTags); ++i)
    if (!(seen & (1u << i))) runs.add(store::Family::Tags, tag_key(kIndexedTags[i], TagKeyKind::Missing), id);
  if (!game.result_token.empty()) runs.add(store::Family::Tags, tag_key("Result", TagKeyKind::Marker, game.result_token), id);
}

}  // namespace

void WorkerPostings::add_pending(size_t list) {
  piece_square[list].addMany(pending_count[list], pending_ids.data() + list * kBatch);
  pending_count[list] = 0;
}

std::vector<Roaring*> WorkerPostings::bitmap_lists() {
  for (size_t list = 0; list < kPieceSquareLists; ++list)
    if (pending_count[list] > 0) add_pending(list);
  std::vector<Roaring*> lists;
  for (Roaring& r : piece_square) lists.push_back(&r);
  for (Roaring& r : flags) lists.push_back(&r);
  return lists;
}

void WorkerPostings::game_done() {
  if (++games_in_memory < spill_games || !spill_ok) return;
  spill_ok = spill.spill(bitmap_lists(), &spill_error);
  games_in_memory = 0;
}

IndexedGame index_game(const pgn::Game& game, uint32_t id, uint64_t base_offset, WorkerPostings& out) {
  IndexedGame indexed;
  store::GameRecord& r = indexed.record;
  r.offset = base_offset + game.offset;
  r.length = static_cast<uint32_t>(game.length);
  r.result = result_of(game.tag("Result"));
  if (auto date = game.tag("Date")) r.year = leading_number(*date, 4, 1, 9999);
  if (auto elo = game.tag("WhiteElo")) r.white_elo = leading_number(*elo, 4, 1, 4000);
  if (auto elo = game.tag("BlackElo")) r.black_elo = leading_number(*elo, 4, 1, 4000);
  add_tag_postings(game, id, out.runs);
  if (game.status == pgn::GameStatus::SkippedVariant) {
    out.game_done();
    return indexed;
  }

  PositionVisitor visitor(id, out);
  // The reader keeps the position of every node it replayed: no second replay then.
  const bool replayed = game.positions.size() == game.nodes.size();
  chess::Position replay = game.start;
  const chess::Position* pos = replayed ? &game.positions[0] : &replay;
  auto may_be_last = [&](pgn::NodeIndex next) { return next == pgn::kNoNode || game.nodes[next].move.is_null(); };
  visitor.visit(*pos, may_be_last(game.root().first_child));
  indexed.positions = 1;
  ExplorePostings explore(id, out.runs, out.explore ? store::keys::kExploreDepth : 0);  // the first plies' positions and moves (indexer/explore_postings.h)
  for (pgn::NodeIndex n = game.root().first_child; n != pgn::kNoNode; n = game.nodes[n].first_child) {
    if (explore.wanted()) explore.add(*pos, game.nodes[n].move);
    visitor.move(*pos, game.nodes[n].move);
    if (replayed) pos = &game.positions[n];
    else replay.do_move(game.nodes[n].move);
    visitor.visit(*pos, may_be_last(game.nodes[n].first_child));
    ++indexed.positions;
  }
  explore.add(*pos, chess::Move::none());  // the game ends here
  r.plies = indexed.positions - 1;
  r.flags = visitor.finish();
  out.game_done();
  return indexed;
}

}  // namespace cqlindex::indexer
