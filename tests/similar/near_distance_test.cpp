// Near-anticipations (issue 17) on small random sets, against a brute force written here from the definition:
// the distance of a board to a submission board is the least number of differing squares over the images of the
// submission board under similarposition's transforms (pawnless: the 8 symmetries of the square; with pawns: a
// horizontal shift, then perhaps a left-right mirror), computed with file and rank arithmetic, not with
// board_transform.h. Checked: nearest_image, NearImages (both ways of asking), and that the distance-1
// neighbourhood's canonical keys hold the key of every board within distance 1 (what the index search needs).
#include "engine/cql/similar/near_distance.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>

#include "engine/cql/similar/near_images.h"
#include "engine/cql/similar/near_neighbourhood.h"
#include "engine/cql/similar/submission_db.h"
#include "store/keys/canonical_key.h"
#include "similar/near_test_util.h"

using namespace cqlindex;
using namespace cqlindex::cql::similar;

namespace {

using chess::Piece;

// The images of `b` under the transforms of the definition, by file and rank arithmetic.
std::vector<Board> brute_images(const Board& b) {
  bool pawns = false;
  for (Piece p : b) pawns |= p != chess::NO_PIECE && chess::type_of(p) == chess::PAWN;
  std::vector<Board> images;
  auto add = [&](auto&& map) {
    Board out;
    out.fill(chess::NO_PIECE);
    for (int sq = 0; sq < 64; ++sq) {
      if (b[sq] == chess::NO_PIECE) continue;
      auto [f, r] = map(sq & 7, sq >> 3);
      if (f < 0 || f > 7 || r < 0 || r > 7) return;
      out[r * 8 + f] = b[sq];
    }
    images.push_back(out);
  };
  if (!pawns) {
    for (int i = 0; i < 8; ++i)
      add([i](int f, int r) {
        if (i & 4) f = 7 - f;
        if (i & 2) r = 7 - r;
        if (i & 1) std::swap(f, r);
        return std::pair{f, r};
      });
  } else {
    for (int shift = -7; shift <= 7; ++shift)
      for (int mirror = 0; mirror < 2; ++mirror)
        add([=](int f, int r) { return std::pair{mirror ? 7 - (f + shift) : f + shift, r}; });
  }
  return images;
}

unsigned brute_distance(const Board& submission, const Board& repository) {
  unsigned best = 99;
  for (const Board& image : brute_images(submission)) {
    unsigned d = 0;
    for (int sq = 0; sq < 64; ++sq) d += image[sq] != repository[sq];
    best = std::min(best, d);
  }
  return best;
}

// A random legal-looking position: two kings and up to `extra` pieces, pawns only when `pawns`, packed into
// `files` files so that shifts apply.
std::optional<chess::Position> random_position(std::mt19937& rng, int extra, bool pawns, int files) {
  Board b;
  b.fill(chess::NO_PIECE);
  auto square = [&](bool pawn) {
    for (;;) {
      const int f = int(rng() % unsigned(files)), r = pawn ? 1 + int(rng() % 6) : int(rng() % 8);
      if (b[r * 8 + f] == chess::NO_PIECE) return r * 8 + f;
    }
  };
  b[square(false)] = chess::W_KING;
  b[square(false)] = chess::B_KING;
  const int n = int(rng() % unsigned(extra + 1));
  for (int i = 0; i < n; ++i) {
    const bool pawn = pawns && rng() % 2;
    const chess::PieceType pt = pawn ? chess::PAWN : chess::PieceType(chess::KNIGHT + rng() % 4);
    b[square(pawn)] = chess::make_piece(chess::Color(rng() % 2), pt);
  }
  return chess::Position::from_fen(test::fen_of_board(b, chess::Color(rng() % 2)));
}

// A board near some image of `pos`: an image, then up to `edits` random edits (added, removed, replaced or
// moved pieces; kings only moved).
Board random_neighbour(std::mt19937& rng, const chess::Position& pos, int edits) {
  const auto images = brute_images(board_of(pos));
  Board b = images[rng() % images.size()];
  const int n = int(rng() % unsigned(edits + 1));
  for (int i = 0; i < n; ++i) {
    const int sq = int(rng() % 64), to = int(rng() % 64);
    const bool pawn_ok = sq >= 8 && sq < 56;
    switch (rng() % 4) {
      case 0:  // add or replace
        if (b[sq] == chess::NO_PIECE || chess::type_of(b[sq]) != chess::KING) {
          const chess::PieceType pt =
              pawn_ok && rng() % 3 == 0 ? chess::PAWN : chess::PieceType(chess::KNIGHT + rng() % 4);
          b[sq] = chess::make_piece(chess::Color(rng() % 2), pt);
        }
        break;
      case 1:  // remove
        if (b[sq] != chess::NO_PIECE && chess::type_of(b[sq]) != chess::KING) b[sq] = chess::NO_PIECE;
        break;
      default:  // move
        if (b[sq] != chess::NO_PIECE && b[to] == chess::NO_PIECE &&
            !(chess::type_of(b[sq]) == chess::PAWN && (to < 8 || to >= 56)))
          std::swap(b[sq], b[to]);
    }
  }
  return b;
}

std::string key_of(const Board& b, chess::Color side) {
  char key[store::keys::kMaxKeyBytes];
  return std::string(key, store::keys::canonical_key(b, side, key));
}

}  // namespace

