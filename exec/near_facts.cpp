#include "exec/near_facts.h"

#include "engine/cql/similar/near_distance.h"
#include "engine/pgn/game_parser.h"
#include "exec/near_boards.h"
#include "exec/near_search.h"

namespace cqlindex::exec {
namespace {

// The first field of a FEN: `board`'s pieces, rank 8 first.
std::string placement(const cql::similar::Board& board) {
  std::string s;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const chess::Piece p = board[rank * 8 + file];
      if (p == chess::NO_PIECE) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty), empty = 0;
      const char letter = "?pnbrqk"[chess::type_of(p)];
      s += chess::color_of(p) == chess::WHITE ? char(letter - 'a' + 'A') : letter;
    }
    if (empty) s += char('0' + empty);
    if (rank) s += '/';
  }
  return s;
}

}  // namespace

bool near_facts(const cql::similar::SubmissionDb& db, const pgn::RangeReader& repo, const NearPair& pair,
                NearFacts& out, std::string* error) {
  std::string bytes;
  if (!repo.read(pair.game->offset, pair.game->length, bytes, error)) return false;
  pgn::Game g;
  pgn::ParseOptions parse;
  parse.mainline_only = true;
  pgn::parse_game(bytes, pgn::GameLocation{pair.game->number, pair.game->offset, 1, 1}, g, parse);
  const auto& where = db.position(pair.hit.position);
  const chess::Position& submission = db.board(pair.hit.position);
  out.submission_game = pair.submission_game;
  out.move = where.move;
  out.white_to_move = where.side == chess::WHITE;
  out.game = pair.game->number;
  out.ply = pair.hit.ply;
  out.distance = pair.hit.distance;
  out.transform = cql::similar::transform_in_words(*pair.hit.transform);
  out.date = pair.game->date;
  chess::Position there;
  out.moves = moves_to(g, pair.hit.ply, there);
  const OrientedPair boards = orient(submission, there, *pair.hit.transform);
  out.fen = submission.fen();
  out.repository_fen = there.fen();
  out.oriented = placement(boards.repository);
  for (int sq = 0; sq < 64; ++sq)
    if (boards.differ >> sq & 1) out.differs.push_back(chess::square_name(chess::Square(sq)));
  out.dropped = boards.dropped;
  for (const pgn::Tag& t : g.tags) out.tags.emplace_back(std::string(t.name), std::string(t.value));
  return true;
}

}  // namespace cqlindex::exec
