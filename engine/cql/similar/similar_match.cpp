#include "engine/cql/similar/similar_match.h"

#include <algorithm>

namespace cqlindex::cql::similar {
namespace {

constexpr size_t kLongestKeptComment = 4800;  // CQL drops an addition past this (see pgn::merge_cql_comment)

}  // namespace

bool match_position(const SubmissionDb& db, const chess::Position& pos, std::vector<std::string>& comments,
                    uint32_t& least_game) {
  std::vector<Entry> entries;
  if (!db.lookup(pos, entries)) return false;
  for (const Entry& e : entries) {
    uint32_t g = db.position(e.position).game;
    if (least_game == 0 || g < least_game) least_game = g;
  }
  for (std::string& c : position_comments(db, entries)) comments.push_back(std::move(c));
  return true;
}

GameMatch match_game(const SubmissionDb& db, const pgn::Game& game) {
  GameMatch m;
  if (!game.start_known || game.status == pgn::GameStatus::SkippedVariant || game.nodes.empty()) return m;
  chess::Position pos = game.start;
  std::vector<Entry> entries;
  pgn::NodeIndex node = 0;
  for (;;) {
    entries.clear();
    if (db.lookup(pos, entries)) {
      for (const Entry& e : entries) {
        uint32_t g = db.position(e.position).game;
        if (m.least_submission_game == 0 || g < m.least_submission_game) m.least_submission_game = g;
      }
      m.positions.push_back(PositionMatch{node, entries});
    }
    node = game.nodes[node].first_child;
    if (node == pgn::kNoNode) break;
    pos.do_move(game.nodes[node].move);
  }
  return m;
}

std::vector<std::string> position_comments(const SubmissionDb& db, const std::vector<Entry>& entries) {
  std::vector<std::string> comments;
  std::string text;
  for (const Entry& e : entries) {
    text += db.describe(e);
    comments.push_back(text);
    if (text.size() > kLongestKeptComment) break;
  }
  return comments;
}

std::string sort_comment(uint32_t least_submission_game) {
  return " submission game: " + std::to_string(least_submission_game);
}

std::vector<pgn::AddedComment> cql_additions(const SubmissionDb& db, const GameMatch& match, uint64_t game_number,
                                             bool sort) {
  std::vector<pgn::AddedComment> added;
  added.push_back({0, "Game number " + std::to_string(game_number)});
  for (const PositionMatch& p : match.positions) {
    for (std::string& c : position_comments(db, p.entries)) added.push_back({p.node, std::move(c)});
    added.push_back({p.node, "CQL"});
  }
  if (sort && match.matched()) added.push_back({0, sort_comment(match.least_submission_game)});
  return added;
}

}  // namespace cqlindex::cql::similar