TEST_CASE("near: the distance and its transform agree with the brute force", "[similar][near]") {
  std::mt19937 rng(17);
  int checked = 0, within[3] = {0, 0, 0};
  for (int trial = 0; trial < 4000; ++trial) {
    auto pos = random_position(rng, 5, trial % 2, 3 + trial % 6);
    if (!pos) continue;
    const Board s = board_of(*pos), r = random_neighbour(rng, *pos, 3);
    const unsigned expected = brute_distance(s, r);
    for (unsigned limit : {0u, 1u, 2u, 4u}) {
      auto fit = nearest_image(s, false, r, limit);
      INFO(test::fen_of_board(s, chess::WHITE) << " vs " << test::fen_of_board(r, chess::WHITE) << " limit " << limit);
      REQUIRE(fit.has_value() == (expected <= limit));
      if (!fit) continue;
      CHECK(fit->distance == expected);
      Board image;
      REQUIRE(apply_transform(*fit->transform, s, image));
      CHECK(board_distance(image, r) == expected);
    }
    if (expected <= 2) ++within[expected];
    ++checked;
  }
  CHECK(checked > 3000);
  CHECK(within[0] > 100);  // the random sets reach every case
  CHECK(within[1] > 100);
  CHECK(within[2] > 100);
}

TEST_CASE("near: NearImages finds what the brute force finds, by id and by scan", "[similar][near]") {
  std::mt19937 rng(1717);
  std::vector<chess::Position> subs;
  while (subs.size() < 40)
    if (auto pos = random_position(rng, 4, subs.size() % 2, 4 + subs.size() % 5)) subs.push_back(*pos);
  NearImages images(false);
  for (uint32_t id = 0; id < subs.size(); ++id) images.add(id, subs[id]);
  int found = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const chess::Position& from = subs[rng() % subs.size()];
    const Board r = random_neighbour(rng, from, 3);
    auto pos = chess::Position::from_fen(test::fen_of_board(r, from.side_to_move()));
    if (!pos) continue;
    const RepositoryBoard rb = repository_board(*pos);
    for (unsigned limit : {1u, 3u, 5u}) {
      std::map<uint32_t, unsigned> scanned;
      images.for_each_near(rb, limit, [&](uint32_t id, const NearFit& fit) { scanned[id] = fit.distance; });
      for (uint32_t id = 0; id < subs.size(); ++id) {
        const unsigned d = subs[id].side_to_move() == pos->side_to_move() ? brute_distance(board_of(subs[id]), r) : 99;
        auto fit = images.nearest(id, rb, limit);
        INFO("submission " << subs[id].fen() << " repository " << pos->fen() << " limit " << limit);
        REQUIRE(fit.has_value() == (d <= limit));
        REQUIRE(scanned.count(id) == (d <= limit ? 1u : 0u));
        if (fit) {
          CHECK(fit->distance == d);
          CHECK(scanned[id] == d);
          ++found;
        }
      }
    }
  }
  CHECK(found > 1000);
}

