#include "engine/cql/similar/submission_db.h"

#include <unordered_map>

#include "engine/pgn/reader.h"

namespace cqlindex::cql::similar {
namespace {

// A board and side to move, exactly: the occupied squares, then one 4-bit piece code per occupied square in
// square order (at most 32 pieces).
struct BoardKey {
  uint64_t occupied = 0;
  uint64_t low = 0, high = 0;  // piece codes of the 1st-16th and 17th-32nd occupied squares
  uint8_t side = 0;
  friend bool operator==(const BoardKey&, const BoardKey&) = default;
};

struct BoardKeyHash {
  size_t operator()(const BoardKey& k) const {
    uint64_t h = k.occupied * 0x9E3779B97F4A7C15ull;
    h ^= (k.low + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2)) * 0xBF58476D1CE4E5B9ull;
    h ^= (k.high + k.side + (h << 6) + (h >> 2)) * 0x94D049BB133111EBull;
    return size_t(h ^ (h >> 31));
  }
};

BoardKey key_of(const Board& b, chess::Color side) {
  BoardKey k;
  k.side = uint8_t(side);
  unsigned n = 0;
  for (int sq = 0; sq < 64; ++sq) {
    if (b[sq] == chess::NO_PIECE) continue;
    k.occupied |= uint64_t(1) << sq;
    (n < 16 ? k.low : k.high) |= uint64_t(b[sq]) << (4 * (n & 15));
    ++n;
  }
  return k;
}

BoardKey key_of(const chess::Position& pos) {
  BoardKey k;
  k.side = uint8_t(pos.side_to_move());
  k.occupied = pos.pieces();
  unsigned n = 0;
  for (chess::Bitboard b = k.occupied; b; b &= b - 1, ++n) {
    chess::Square sq = chess::Square(__builtin_ctzll(b));
    (n < 16 ? k.low : k.high) |= uint64_t(pos.piece_on(sq)) << (4 * (n & 15));
  }
  return k;
}

// A bit per hash of (occupied squares, side to move) of every key: most repository positions fail this test,
// which is a cache-resident bit read, before any hash-map probe.
constexpr unsigned kFilterBits = 21;

uint64_t filter_slot(uint64_t occupied, uint8_t side) {
  uint64_t h = (occupied ^ (uint64_t(side) << 63)) * 0x9E3779B97F4A7C15ull;
  return h >> (64 - kFilterBits);
}

// CQL's move number of the position `ply` plies after a first position with `first` to move.
uint32_t cql_move_number(chess::Color first, uint32_t ply) {
  if (first == chess::BLACK && ply % 2 == 1) ++ply;
  return ply / 2 + 1;
}

}  // namespace

struct SubmissionDb::Impl {
  std::string file_name;
  bool notransform = false;
  uint32_t games = 0;
  std::vector<SubmissionPosition> positions;
  std::vector<chess::Position> boards;  // Options::keep_positions
  std::vector<bool> excluded;
  std::unordered_map<BoardKey, std::vector<Entry>, BoardKeyHash> entries;
  std::vector<uint64_t> filter = std::vector<uint64_t>(size_t(1) << (kFilterBits - 6), 0);

  bool may_hold(uint64_t occupied, uint8_t side) const {
    uint64_t slot = filter_slot(occupied, side);
    return filter[slot >> 6] >> (slot & 63) & 1;
  }

  void insert(const chess::Position& pos, const SubmissionPosition& where) {
    const uint32_t id = uint32_t(positions.size());
    positions.push_back(where);
    excluded.push_back(false);
    const Board board = board_of(pos);
    const bool pawnless = pos.pieces(chess::PAWN) == 0;
    Board image;
    for (const BoardTransform* t : transforms_for(pawnless, notransform)) {
      if (!apply_transform(*t, board, image)) continue;
      const BoardKey key = key_of(image, where.side);
      const uint64_t slot = filter_slot(key.occupied, key.side);
      filter[slot >> 6] |= uint64_t(1) << (slot & 63);
      std::vector<Entry>& list = entries[key];
      // Games are inserted in order, so the entries of this game are at the end of the list.
      bool listed = false;
      for (auto e = list.rbegin(); e != list.rend() && positions[e->position].game == where.game && !listed; ++e)
        listed = positions[e->position].move == where.move;
      if (!listed) list.push_back(Entry{id, t});
    }
  }
};

