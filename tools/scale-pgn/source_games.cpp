#include "tools/scale-pgn/source_games.h"

#include <functional>
#include <optional>
#include <string_view>

#include "engine/chess/san.h"
#include "engine/pgn/reader.h"

namespace cqlindex::tools {
namespace {

constexpr std::string_view kRosterMiddle[] = {"Site", "Date", "Round", "White", "Black"};

void append_tag(std::string& out, std::string_view name, std::string_view raw_value) {
  out += '[';
  out += name;
  out += " \"";
  out += raw_value;
  out += "\"]\n";
}

// The raw value of the first tag with this name, or "?" (PGN's unknown) when the game has none.
std::string_view raw_tag(const pgn::Game& g, std::string_view name) {
  for (const pgn::Tag& t : g.tags)
    if (t.name == name) return t.raw_value;
  return "?";
}

// The game in SourceGame form, or nothing when it cannot be varied (see read_source_games).
std::optional<SourceGame> to_source(const pgn::Game& g) {
  if (g.status != pgn::GameStatus::Ok || g.has_errors() || g.custom_start || g.chess960 || !g.start_known)
    return std::nullopt;
  SourceGame s;
  s.event = raw_tag(g, "Event");
  for (std::string_view name : kRosterMiddle) append_tag(s.roster, name, raw_tag(g, name));
  for (const pgn::Tag& t : g.tags) {
    if (t.name == "PlyCount") s.has_ply_count = true;
    bool roster = t.name == "Event" || t.name == "Result" || t.name == "PlyCount";
    for (std::string_view name : kRosterMiddle) roster = roster || t.name == name;
    if (!roster) append_tag(s.extra_tags, t.name, t.raw_value);
  }
  const std::string_view result = g.result_token.empty() ? raw_tag(g, "Result") : g.result_token;
  s.result = result == "1-0" || result == "0-1" || result == "1/2-1/2" ? result : std::string_view("*");

  chess::Position pos = g.start;
  uint32_t ply = 0;
  for (pgn::NodeIndex n = g.root().first_child; n != pgn::kNoNode; n = g.nodes[n].first_child, ++ply) {
    const chess::Move m = g.nodes[n].move;
    if (!m.is_ok()) return std::nullopt;
    const chess::Position after = pos.after(m);
    s.ply_offset.push_back(uint32_t(s.movetext.size()));
    if (pos.side_to_move() == chess::WHITE) {
      s.movetext += std::to_string(pos.fullmove_number());
      s.movetext += ". ";
    }
    s.movetext += chess::to_san(pos, m, after);
    s.movetext += ' ';
    s.moves.push_back(m);
    pos = after;
  }
  if (s.moves.empty()) return std::nullopt;
  s.ply_offset.push_back(uint32_t(s.movetext.size()));
  s.window_ply = s.moves.size() > kVariationWindow ? uint32_t(s.moves.size() - kVariationWindow) : 0;
  s.window_start = g.start;
  for (uint32_t i = 0; i < s.window_ply; ++i) s.window_start.do_move(s.moves[i]);
  return s;
}

}  // namespace

bool read_source_games(const std::string& path, unsigned threads, std::vector<SourceGame>& games,
                       SourceStats& stats, std::string* error) {
  auto file = pgn::PgnFile::open(path, error);
  if (!file) return false;
  pgn::ReadOptions options;
  options.threads = threads;
  options.parse.mainline_only = true;
  const std::function<std::optional<SourceGame>(const pgn::Game&, unsigned)> work =
      [](const pgn::Game& g, unsigned) { return to_source(g); };
  const std::function<bool(const pgn::GameInfo&, std::optional<SourceGame>&&)> deliver =
      [&](const pgn::GameInfo&, std::optional<SourceGame>&& s) {
        ++stats.read;
        if (s) games.push_back(std::move(*s));
        else ++stats.unusable;
        return true;
      };
  pgn::for_each_game<std::optional<SourceGame>>(file->text(), options, work, deliver);
  return true;
}

}  // namespace cqlindex::tools
