// The similarposition component on small hand-made cases: CQL's transform order and names, its move numbers,
// its entry dedup, the cumulative comments.
#include <catch2/catch.hpp>

#include "engine/cql/similar/similar_match.h"
#include "engine/pgn/reader.h"

using namespace cqlindex;
using namespace cqlindex::cql::similar;

namespace {

std::vector<std::string> names(std::span<const BoardTransform* const> ts) {
  std::vector<std::string> v;
  for (const BoardTransform* t : ts) v.push_back(t->name);
  return v;
}

chess::Position fen(const char* f) { return *chess::Position::from_fen(f); }

SubmissionDb db_of(const std::string& pgn, bool notransform = false) {
  return SubmissionDb::read(pgn, "s.pgn", SubmissionDb::Options{notransform}, nullptr);
}

std::vector<std::string> described(const SubmissionDb& db, const chess::Position& pos) {
  std::vector<Entry> entries;
  db.lookup(pos, entries);
  std::vector<std::string> v;
  for (const Entry& e : entries) v.push_back(db.describe(e));
  return v;
}

}  // namespace

TEST_CASE("similar transforms: CQL's order and names", "[similar]") {
  CHECK(names(transforms_for(true, false)) ==
        std::vector<std::string>{"", "reflect_a1h8", "reflect_h", "counterclockwise90", "reflect_v", "clockwise90",
                                 "rotate180", "reflect_a8h1"});
  auto pawns = names(transforms_for(false, false));
  REQUIRE(pawns.size() == 30);
  CHECK(pawns[0] == "");
  CHECK(pawns[1] == "left^7");
  CHECK(pawns[7] == "left^1");
  CHECK(pawns[8] == "right^1");
  CHECK(pawns[14] == "right^7");
  CHECK(pawns[15] == "reflect_v");
  CHECK(pawns[16] == "reflect_v left^7");
  CHECK(pawns[29] == "reflect_v right^7");
  CHECK(names(transforms_for(true, true)) == std::vector<std::string>{""});
  CHECK(names(transforms_for(false, true)) == std::vector<std::string>{""});
}

TEST_CASE("similar transforms: squares go where CQL sends them", "[similar]") {
  auto pawnless = transforms_for(true, false);
  // a1 = 0, b1 = 1, h1 = 7, a8 = 56.
  CHECK(pawnless[1]->to[1] == 8);    // reflect_a1h8: b1 -> a2
  CHECK(pawnless[2]->to[1] == 57);   // reflect_h: b1 -> b8
  CHECK(pawnless[3]->to[1] == 15);   // counterclockwise90: b1 -> h2
  CHECK(pawnless[4]->to[1] == 6);    // reflect_v: b1 -> g1
  CHECK(pawnless[5]->to[1] == 48);   // clockwise90: b1 -> a7
  CHECK(pawnless[6]->to[1] == 62);   // rotate180: b1 -> g8
  CHECK(pawnless[7]->to[1] == 55);   // reflect_a8h1: b1 -> h7
  auto pawns = transforms_for(false, false);
  Board b{}, out{};
  b.fill(chess::NO_PIECE);
  b[1] = chess::W_KING;                                // b1
  CHECK(apply_transform(*pawns[7], b, out));           // left^1: a1
  CHECK(out[0] == chess::W_KING);
  CHECK_FALSE(apply_transform(*pawns[6], b, out));     // left^2 leaves the board
  CHECK(apply_transform(*pawns[16 + 6], b, out));      // reflect_v left^1: a1 then h1
  CHECK(out[7] == chess::W_KING);
}

TEST_CASE("similar: move numbers count from 1 whatever the FEN says, as CQL counts them", "[similar]") {
  // Black moves first, FEN move number 40.
  SubmissionDb db = db_of("[FEN \"8/8/8/4k3/8/8/4P3/4K3 b - - 0 40\"]\n\n40...Kd5 41.Kd2 Kc5 *\n");
  CHECK(db.games() == 1);
  REQUIRE(db.positions() == 4);
  CHECK(db.position(0).move == 1);
  CHECK(db.position(0).side == chess::BLACK);
  CHECK(db.position(1).move == 2);  // White's turn after Black's first move
  CHECK(db.position(2).move == 2);
  CHECK(db.position(3).move == 3);
  CHECK(described(db, fen("8/8/8/3k4/8/8/4P3/4K3 w - - 0 41")) ==
        std::vector<std::string>{"see s.pgn game: 1 at move: 2 wtm "});
}

