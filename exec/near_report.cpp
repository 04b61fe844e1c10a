#include "exec/near_report.h"

#include <map>
#include <sstream>

#include "engine/cql/similar/near_distance.h"
#include "engine/pgn/game_parser.h"
#include "engine/pgn/game_splitter.h"
#include "exec/near_boards.h"

namespace cqlindex::exec {

using cql::similar::Board;

namespace {

// The page's style: screen and A4 print.
constexpr std::string_view kStyle = R"(
body { font-family: sans-serif; margin: 1.5em; color: #111; max-width: 60em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-top: 2px solid #444; padding-top: .5em; }
h3 { font-size: 1em; margin: 1em 0 .3em; }
nav ol { columns: 2; column-gap: 3em; font-size: .9em; padding-left: 2.5em; } nav li { break-inside: avoid; }
nav .count { color: #555; } nav li.found .count { color: #b00; font-weight: bold; } .reached a { margin-right: .6em; }
.pair { display: flex; gap: 1.5em; flex-wrap: wrap; }
figure { margin: 0; display: inline-block; } figcaption { font-size: .85em; text-align: center; }
svg.board { width: 200px; height: 200px; border: 1px solid #333; display: block; }
.transform { font-weight: bold; } .common { color: #b00; } .moves { font-size: .85em; color: #333; } .none { color: #555; }
article.match { border-bottom: 1px solid #ccc; padding-bottom: .8em; }
summary { cursor: pointer; font-weight: bold; margin: .5em 0; }
@page { size: A4; margin: 15mm; }
@media print { body { margin: 0; max-width: none; } article.match, .submission-head { break-inside: avoid; }
  section.found { break-before: page; } }
)";

// The shared definitions of every diagram (drawn once, used by reference): the board and the pieces (a disc with the
// piece's letter).
std::string svg_defs() {
  std::string s =
      "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs>"
      "<symbol id=\"squares\" viewBox=\"0 0 320 320\"><rect width=\"320\" height=\"320\" fill=\"#f0d9b5\"/><path "
      "fill=\"#b58863\" d=\"";
  for (int sq = 0; sq < 64; ++sq)  // a1 (bottom left) is dark
    if (((sq & 7) + (sq >> 3)) % 2 == 0) {
      s += 'M';
      s += std::to_string((sq & 7) * 40);
      s += ' ';
      s += std::to_string((7 - (sq >> 3)) * 40);
      s += "h40v40h-40z";
    }
  s += "\"/></symbol>";
  const char* letters = "PNBRQK";
  for (int colour = 0; colour < 2; ++colour)
    for (int i = 0; i < 6; ++i) {
      const bool white = colour == 0;
      s += std::string("<symbol id=\"") + (white ? 'w' : 'b') + letters[i] + "\" viewBox=\"0 0 40 40\">";
      s += std::string("<circle cx=\"20\" cy=\"20\" r=\"15\" fill=\"") + (white ? "#fff" : "#222") +
           "\" stroke=\"#000\" stroke-width=\"2\"/>";
      s += std::string(
               "<text x=\"20\" y=\"27\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"19\" "
               "font-weight=\"bold\" fill=\"") +
           (white ? "#000" : "#fff") + "\">" + letters[i] + "</text></symbol>";
    }
  return s + "</defs></svg>\n";
}

// The length of the valid UTF-8 sequence at the start of `t`, 0 when it is not one.
size_t utf8_length(std::string_view t) {
  const auto b = [&](size_t i) { return uint8_t(t[i]); };
  const size_t n = b(0) < 0x80 ? 1 : (b(0) >> 5) == 6 ? 2 : (b(0) >> 4) == 14 ? 3 : (b(0) >> 3) == 30 ? 4 : 0;
  if (n == 0 || n > t.size() || (n == 2 && b(0) < 0xC2)) return 0;
  for (size_t i = 1; i < n; ++i)
    if ((b(i) >> 6) != 2) return 0;
  return n;
}

// `text` for HTML: markup characters escaped, and bytes that are not UTF-8 read as Latin-1 (as old PGN files
// are written), so that the page is valid UTF-8.
std::string escaped(std::string_view text) {
  std::string s;
  for (size_t i = 0; i < text.size();) {
    const size_t n = utf8_length(text.substr(i));
    if (n == 0) {  // a Latin-1 byte
      const uint8_t c = uint8_t(text[i++]);
      s += char(0xC0 | c >> 6);
      s += char(0x80 | (c & 0x3F));
      continue;
    }
    if (n > 1) {
      s.append(text.substr(i, n));
      i += n;
      continue;
    }
    const char c = text[i++];
    switch (c) {
      case '&':
        s += "&amp;";
        break;
      case '<':
        s += "&lt;";
        break;
      case '>':
        s += "&gt;";
        break;
      case '"':
        s += "&quot;";
        break;
      default:
        s += c;
    }
  }
  return s;
}

// A diagram of `board`, the squares of `marked` outlined; `label` names it for screen readers.
std::string diagram(const Board& board, uint64_t marked, std::string_view label) {
  std::string s = "<svg class=\"board\" viewBox=\"0 0 320 320\" role=\"img\" aria-label=\"" + escaped(label) +
                  "\"><use href=\"#squares\" width=\"320\" height=\"320\"/>";
  for (int sq = 0; sq < 64; ++sq) {
    const int x = (sq & 7) * 40, y = (7 - (sq >> 3)) * 40;
    if (marked >> sq & 1)
      s += "<rect class=\"differs\" x=\"" + std::to_string(x + 2) + "\" y=\"" + std::to_string(y + 2) +
           "\" width=\"36\" height=\"36\" fill=\"#e33\" fill-opacity=\".35\" stroke=\"#d00\" stroke-width=\"4\"/>";
    const chess::Piece p = board[sq];
    if (p == chess::NO_PIECE) continue;
    s += std::string("<use href=\"#") + (chess::color_of(p) == chess::WHITE ? 'w' : 'b') +
         "PNBRQK"[chess::type_of(p) - 1] + "\" x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) +
         "\" width=\"40\" height=\"40\"/>";
  }
  return s + "</svg>";
}

// "Tal - Botvinnik, World Championship, Moscow, 1960.03.15" from a game's tags.
std::string header_of(const pgn::Game& g) {
  auto tag = [&](const char* name) {
    std::string v(g.tag(name).value_or(""));
    return v == "?" || v.empty() ? std::string() : v;
  };
  std::string s = tag("White");
  if (!tag("Black").empty()) s += (s.empty() ? "" : " - ") + tag("Black");
  for (const char* name : {"Event", "Site", "Date"})
    if (!tag(name).empty()) s += (s.empty() ? "" : ", ") + tag(name);
  return escaped(s.empty() ? std::string("(no tags)") : s);
}

std::string side_words(chess::Color c) { return c == chess::WHITE ? "White to move" : "Black to move"; }

// Parses the game `text` (mainline only) into `g`.
void parse_mainline(std::string_view text, uint64_t number, uint64_t offset, pgn::Game& g) {
  pgn::ParseOptions parse;
  parse.mainline_only = true;
  pgn::parse_game(text, pgn::GameLocation{number, offset, 1, 1}, g, parse);
}

// What the report's parts look up: the submissions' headers and first positions, the matches by submission and
// by distance, the common positions by submission game.
struct ReportIndex {
  std::map<uint32_t, std::string> headers;
  std::map<uint32_t, uint32_t> first_position;
  std::map<uint32_t, std::vector<const NearPair*>> by_submission;
  std::vector<uint64_t> by_distance;
  bool collapsed = false;
  std::multimap<uint32_t, uint32_t> common_by_game;  // submission game -> its common positions
};

// Returns the look-ups of the report of `in`.
ReportIndex index_report(const ReportInput& in) {
  const auto& db = in.db;
  ReportIndex x;
  // The submission games' headers, and their first position's id.
  {
    pgn::GameSplitter splitter(in.submissions_text);
    pgn::GameSpan span;
    pgn::Game g;
    while (splitter.next(span)) {
      parse_mainline(in.submissions_text.substr(span.offset, span.length), span.number, span.offset, g);
      x.headers[uint32_t(span.number)] = header_of(g);
    }
  }
  for (uint32_t id = 0; id < db.positions(); ++id) x.first_position.try_emplace(db.position(id).game, id);
  for (const NearPair& p : in.pairs) x.by_submission[p.submission_game].push_back(&p);
  x.by_distance = pairs_by_distance(in.pairs, in.search.limit);
  x.collapsed = in.pairs.size() > kCollapseAbove;
  for (uint32_t id : in.common) x.common_by_game.emplace(db.position(id).game, id);
  return x;
}

// Writes the page's head, its title and the summary of the matches.
void write_summary(std::ostream& out, const ReportInput& in, const ReportIndex& x) {
  const auto& db = in.db;
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Anticipations of "
      << escaped(in.submissions_name) << " in " << escaped(in.repository_name) << "</title>\n<style>" << kStyle
      << "</style></head>\n<body>\n"
      << svg_defs();
  out << "<h1>Anticipations of " << escaped(in.submissions_name) << " in " << escaped(in.repository_name) << "</h1>\n";
  out << "<p class=\"summary\">" << db.games() << (db.games() == 1 ? " submission game, " : " submission games, ")
      << in.search.repository_games << " repository games: <span id=\"match-count\">" << in.pairs.size() << "</span> "
      << (in.pairs.size() == 1 ? "match" : "matches");
  for (unsigned d = 0; d <= in.search.limit; ++d)
    out << (d ? ", " : " (") << x.by_distance[d] << (d == 0 ? " exact" : " at distance " + std::to_string(d));
  out << ").";
  if (x.collapsed)
    out << " More than " << kCollapseAbove << " matches: each submission's list is collapsed; open it by its title.";
  out << " Boards are drawn as the submission is oriented; outlined squares differ from the submission.</p>\n";
}

// Writes the table of contents: the submissions with matches, then every submission with its count.
void write_contents(std::ostream& out, const ReportInput& in, ReportIndex& x) {
  out << "<nav><h2>Submissions</h2>\n<p class=\"reached\">With matches:";
  for (const auto& [s, list] : x.by_submission)
    out << " <a href=\"#s" << s << "\">" << s << "</a>(" << list.size() << ")";
  if (x.by_submission.empty()) out << " none";
  out << "</p><ol>\n";
  for (uint32_t s = 1; s <= in.db.games(); ++s) {
    const size_t n = x.by_submission.count(s) ? x.by_submission[s].size() : 0;
    out << "<li value=\"" << s << "\"" << (n ? " class=\"found\"" : "") << "><a href=\"#s" << s << "\">" << x.headers[s]
        << "</a> <span class=\"count\">" << n << (n == 1 ? " match" : " matches") << "</span></li>\n";
  }
  out << "</ol></nav>\n";
}

// Writes the head of submission game s's section: its header, its first position, its common positions.
void write_submission_head(std::ostream& out, const ReportInput& in, ReportIndex& x, uint32_t s) {
  const auto& db = in.db;
  const bool found = x.by_submission.count(s) > 0;  // printed from a new page
  out << "<section class=\"submission" << (found ? " found" : "") << "\" id=\"s" << s
      << "\"><div class=\"submission-head\"><h2>Submission game " << s << ": " << x.headers[s] << "</h2>\n";
  auto first = x.first_position.find(s);
  if (first != x.first_position.end()) {
    const chess::Position& pos = in.db.board(first->second);
    out << "<figure>" << diagram(cql::similar::board_of(pos), 0, "submission game " + std::to_string(s))
        << "<figcaption>" << side_words(pos.side_to_move()) << "</figcaption></figure>\n";
  } else {
    out << "<p class=\"none\">The game has no position to compare (its start could not be read).</p>\n";
  }
  for (auto c = x.common_by_game.find(s); c != x.common_by_game.end() && c->first == s; ++c) {
    const uint32_t id = c->second;
    const auto& where = db.position(id);
    out << "<p class=\"common\">Move " << where.move
        << (where.side == chess::WHITE ? " (White to move)" : " (Black to move)") << " is within distance "
        << in.search.limit << " of positions of " << in.search.hits[id] << " of the " << in.search.repository_games
        << " repository games: a common position"
        << (in.common_skipped ? ", left out (--ignore-common)."
                              : "; --ignore-common PERCENT leaves such positions out.")
        << "</p>\n";
  }
  out << "</div>\n";
}

// Writes match `number`, `p`: the repository game (read again into `bytes` and `g`), the moves to the position
// and both boards as the submission is oriented. False (with `error`) when the game cannot be read again.
bool write_match(std::ostream& out, const ReportInput& in, const NearPair& p, size_t number, std::string& bytes,
                 pgn::Game& g, std::string* error) {
  const auto& db = in.db;
  std::string err;
  if (!in.repo.read(p.game->offset, p.game->length, bytes, &err)) {
    if (error) *error = err;
    return false;
  }
  parse_mainline(bytes, p.game->number, p.game->offset, g);
  chess::Position there;
  const std::string moves = moves_to(g, p.hit.ply, there);
  const OrientedPair boards = orient(in.db.board(p.hit.position), there, *p.hit.transform);
  const unsigned dropped = boards.dropped;
  const auto& where = db.position(p.hit.position);
  out << "<article class=\"match\" id=\"m" << number << "\" data-distance=\"" << p.hit.distance << "\">"
      << "<h3>Repository game " << p.game->number << ": " << header_of(g) << "</h3>\n<p><span class=\"transform\">"
      << (p.hit.distance == 0 ? std::string("exact") : "distance " + std::to_string(p.hit.distance)) << ": "
      << cql::similar::transform_in_words(*p.hit.transform) << "</span>; at move " << there.fullmove_number()
      << (there.side_to_move() == chess::WHITE ? " (White to move)" : " (Black to move)")
      << " of the repository game, like move " << where.move << " of the submission";
  if (dropped)
    out << "; " << dropped << (dropped == 1 ? " piece" : " pieces")
        << " of the repository position fall outside the board as the submission is oriented";
  out << ".</p>\n<p class=\"moves\">" << escaped(moves) << "</p>\n<div class=\"pair\"><figure>"
      << diagram(boards.submission, boards.differ, "submission") << "<figcaption>Submission, move " << where.move
      << "</figcaption></figure><figure>"
      << diagram(boards.repository, boards.differ, "repository game " + std::to_string(p.game->number))
      << "<figcaption>Repository game " << p.game->number << "</figcaption></figure></div></article>\n";
  return true;
}

}  // namespace

bool write_near_report(std::ostream& out, const ReportInput& in, std::string* error) {
  ReportIndex x = index_report(in);
  write_summary(out, in, x);
  write_contents(out, in, x);
  std::string bytes;
  pgn::Game g;
  size_t number = 0;
  for (uint32_t s = 1; s <= in.db.games(); ++s) {
    write_submission_head(out, in, x, s);
    auto list = x.by_submission.find(s);
    if (list == x.by_submission.end()) {
      out << "<p class=\"none\">No repository game within reach.</p></section>\n";
      continue;
    }
    out << "<details class=\"matches\"" << (x.collapsed ? "" : " open") << "><summary>" << list->second.size()
        << (list->second.size() == 1 ? " repository game" : " repository games") << "</summary>\n";
    for (const NearPair* p : list->second)
      if (!write_match(out, in, *p, ++number, bytes, g, error)) return false;
    out << "</details></section>\n";
  }
  out << "<footer><p>Written by cqlindex similar --report.</p></footer>\n</body></html>\n";
  return true;
}

}  // namespace cqlindex::exec
