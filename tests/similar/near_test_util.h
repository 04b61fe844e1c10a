// Test support for `cqlindex similar --near` and `--report` (issue 17): submissions made from the shared data.
#pragma once

#include <regex>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "engine/cql/similar/submission_db.h"
#include "engine/pgn/game_splitter.h"
#include "engine/pgn/reader.h"
#include "similar/similar_test_util.h"

namespace cqlindex::test {

// The FEN of a board (no castling, no en passant).
inline std::string fen_of_board(const cql::similar::Board& b, chess::Color side) {
  std::string s;
  for (int r = 7; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 8; ++f) {
      const chess::Piece p = b[r * 8 + f];
      if (p == chess::NO_PIECE) {
        ++empty;
        continue;
      }
      if (empty) s += char('0' + empty), empty = 0;
      const char letter = " pnbrqk"[chess::type_of(p)];
      s += chess::color_of(p) == chess::WHITE ? char(letter - 32) : letter;
    }
    if (empty) s += char('0' + empty);
    if (r) s += '/';
  }
  return s + (side == chess::WHITE ? " w - - 0 1" : " b - - 0 1");
}

// A one-position PGN game set up from `fen`.
inline std::string setup_game(const std::string& event, const std::string& fen) {
  return "[Event \"" + event +
         "\"]\n[Site \"?\"]\n[Date \"2026.??.??\"]\n[White \"planted\"]\n[Black \"?\"]\n"
         "[Result \"*\"]\n[SetUp \"1\"]\n[FEN \"" +
         fen + "\"]\n\n*\n\n";
}

// The studies of cql-sample.pgn that have a FEN (252 games), as the train golden takes them.
inline std::string studies_with_fen() {
  std::string sample = slurp(data_dir() / "studies" / "cql-sample.pgn"), kept;
  pgn::GameSplitter splitter(sample);
  pgn::GameSpan span;
  while (splitter.next(span)) {
    std::string_view game = std::string_view(sample).substr(span.offset, span.length);
    if (game.find("[FEN \"") != std::string_view::npos) kept += game;
  }
  return kept;
}

// A near-anticipation planted in the repository `text`: the position of game `number` after `ply` plies with
// its first non-king, non-pawn piece taken off and mirrored left-right (distance 1 from that position). The
// game's number and the FEN.
struct Planted {
  uint64_t game;
  std::string fen;
};
inline Planted plant(const std::string& text, uint64_t number, uint32_t ply) {
  pgn::ParseOptions parse;
  parse.mainline_only = true;
  pgn::GameReader reader(text, parse);
  pgn::Game g;
  while (reader.next(g)) {
    if (g.number != number) continue;
    chess::Position pos = g.start;
    pgn::NodeIndex node = 0;
    for (uint32_t i = 0; i < ply && g.nodes[node].first_child != pgn::kNoNode; ++i) {
      node = g.nodes[node].first_child;
      pos.do_move(g.nodes[node].move);
    }
    cql::similar::Board b = cql::similar::board_of(pos), mirrored;
    for (int sq = 0; sq < 64; ++sq)
      if (b[sq] != chess::NO_PIECE && chess::type_of(b[sq]) != chess::KING && chess::type_of(b[sq]) != chess::PAWN) {
        b[sq] = chess::NO_PIECE;
        break;
      }
    for (int sq = 0; sq < 64; ++sq) mirrored[sq ^ 7] = b[sq];
    return Planted{number, fen_of_board(mirrored, pos.side_to_move())};
  }
  return Planted{0, ""};
}

// The 252 studies of cql-sample.pgn with a FEN, and three positions planted one square away from positions of
// `repository`'s games 10, 200 and 600 (submission games 253-255); `planted` gets them.
inline std::string studies_and_planted(const std::string& repository, std::vector<Planted>& planted) {
  std::string subs = studies_with_fen();
  for (auto [game, ply] : {std::pair<uint64_t, uint32_t>{10, 40}, {200, 61}, {600, 30}}) {
    planted.push_back(plant(repository, game, ply));
    REQUIRE(!planted.back().fen.empty());
    subs += setup_game("planted near game " + std::to_string(game), planted.back().fen);
  }
  return subs;
}

// The lines of `text` that start with `prefix`.
inline std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
  return lines;
}

// Counts the occurrences of `needle` in `text`.
inline size_t occurrences(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

}  // namespace cqlindex::test
