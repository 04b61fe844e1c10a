#include "exec/similar_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>

#include "engine/pgn/game_parser.h"
#include "engine/pgn/game_splitter.h"

namespace cqlindex::exec {

using cql::similar::SubmissionDb;

namespace {

// The FENs of submission positions `ids` (their games read again from the submissions text), by id.
std::map<uint32_t, std::string> submission_fens(std::string_view text, const SubmissionDb& db,
                                                const std::vector<uint32_t>& ids) {
  std::map<uint64_t, std::vector<uint32_t>> by_game;
  for (uint32_t id : ids) by_game[db.position(id).game].push_back(id);
  std::map<uint32_t, std::string> fens;
  pgn::ParseOptions parse;
  parse.mainline_only = true;
  pgn::GameSplitter splitter(text);
  pgn::GameSpan span;
  pgn::Game g;
  while (!by_game.empty() && splitter.next(span)) {
    auto wanted = by_game.find(span.number);
    if (wanted == by_game.end()) continue;
    pgn::parse_game(text.substr(span.offset, span.length), pgn::GameLocation{span.number, span.offset, 1, 1}, g,
                    parse);
    chess::Position pos = g.start;
    pgn::NodeIndex n = 0;
    for (uint32_t ply = 0;; ++ply) {
      for (uint32_t id : wanted->second)
        if (db.position(id).ply == ply) fens[id] = pos.fen();
      if (g.nodes[n].first_child == pgn::kNoNode) break;
      n = g.nodes[n].first_child;
      pos.do_move(g.nodes[n].move);
    }
    by_game.erase(wanted);
  }
  return fens;
}

std::string percent(uint64_t part, uint64_t whole) {
  std::ostringstream s;
  s.precision(1);
  s << std::fixed << (whole ? 100.0 * double(part) / double(whole) : 0.0) << "%";
  return s.str();
}

// The year of a PGN date, 0 when unknown.
unsigned year_of(std::string_view date) {
  unsigned y = 0, digits = 0;
  for (char c : date.substr(0, 4))
    if (c >= '0' && c <= '9') y = y * 10 + unsigned(c - '0'), ++digits;
  return digits == 4 ? y : 0;
}

// True when `a` is dated before `b` (an undated game is never earlier); ties go to the lower game number.
bool dated_before(const MatchedGame& a, const MatchedGame& b) {
  unsigned ya = year_of(a.date), yb = year_of(b.date);
  if (!ya) return false;
  if (!yb || ya != yb) return !yb || ya < yb;
  return a.date != b.date ? a.date < b.date : a.number < b.number;
}

// "1-3, 7, 9-10" for an ascending list.
std::string ranges(const std::vector<uint32_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!s.empty()) s += ", ";
    s += std::to_string(v[i]);
    if (j > i) {
      s += '-';
      s += std::to_string(v[j]);
    }
    i = j + 1;
  }
  return s;
}

}  // namespace

int BufferedStderr::Buffer::overflow(int c) {
  sync();
  if (c != traits_type::eof()) {
    *pptr() = char(c);
    pbump(1);
  }
  return traits_type::not_eof(c);
}

int BufferedStderr::Buffer::sync() {
  const size_t n = size_t(pptr() - pbase());
  const bool ok = std::fwrite(pbase(), 1, n, stderr) == n && std::fflush(stderr) == 0;
  setp(bytes, bytes + sizeof bytes);
  return ok ? 0 : -1;
}

std::vector<uint32_t> common_positions(const SimilarSearch& search, double percent) {
  const double limit = percent / 100.0 * double(search.repository_games);
  std::vector<uint32_t> common;
  for (uint32_t id = 0; id < search.hits.size(); ++id)
    if (search.hits[id] > 0 && double(search.hits[id]) > limit) common.push_back(id);
  return common;
}

void report_common(std::ostream& err, const SubmissionDb& db, std::string_view submissions,
                   const SimilarSearch& search, const std::vector<uint32_t>& common, bool skipped) {
  const auto fens = submission_fens(submissions, db, common);
  for (uint32_t id : common) {
    const auto& p = db.position(id);
    auto fen = fens.find(id);
    err << "cqlindex similar: " << (skipped ? "skipped: " : "warning: ") << "submission game " << p.game
        << " at move " << p.move << (p.side == chess::WHITE ? " wtm" : " btm") << " ("
        << (fen == fens.end() ? "?" : fen->second) << ") is similar to positions of " << search.hits[id] << " of the "
        << search.repository_games << " repository games (" << percent(search.hits[id], search.repository_games)
        << ")" << (skipped ? "" : "; --ignore-common PERCENT skips such positions") << "\n";
  }
}

void report_reach(std::ostream& err, const SubmissionDb& db, const std::vector<MatchedGame>& matched) {
  struct Reach {
    uint64_t games = 0;
    const MatchedGame* first = nullptr;
    const MatchedGame* earliest = nullptr;  // earliest dated
  };
  std::map<uint32_t, Reach> reach;
  for (const MatchedGame& m : matched) {
    std::vector<uint32_t> games;
    for (uint32_t id : m.positions) games.push_back(db.position(id).game);
    std::sort(games.begin(), games.end());
    games.erase(std::unique(games.begin(), games.end()), games.end());
    for (uint32_t s : games) {
      Reach& r = reach[s];
      ++r.games;
      if (!r.first || m.number < r.first->number) r.first = &m;
      if (year_of(m.date) && (!r.earliest || dated_before(m, *r.earliest))) r.earliest = &m;
    }
  }
  for (const auto& [s, r] : reach) {
    err << "submission game " << s << ": similar positions in " << r.games << " repository game"
        << (r.games == 1 ? "" : "s") << " (first: game " << r.first->number;
    if (r.earliest)
      err << "; earliest dated: game " << r.earliest->number << ", " << r.earliest->date << ", "
          << r.earliest->white << ", " << r.earliest->event;
    err << ")\n";
  }
  std::vector<uint32_t> none;
  for (uint32_t s = 1; s <= db.games(); ++s)
    if (!reach.count(s)) none.push_back(s);
  if (!none.empty())
    err << "submission games with no similar position in the repository (" << none.size() << " of " << db.games()
        << "): " << ranges(none) << "\n";
}

}  // namespace cqlindex::exec