TEST_CASE("near: the canonical key of a board is the one of its position", "[similar][near]") {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 2000; ++trial) {
    auto pos = random_position(rng, 12, trial % 3 != 0, 8);
    if (!pos) continue;
    CHECK(key_of(board_of(*pos), pos->side_to_move()) == store::keys::canonical_key(*pos));
  }
}

TEST_CASE("near: every board within distance 1 has a key of the neighbourhood", "[similar][near]") {
  std::mt19937 rng(4242);
  int within = 0;
  for (int trial = 0; trial < 600; ++trial) {
    auto pos = random_position(rng, 4, trial % 3 != 0, 2 + trial % 7);
    if (!pos) continue;
    std::set<std::string> keys;
    for_each_neighbour(*pos, false, [&](const Neighbour& n) {
      char key[store::keys::kMaxKeyBytes];
      const std::string k(key, store::keys::canonical_key(n.board, n.occupied, n.pawns, pos->side_to_move(), key));
      REQUIRE(k == key_of(n.board, pos->side_to_move()));  // the occupancy given is the board's
      keys.insert(k);
    });
    const Board s = board_of(*pos);
    for (int i = 0; i < 60; ++i) {
      const Board r = random_neighbour(rng, *pos, 2);
      if (brute_distance(s, r) > 1) continue;
      ++within;
      INFO("submission " << pos->fen() << " repository " << test::fen_of_board(r, pos->side_to_move()));
      REQUIRE(keys.count(key_of(r, pos->side_to_move())) == 1);
    }
  }
  CHECK(within > 5000);
}

TEST_CASE("near: one pawn taken off a shifted board is in the neighbourhood", "[similar][near]") {
  // K+P vs K on the c- to e-files; the board without its pawn, shifted three files right, is a pawnless board
  // whose key is not the same under shifts.
  auto pos = *chess::Position::from_fen("8/8/8/2k5/8/3P4/4K3/8 w - - 0 1");
  std::set<std::string> keys;
  for_each_neighbour(pos, false, [&](const Neighbour& n) { keys.insert(key_of(n.board, chess::WHITE)); });
  auto shifted = *chess::Position::from_fen("8/8/8/5k2/8/8/7K/8 w - - 0 1");
  CHECK(keys.count(store::keys::canonical_key(shifted)) == 1);
  CHECK(brute_distance(board_of(pos), board_of(shifted)) == 1);
}

TEST_CASE("near: transforms in words", "[similar][near]") {
  std::map<std::string, std::string> words;
  for (const BoardTransform* t : transforms_for(false, false)) words[t->name] = transform_in_words(*t);
  for (const BoardTransform* t : transforms_for(true, false)) words[t->name] = transform_in_words(*t);
  CHECK(words[""] == "as it stands");
  CHECK(words["reflect_v"] == "mirrored left-right");
  CHECK(words["right^2"] == "shifted two files right");
  CHECK(words["reflect_v right^2"] == "shifted two files right, then mirrored left-right");
  CHECK(words["left^1"] == "shifted one file left");
  CHECK(words["clockwise90"] == "rotated 90 degrees clockwise");
  CHECK(words["reflect_h"] == "mirrored top-bottom");
  // the same words from the name CQL's comments write
  for (const auto& [name, said] : words) CHECK(transform_in_words(name) == said);
}

TEST_CASE("near: undoing a transform gives the submission's orientation back", "[similar][near]") {
  auto pos = *chess::Position::from_fen("8/8/8/2k5/8/3P4/4K3/8 w - - 0 1");
  const Board s = board_of(pos);
  for (const BoardTransform* t : transforms_for(false, false)) {
    Board image, back;
    if (!apply_transform(*t, s, image)) continue;
    CHECK(undo_transform(*t, image, back) == 0);
    CHECK(back == s);
  }
}
