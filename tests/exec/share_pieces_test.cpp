// The pieces of a distributed run's shares (exec/share_pieces.h): the ranks' shares cover the games once, rank 0's
// the largest; rank 0's share cut at the game count's checkpoints covers every game of its pieces exactly once, in
// order, whatever the files' sizes; a part read from its known starts is the part the splitter finds.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "engine/pgn/game_splitter.h"
#include "exec/repository_part.h"
#include "exec/share_pieces.h"

using namespace cqlindex::exec;

namespace {

// Returns checkpoints of a file of `games` games at every `every`-th game (a game starts at 100 x its index).
std::vector<Checkpoint> every(uint64_t games, uint64_t every) {
  std::vector<Checkpoint> marks;
  for (unsigned m = 0; m < Checkpoint::kCheckpoints; ++m) {
    const uint64_t game = std::min(games, (m + 1) * every);
    marks.push_back(Checkpoint{game, GameStart{game * 100, uint32_t(game * 10 + 1), 1}});
  }
  return marks;
}

// The games [first, end) of `piece`, `games` in its file.
std::pair<uint64_t, uint64_t> range_of(const SharePiece& piece, const std::vector<uint64_t>& games) {
  return {piece.part.first, std::min(piece.part.end, games[piece.file])};
}

// Checks that `cut` covers the games of `pieces` exactly once, in order, with their offsets, and that every piece
// of a file with checkpoints knows where it starts (or starts the file) and where it ends (or ends the part).
void check_covers(const std::vector<SharePiece>& pieces, const std::vector<SharePiece>& cut,
                  const std::vector<uint64_t>& games) {
  std::vector<std::pair<size_t, uint64_t>> want, got;  // (file, game)
  for (const SharePiece& p : pieces) {
    const auto [first, end] = range_of(p, games);
    for (uint64_t g = first; g < end; ++g) want.emplace_back(p.file, g);
  }
  for (const SharePiece& p : cut) {
    const auto [first, end] = range_of(p, games);
    for (uint64_t g = first; g < end; ++g) got.emplace_back(p.file, g);
    if (!p.part.whole() && p.part.first > 0 && !p.follows) CHECK(p.part.first_start);
    if (p.part.first_start) CHECK(p.part.first_start->offset == (p.part.first == 0 ? 0 : p.part.first * 100));
    if (p.part.end_start) CHECK(p.part.end_start->offset == p.part.end * 100);
  }
  CHECK(got == want);
  for (const SharePiece& c : cut) {  // each piece keeps its file's offset
    bool found = false;
    for (const SharePiece& p : pieces) found = found || (p.file == c.file && p.offset == c.offset);
    CHECK(found);
  }
}

}  // namespace

TEST_CASE("share_start gives rank 0 the largest share and the others even ones, covering every game once",
          "[exec][share_pieces]") {
  for (int size : {1, 2, 3, 4, 7, 16})
    for (uint64_t total : {uint64_t(0), uint64_t(1), uint64_t(3), uint64_t(253), uint64_t(613419606),
                           uint64_t(1) << 50}) {
      INFO(size << " ranks, " << total);
      CHECK(share_start(total, 0, size) == 0);
      CHECK(share_start(total, size, size) == total);
      for (int r = 0; r < size; ++r) CHECK(share_start(total, r, size) <= share_start(total, r + 1, size));
      if (size > 1 && total >= 1000) {
        const uint64_t rank0 = share_start(total, 1, size);
        CHECK(rank0 == total * 5 / (4 * uint64_t(size)));
        for (int r = 1; r < size; ++r) {
          const uint64_t share = share_start(total, r + 1, size) - share_start(total, r, size);
          CHECK(share < rank0);
          CHECK(share + 1 >= (total - rank0) / uint64_t(size - 1));
        }
      }
    }
  CHECK(share_start(800, 1, 2) == 500);  // 5/8 of the games, then 3/8
  CHECK(share_start(800, 1, 2, false) == 400);  // even shares (similar's)
  CHECK(share_start(800, 3, 4, false) == 600);
  CHECK(share_start(800, 4, 4, false) == 800);
}