SubmissionDb::SubmissionDb(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SubmissionDb::SubmissionDb(SubmissionDb&&) noexcept = default;
SubmissionDb& SubmissionDb::operator=(SubmissionDb&&) noexcept = default;
SubmissionDb::~SubmissionDb() = default;

SubmissionDb SubmissionDb::read(std::string_view text, std::string file_name, const Options& options,
                                std::vector<pgn::PgnError>* errors, const PositionVisitor& visit) {
  auto impl = std::make_unique<Impl>();
  impl->file_name = std::move(file_name);
  impl->notransform = options.notransform;
  pgn::ParseOptions parse;
  parse.mainline_only = true;  // CQL reads the submissions' mainlines only
  pgn::GameReader reader(text, parse);
  pgn::Game game;
  while (reader.next(game)) {
    ++impl->games;
    if (errors) errors->insert(errors->end(), game.errors.begin(), game.errors.end());
    if (!game.start_known || game.status == pgn::GameStatus::SkippedVariant) continue;
    chess::Position pos = game.start;
    const chess::Color first = pos.side_to_move();
    uint32_t ply = 0;
    pgn::NodeIndex node = 0;
    for (;;) {
      SubmissionPosition where{uint32_t(game.number), cql_move_number(first, ply), ply, pos.side_to_move()};
      if (visit) visit(uint32_t(impl->positions.size()), pos, where);
      if (options.keep_positions) impl->boards.push_back(pos);
      impl->insert(pos, where);
      node = game.nodes[node].first_child;
      if (node == pgn::kNoNode) break;
      pos.do_move(game.nodes[node].move);
      ++ply;
    }
  }
  return SubmissionDb(std::move(impl));
}

const std::string& SubmissionDb::file_name() const { return impl_->file_name; }
bool SubmissionDb::notransform() const { return impl_->notransform; }
uint32_t SubmissionDb::games() const { return impl_->games; }
uint32_t SubmissionDb::positions() const { return uint32_t(impl_->positions.size()); }
const SubmissionPosition& SubmissionDb::position(uint32_t id) const { return impl_->positions[id]; }
const chess::Position& SubmissionDb::board(uint32_t id) const { return impl_->boards.at(id); }
void SubmissionDb::exclude(uint32_t id) { impl_->excluded[id] = true; }
bool SubmissionDb::excluded(uint32_t id) const { return impl_->excluded[id]; }

bool SubmissionDb::lookup(const chess::Position& pos, std::vector<Entry>& out) const {
  if (!impl_->may_hold(pos.pieces(), uint8_t(pos.side_to_move()))) return false;
  auto it = impl_->entries.find(key_of(pos));
  if (it == impl_->entries.end()) return false;
  bool any = false;
  for (const Entry& e : it->second)
    if (!impl_->excluded[e.position]) {
      out.push_back(e);
      any = true;
    }
  return any;
}

std::string SubmissionDb::describe(const Entry& e) const {
  const SubmissionPosition& p = impl_->positions[e.position];
  std::string s = "see " + impl_->file_name + " game: " + std::to_string(p.game) + " at move: " +
                  std::to_string(p.move) + (p.side == chess::WHITE ? " wtm " : " btm ");
  s += e.transform->name;
  return s;
}

std::string read_message(const SubmissionDb& db) {
  return "Db: read " + std::to_string(db.games()) + " games from submission file: " + db.file_name();
}

Board board_of(const chess::Position& pos) {
  Board b;
  for (int sq = 0; sq < 64; ++sq) b[sq] = pos.piece_on(chess::Square(sq));
  return b;
}

}  // namespace cqlindex::cql::similar