TEST_CASE("similar: a shifted and reflected pawn position is found under CQL's transform", "[similar]") {
  SubmissionDb db = db_of("[FEN \"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1\"]\n\n*\n");
  // Shifted two files left.
  CHECK(described(db, fen("8/8/8/2k5/8/8/2P5/2K5 w - - 0 1")) ==
        std::vector<std::string>{"see s.pgn game: 1 at move: 1 wtm left^2"});
  // Reflected about the vertical axis: e -> d; reflect_v comes before any reflect_v+shift.
  CHECK(described(db, fen("8/8/8/3k4/8/8/3P4/3K4 w - - 0 1")) ==
        std::vector<std::string>{"see s.pgn game: 1 at move: 1 wtm left^1"});
  // Not the other side to move, not rotated (pawns).
  CHECK(described(db, fen("8/8/8/4k3/8/8/4P3/4K3 b - - 0 1")).empty());
  CHECK(described(db, fen("3k4/3p4/8/8/3K4/8/8/8 w - - 0 1")).empty());
  // notransform: identical boards only.
  SubmissionDb exact = db_of("[FEN \"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1\"]\n\n*\n", true);
  CHECK(described(exact, fen("8/8/8/2k5/8/8/2P5/2K5 w - - 0 1")).empty());
  CHECK(described(exact, fen("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1")) ==
        std::vector<std::string>{"see s.pgn game: 1 at move: 1 wtm "});
}

TEST_CASE("similar: a symmetric board is listed once, under the first transform that reaches it", "[similar]") {
  // Ka1 kh8: reflect_a1h8 maps the board onto itself (dropped as a second entry of the same position).
  SubmissionDb db = db_of("[FEN \"7k/8/8/8/8/8/8/K7 w - - 0 1\"]\n\n*\n");
  CHECK(described(db, fen("7k/8/8/8/8/8/8/K7 w - - 0 1")) == std::vector<std::string>{"see s.pgn game: 1 at move: 1 wtm "});
  // Its reflect_v image (Kh1 ka8) is reached by counterclockwise90 first (it comes before reflect_v).
  CHECK(described(db, fen("k7/8/8/8/8/8/8/7K w - - 0 1")) ==
        std::vector<std::string>{"see s.pgn game: 1 at move: 1 wtm counterclockwise90"});
  // Its reflect_h image (Ka8 kh1) by reflect_h.
  CHECK(described(db, fen("K7/8/8/8/8/8/8/7k w - - 0 1")) ==
        std::vector<std::string>{"see s.pgn game: 1 at move: 1 wtm reflect_h"});
}

TEST_CASE("similar: several entries give CQL's cumulative comments and the least game sorts", "[similar]") {
  // Games 1 and 2 both reach the position after 1.e4 (game 2 from a FEN); game 3 never does.
  SubmissionDb db = db_of(
      "[Event \"1\"]\n\n1.e4 e5 *\n\n"
      "[Event \"2\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n\n1...d5 *\n\n"
      "[Event \"3\"]\n\n1.d4 *\n");
  pgn::GameReader reader("[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1.Rh2 *\n1.e4 {x} d6 *\n");
  pgn::Game g;
  REQUIRE(reader.next(g));
  CHECK_FALSE(match_game(db, g).matched());
  REQUIRE(reader.next(g));
  GameMatch m = match_game(db, g);
  REQUIRE(m.matched());
  CHECK(m.least_submission_game == 1);
  REQUIRE(m.positions.size() == 2);  // the start (game 1 and game 3), after 1.e4 (games 1 and 2)
  CHECK(m.positions[0].node == 0);
  CHECK(position_comments(db, m.positions[1].entries) ==
        std::vector<std::string>{"see s.pgn game: 1 at move: 1 btm ",
                                 "see s.pgn game: 1 at move: 1 btm see s.pgn game: 2 at move: 1 btm "});
  auto added = cql_additions(db, m, 7, true);
  REQUIRE(added.size() == 8);
  CHECK(added[0].text == "Game number 7");
  CHECK(added[1].text == "see s.pgn game: 1 at move: 1 wtm ");
  CHECK(added[2].text == "see s.pgn game: 1 at move: 1 wtm see s.pgn game: 3 at move: 1 wtm ");
  CHECK(added[3].text == "CQL");
  CHECK(added[6].text == "CQL");
  CHECK(added[6].node == m.positions[1].node);
  CHECK(added[7].node == 0);
  CHECK(added[7].text == " submission game: 1");
  CHECK(cql_additions(db, m, 7, false).size() == 7);
  // The same through the per-position entry point an evaluator uses.
  std::vector<std::string> comments;
  uint32_t least = 0;
  CHECK(match_position(db, g.start.after(g.nodes[g.nodes[0].first_child].move), comments, least));
  CHECK(comments == position_comments(db, m.positions[1].entries));
  CHECK(least == 1);
  CHECK_FALSE(match_position(db, fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), comments, least));
  // Excluded positions are left out of every lookup.
  db.exclude(0);
  db.exclude(db.positions() - 2);  // game 3's start
  GameMatch rest = match_game(db, g);
  REQUIRE(rest.positions.size() == 1);
  CHECK(rest.least_submission_game == 1);
}