TEST_CASE("cut_pieces covers every game of rank 0's pieces exactly once, in order", "[exec][share_pieces]") {
  // uneven files: 3 games, 1000, 1, 40, 500 (read in part), and one numbered on (not counted)
  const std::vector<uint64_t> games{3, 1000, 1, 40, 500, 0};
  std::vector<std::vector<Checkpoint>> marks{every(3, 1), every(1000, 15), every(1, 1), every(40, 1), every(500, 7),
                                             {}};
  std::vector<SharePiece> pieces{
      SharePiece{0, FilePart{}, 0},     SharePiece{1, FilePart{}, 3},          SharePiece{2, FilePart{}, 1003},
      SharePiece{3, FilePart{}, 1004},  SharePiece{4, FilePart{0, 321}, 1044}, SharePiece{5, FilePart{}, 0, true}};
  for (uint64_t target : {uint64_t(1), uint64_t(2), uint64_t(10), uint64_t(50), uint64_t(2000)}) {
    INFO("target " << target);
    const std::vector<SharePiece> cut = cut_pieces(pieces, games, marks, target);
    check_covers(pieces, cut, games);
    CHECK(cut.back().follows);  // a piece numbered on stays whole
    for (const SharePiece& p : cut) {  // the pieces cut from one: the last at least half of a piece
      const auto [first, end] = range_of(p, games);
      if (p.part.first_start || p.part.end_start) CHECK(end - first >= target / 2);
    }
    if (target == 2000) CHECK(cut.size() == pieces.size());  // no file larger than a piece: none cut
    if (target == 10) CHECK(cut.size() > 40);
  }
  SECTION("a file smaller than a piece stays whole; a part is cut inside its games only") {
    const std::vector<SharePiece> cut = cut_pieces(pieces, games, marks, 20);
    size_t of_small = 0, of_part = 0;
    for (const SharePiece& p : cut) {
      if (p.file == 0 || p.file == 2) {
        ++of_small;
        CHECK(p.part.whole());
      }
      if (p.file == 4) {
        ++of_part;
        CHECK(p.part.end <= 321);
      }
    }
    CHECK(of_small == 2);
    CHECK(of_part > 1);
  }
  SECTION("a file without checkpoints (an index's) stays whole") {
    marks[1].clear();
    const std::vector<SharePiece> cut = cut_pieces(pieces, games, marks, 10);
    check_covers(pieces, cut, games);
    size_t of_indexed = 0;
    for (const SharePiece& p : cut) of_indexed += p.file == 1;
    CHECK(of_indexed == 1);
  }
}

TEST_CASE("pieces_to_give hands half of the back half now, more by the merge to come", "[exec][share_pieces]") {
  CHECK(pieces_to_give(0) == 0);
  CHECK(pieces_to_give(1) == 1);
  CHECK(pieces_to_give(2) == 1);
  CHECK(pieces_to_give(5) == 2);    // of 3
  CHECK(pieces_to_give(64) == 16);  // of 32
  // the balanced split gives rank 0 k with k + merge <= left - k
  CHECK(pieces_to_give(10, 4) == 4);    // of 7
  CHECK(pieces_to_give(10, 4.5) == 4);  // of 8
  CHECK(pieces_to_give(10, 10) == 5);   // of 10
  CHECK(pieces_to_give(3, 50) == 2);    // of 3
  CHECK(pieces_to_give(10, -1) == 3);   // of 5
  // asked again and again, the pieces run out
  size_t left = 60, asks = 0;
  while (left > 0) left -= pieces_to_give(left), ++asks;
  CHECK(asks <= 12);  // about log2 of the pieces
}

TEST_CASE("a part read from its known starts is the part the game splitter finds from the file's start",
          "[exec][share_pieces]") {
  std::string text = "\xEF\xBB\xBF";  // a BOM, then games of which one starts after a marker mid-line
  for (int g = 0; g < 11; ++g)
    text += "[Event \"g" + std::to_string(g) + "\"]\n\n1. e4 {a comment\nover lines} e5 " +
            (g == 5 ? "1-0 1. d4 *\n\n" : "1-0\n\n");
  std::vector<cqlindex::pgn::GameSpan> spans;
  cqlindex::pgn::GameSplitter splitter(text);
  for (cqlindex::pgn::GameSpan span; splitter.next(span);) spans.push_back(span);
  REQUIRE(spans.size() == 12);
  REQUIRE(spans[6].first_col > 1);
  auto start_of = [&](uint64_t g) { return GameStart{spans[g].offset, spans[g].first_line, spans[g].first_col}; };
  for (uint64_t first : {uint64_t(0), uint64_t(1), uint64_t(6), uint64_t(11)})
    for (uint64_t end : {first, first + 1, uint64_t(9), uint64_t(12), FilePart::kToFileEnd}) {
      if (end < first) continue;
      INFO("games [" << first << ", " << end << ")");
      const auto found = part_bytes(text, FilePart{first, end}, nullptr, nullptr);
      REQUIRE(found);
      const std::optional<GameStart> end_start =
          end < 12 ? std::optional<GameStart>(start_of(end)) : std::optional<GameStart>();
      for (const FilePart& known : {FilePart{first, end, start_of(first)}, FilePart{first, end, start_of(first),
                                                                                     end_start}}) {
        const auto bytes = part_bytes(text, known, nullptr, nullptr);
        REQUIRE(bytes);
        CHECK(bytes->begin == found->begin);
        CHECK(bytes->end == found->end);
        CHECK(bytes->line == found->line);
        CHECK(bytes->col == found->col);
      }
    }
}
