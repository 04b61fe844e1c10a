// The PGN writer: games laid out byte for byte as CQL 6.2 writes them.
//
// CQL 6.2 writes through the Scid game/text-buffer code it is built on. The rules below were derived from the
// CQL 6.2 output files in shared/data/cql-examples/expected-output (compared with their inputs) and checked
// against the published CQL source (github.com/lamech/cql, src/orig/textbuf.cpp, src/origChanges.cpp).
//
// Line filling (LineWrapper), wrap column W = 80, `col` = bytes on the current line:
//   word w   : if col + |w| >= W a line break first (even on an empty line), then w.
//   space    : a ' ', or a line break instead when col + 1 >= W (so a line may end in one space).
//   char c   : like a one-byte word ("(" and ")").
//   string s : words split at ' ' and '\n'; a ' ' between them is a `space`, a '\n' a line break. So two
//              spaces give word, space, empty word, space: a line can start with a space.
//   line s   : bytes appended with no check, then a line break (only the game comment's closing "}", which is
//              why that one line can be 80 bytes long).
//   A byte 0xC3 and the byte after it are written as one byte (next + 64): CQL's Latin-1 hack for UTF-8.
//   Lines end in LF only; CRs of the input never reach the output (comment text is whitespace-normalised).
// Game:
//   tags, one per line, never wrapped, in this order: Event, Site, Date, Round, White, Black, Result (always;
//   "?", "????.??.??", "*" when missing); WhiteElo, BlackElo (when > 0; also WhiteRating/USCF/... by the first
//   rating tag found); ECO (when valid); EventDate (when given); every other tag in input order (a repeated name
//   keeps its first place and its last value; SetUp, PlyCount, Annotator... pass through); FEN last, for games
//   not starting from the standard position. So input "SetUp FEN PlyCount EventDate" comes out
//   "EventDate SetUp PlyCount FEN". Values are the raw bytes between the quotes (escapes untouched), except:
//   Date/EventDate as "yyyy.mm.dd" with "????"/"??" for unknown parts (Date also drops the day when the month
//   is unknown: "2012.??.03" -> "2012.??.??", EventDate keeps it); White/Black without leading spaces, one
//   space after each comma, no trailing spaces/dots ("Kortchnoi, V." -> "Kortchnoi, V"), a trailing " (2450)"
//   moved to the Elo; Result = the movetext's termination marker (the tag only when there is none); the FEN
//   regenerated, keeping the FEN tag's en-passant square even where no capture is possible.
//   a blank line.
//   the game comment, if any: word "{", string(text), line "}" (so it always ends its own line).
//   the movetext (below), then word(result), a line break, then two more line breaks (two blank lines; the file
//   ends with them too).
// Movetext of a line (mainline or variation):
//   a variation that starts with a comment: word "{", string(text), word "}", space.
//   for each move: the move number as one word, "12." before White's move, "12..." before Black's move when
//     it is the first of a line or follows a comment or a variation; the SAN as its own word (so "8." and
//     "Nd8" can be split over two lines, never a space between them); each NAG as space + "$n" (`!`, `?`...
//     are written as $1, $2...); a space; the comment if any: word "{", string(text), word "}", space; then
//     each alternative variation: char "(", space, the variation, char ")", space. So `( 1.Ke7 $2 Bb2 $1 )`.
// Comments as CQL reads them: whitespace runs (space, tab, CR, LF) made one space, ends trimmed ("{\r\nBoth
//   players have missed\r\n}" -> "Both players have missed"); other bytes kept (Latin-1 passes through); of
//   several comments at one place only the last is kept (an empty one too, written "{}"); `;` comments inside
//   the movetext are dropped; the comment before the first move is the game comment. Text CQL adds (`Game
//   number N`, `CQL`, sort, path and echo text) is appended to the comment after the position's move, after its NAGs: see merge_cql_comment
//   ("{correction: ... Game number 248}", "{Start line ... CQL Start line ... CQL}").
#include "engine/pgn/writer.h"

#include "engine/pgn/cql_tag_values.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <unordered_map>

#include "engine/chess/san.h"
#include "engine/pgn/line_wrapper.h"

namespace cqlindex::pgn {
namespace {

constexpr size_t kCommentLimit = 4500;     // CQL ignores an append that would make a comment longer
constexpr size_t kTruncateLimit = 4800;    // past this an addition is dropped without a marker

bool is_cql_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A rating written after a player's name, "Name (2450)": cut from the name and returned (0: none).
unsigned split_name_rating(std::string& name) {
  size_t n = name.size();
  if (n <= 7 || name[n - 1] != ')' || name[n - 6] != '(' || name[n - 7] != ' ') return 0;
  for (size_t i = n - 5; i < n - 1; ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return 0;
  unsigned elo = unsigned(std::stoi(name.substr(n - 5, 4)));
  if (elo > 4000) return 0;
  name.resize(n - 7);
  return elo;
}

std::string_view result_string(Result r) {
  switch (r) {
    case Result::WhiteWins: return "1-0";
    case Result::BlackWins: return "0-1";
    case Result::Draw: return "1/2-1/2";
    default: return "*";
  }
}

// The game's result as CQL keeps it: the game-termination marker, or the Result tag when there is none.
std::string_view game_result(const Game& g) {
  if (g.result != Result::Missing) return result_string(g.result);
  for (const Tag& t : g.tags)
    if (t.name == "Result") return cql_result(t.raw_value);
  return "*";
}

constexpr std::array<std::string_view, 7> kRatingTypes = {"Elo", "Rating", "Rapid", "ICCF", "USCF", "DWZ", "BCF"};

struct Rating {
  unsigned value = 0;
  std::string_view type;
};

// A comment's words; text read back from CQL's output already holds CQL's line breaks.
void comment_text(LineWrapper& w, std::string_view text, const WriteOptions& opt) {
  if (opt.comment_text == CommentText::Verbatim) w.string_rewrapped(text);
  else w.string(text);
}

// The FEN CQL writes for a start position: ours, except that the en-passant field is the one of the FEN tag
// whenever that names a third- or sixth-rank square, whether or not a capture there is possible (CQL keeps it).
std::string cql_fen(const chess::Position& pos, std::string_view fen_tag) {
  std::string fen = pos.fen();
  auto field4 = [](std::string_view f, size_t& begin) {
    size_t i = 0;
    for (int field = 0; field < 3; ++field) {
      while (i < f.size() && f[i] == ' ') ++i;
      while (i < f.size() && f[i] != ' ') ++i;
    }
    while (i < f.size() && f[i] == ' ') ++i;
    begin = i;
    size_t e = i;
    while (e < f.size() && f[e] != ' ') ++e;
    return f.substr(i, e - i);
  };
  size_t tag_begin = 0, ours_begin = 0;
  std::string_view ep = field4(fen_tag, tag_begin);
  if (ep.size() != 2 || ep[0] < 'a' || ep[0] > 'h' || (ep[1] != '3' && ep[1] != '6')) return fen;
  std::string_view ours = field4(fen, ours_begin);
  return fen.substr(0, ours_begin) + std::string(ep) + fen.substr(ours_begin + ours.size());
}

// Where each name of a game's other tags is in their list: the list is searched while it is short (most games),
// a hash map built once it grows, so that a game with any number of tags is written in linear time.
class ExtraTagPlaces {
 public:
  using Tags = std::vector<std::pair<std::string_view, std::string_view>>;
  // Returns the index of `name` in `tags`, or tags.size().
  size_t find(const Tags& tags, std::string_view name) const {
    if (tags.size() <= kSearched)
      return size_t(std::find_if(tags.begin(), tags.end(), [&](const auto& t) { return t.first == name; }) -
                    tags.begin());
    const auto at = places_.find(name);
    return at == places_.end() ? tags.size() : at->second;
  }
  // Appends a tag whose name `tags` does not hold.
  void add(Tags& tags, std::string_view name, std::string_view value) {
    tags.emplace_back(name, value);
    if (tags.size() == kSearched + 1)
      for (size_t i = 0; i < tags.size(); ++i) places_.emplace(tags[i].first, i);
    else if (tags.size() > kSearched + 1)
      places_.emplace(name, tags.size() - 1);
  }

 private:
  static constexpr size_t kSearched = 32;
  std::unordered_map<std::string_view, size_t> places_;
};

// The tag section in CQL's order and form.
void write_tags(const Game& game, std::string& out) {
  std::string_view event = "?", site = "?", round = "?";
  std::string white = "?", black = "?";
  CqlDate date, event_date;
  Rating white_elo, black_elo;
  std::string eco;
  std::string_view fen_tag;
  std::vector<std::pair<std::string_view, std::string_view>> extra;
  ExtraTagPlaces extra_places;
  for (const Tag& t : game.tags) {
    std::string_view n = t.name, v = t.raw_value;
    if (n == "Event") event = v;
    else if (n == "Site") site = v;
    else if (n == "Date") {
      date = cql_date(v);
      if (date.month == 0) date.day = 0;  // CQL writes Date "2012.??.03" as "2012.??.??" (not so EventDate)
    }
    else if (n == "Round") round = v;
    else if (n == "White" || n == "Black") {
      std::string& name = n == "White" ? white : black;
      name = cql_player_name(v);
      if (unsigned elo = split_name_rating(name)) (n == "White" ? white_elo : black_elo) = Rating{elo, "Elo"};
    }
    else if (n == "Result") continue;  // written from game_result()
    else if (n == "ECO") eco = cql_eco(v);
    else if (n == "EventDate") event_date = cql_date(v);
    else if (n == "FEN") fen_tag = v;  // regenerated from the start position
    else {
      bool rating = false;
      for (int side = 0; side < 2 && !rating; ++side) {
        std::string_view prefix = side == 0 ? "White" : "Black";
        Rating& r = side == 0 ? white_elo : black_elo;
        if (r.value != 0 || n.size() <= prefix.size() || n.substr(0, prefix.size()) != prefix) continue;
        for (std::string_view type : kRatingTypes) {
          if (n.substr(prefix.size()) != type) continue;
          r.value = std::min(cql_leading_number(v), 4000u);
          r.type = type;
          rating = true;
          break;
        }
      }
      if (rating) continue;
      // a repeated name keeps its first place and takes the last value
      if (const size_t at = extra_places.find(extra, n); at < extra.size()) extra[at].second = v;
      else extra_places.add(extra, n, v);
    }
  }

  // a tag is one line, never wrapped: its bytes as the line wrapper writes them with no wrap column (the line
  // whole: a 0xC3 ending a value folds the quote after it)
  std::string line;
  auto tag = [&](std::string_view name, std::string_view value) {
    line.clear();
    line += '[';
    line += name;
    line += " \"";
    line += value;
    line += "\"]\n";
    LineWrapper::append_unwrapped(out, line);
  };
  tag("Event", event);
  tag("Site", site);
  tag("Date", cql_date_text(date));
  tag("Round", round);
  tag("White", white);
  tag("Black", black);
  tag("Result", game_result(game));
  if (white_elo.value) tag(std::string("White") += white_elo.type, std::to_string(white_elo.value));
  if (black_elo.value) tag(std::string("Black") += black_elo.type, std::to_string(black_elo.value));
  if (!eco.empty()) tag("ECO", eco);
  if (event_date.set()) tag("EventDate", cql_date_text(event_date));
  for (const auto& [n, v] : extra) tag(n, v);
  if (game.custom_start) tag("FEN", cql_fen(game.start, fen_tag));
}

// A comment read into its place: CQL keeps only the last of several comments at one place
// ("24.Bd4 {looks great.} {Black escapes by}" -> "{Black escapes by}"); verbatim text is joined instead.
void put_comment(GameComments::Text& slot, std::string_view text, CommentText mode, GameComments& s) {
  if (!slot || mode == CommentText::AsCqlReads) slot = text;
  else slot = s.keep(std::string(*slot) + ' ' + std::string(text));
}

// True for a byte CQL rewrites in a comment it added to: `{`, `}` and bytes >= 127.
bool cql_rewrites(char ch) { return ch == '{' || ch == '}' || static_cast<unsigned char>(ch) >= 127; }

// Returns `text` as CQL leaves a comment it added to: `{`/`}` made `_`, bytes >= 127 made `?`.
std::string clean_cql_comment(std::string text) {
  for (char& ch : text)
    if (cql_rewrites(ch)) ch = ch == '{' || ch == '}' ? '_' : '?';
  return text;
}

// True when merge_cql_comment(nullopt, {text}) is `text` unchanged: not empty, short, nothing CQL rewrites.
bool is_clean_addition(std::string_view text) {
  return !text.empty() && text.size() <= kCommentLimit && std::none_of(text.begin(), text.end(), cql_rewrites);
}

bool is_first_child(const Game& g, NodeIndex n) {
  const Node& node = g.nodes[n];
  return node.parent != kNoNode && g.nodes[node.parent].first_child == n;
}

// True when cql_comment_text(raw) is `raw` itself: no tab, CR or LF, no space at an end or next to another.
bool is_cql_comment_text(std::string_view raw) {
  if (!raw.empty() && (raw.front() == ' ' || raw.back() == ' ')) return false;
  for (size_t i = 0; i < raw.size(); ++i)
    if (raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r' || (raw[i] == ' ' && raw[i + 1] == ' ')) return false;
  return true;
}

GameComments collect_comments(const Game& g, std::span<const AddedComment> added, CommentText mode,
                             size_t* ignored = nullptr) {
  GameComments s;
  s.after.resize(g.nodes.size());
  s.variation_start.resize(g.nodes.size());
  for (const Comment& c : g.comments) {
    std::string_view text = c.text;
    if (mode == CommentText::AsCqlReads) {
      if (c.kind == CommentKind::Semicolon) continue;  // CQL ignores `;` comments inside a game
      if (!is_cql_comment_text(text)) text = s.keep(cql_comment_text(c.text));
    }
    NodeIndex n = c.node;
    if (n == 0 || n >= g.nodes.size()) {
      put_comment(s.game, text, mode, s);
    } else if (c.place == CommentPlace::After) {
      put_comment(s.after[n], text, mode, s);
    } else if (!is_first_child(g, n)) {
      put_comment(s.variation_start[n], text, mode, s);  // `( {c} 12...Kd8 )`
    } else if (g.nodes[n].parent == 0) {
      put_comment(s.game, text, mode, s);  // before the first move of the game
    } else {
      put_comment(s.after[g.nodes[n].parent], text, mode, s);  // `1.e4 {a} {b} e5`: one comment after 1.e4
    }
  }
  if (added.empty()) return s;

  // Additions grouped by node, in the order given: read in place when they come by node (the evaluator adds them
  // position by position), else through pointers sorted by node.
  const size_t nodes = g.nodes.size();
  std::vector<const AddedComment*> sorted;
  auto by_node = [](const AddedComment& a, const AddedComment& b) { return a.node < b.node; };
  if (!std::is_sorted(added.begin(), added.end(), by_node)) {
    for (const AddedComment& a : added) sorted.push_back(&a);
    std::stable_sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->node < b->node; });
  }
  auto at = [&](size_t i) -> const AddedComment& { return sorted.empty() ? added[i] : *sorted[i]; };
  std::vector<std::string_view> texts;
  for (size_t i = 0; i < added.size();) {
    const NodeIndex n = at(i).node;
    if (n >= nodes) break;  // sorted: the rest are past the game's nodes too
    size_t end = i + 1;
    while (end < added.size() && at(end).node == n) ++end;
    GameComments::Text& slot = n == 0 ? s.game : s.after[n];
    if (end == i + 1 && !slot && !at(i).remove_original && is_clean_addition(at(i).text)) {
      slot = at(i).text;  // the common case (a `CQL` at a matched position): what merge_cql_comment gives
      i = end;
      continue;
    }
    texts.clear();
    bool remove = false;
    for (; i < end; ++i) {
      if (at(i).remove_original) remove = true;
      else texts.push_back(at(i).text);
    }
    const GameComments::Text original = slot;
    auto keep = [&s](std::optional<std::string> text) -> GameComments::Text {
      if (!text) return std::nullopt;
      return s.keep(std::move(*text));
    };
    if (!remove) {
      bool dropped = false;
      if (!texts.empty()) slot = keep(merge_cql_comment(original, texts, &dropped));
      if (dropped && ignored) ++*ignored;
    } else if (texts.empty() || !original) {
      slot = texts.empty() ? std::nullopt : keep(merge_cql_comment(std::nullopt, texts));
    } else {
      // CQL 6.2 deletes the input comment but still builds the additions as if it were there: they keep the
      // space that would follow it ("{ mine CQL}") and its length counts towards the 4500-byte limits
      bool ignored = false;
      std::optional<std::string> merged = merge_cql_comment(original, texts, &ignored);
      if (ignored || !merged || merged->size() < original->size()) slot = keep(merge_cql_comment(std::nullopt, texts));
      else slot = keep(merged->substr(original->size()));
    }
  }
  return s;
}

class MovetextWriter {
 public:
  MovetextWriter(const Game& g, const GameComments& c, const WriteOptions& o, LineWrapper& w)
      : g_(g), comments_(c), opt_(o), w_(w), kept_(g.positions.size() == g.nodes.size()) {}

  // The line starting at node `first` (a child of the position `start`).
  void write_line(NodeIndex first, const chess::Position& start, bool variation) {
    // The positions the parser kept, else a replay.
    std::optional<chess::Position> replay;
    if (!kept_) replay.emplace(start);
    const chess::Position* before = kept_ ? &start : &*replay;
    if (variation && comments_.variation_start[first]) {
      write_comment(*comments_.variation_start[first]);
      w_.space();
    }
    bool number = true;
    for (NodeIndex n = first; n != kNoNode; n = g_.nodes[n].first_child) {
      const Node& node = g_.nodes[n];
      const chess::Position& pos = *before;
      bool white = pos.side_to_move() == chess::WHITE;
      if (number || white) {
        char num[16];
        char* end = std::to_chars(num, num + 8, pos.fullmove_number()).ptr;
        std::memcpy(end, "...", 3);  // (one fixed-size copy; White's number keeps one dot of it)
        end += white ? 1 : 3;
        w_.ascii_word(std::string_view(num, size_t(end - num)));
        number = false;
      }
      char san[chess::kMaxSanBytes + 1];  // one spare byte: no read that copy_short could make is out of bounds
      size_t san_size = 0;
      if (kept_) {
        san_size = chess::write_san(pos, node.move, g_.positions[n], san);
      } else {
        const bool real = !node.move.is_null() && !node.move.is_none();
        san_size = chess::write_san(pos, node.move, real ? pos.after(node.move) : pos, san);
      }
      w_.ascii_word(std::string_view(san, san_size));
      for (const Nag& nag : g_.nags_of(node)) {
        w_.space();
        char buf[8] = {'$'};
        w_.ascii_word(std::string_view(buf, size_t(std::to_chars(buf + 1, buf + 8, unsigned(nag.value)).ptr - buf)));
      }
      w_.space();
      if (comments_.after[n]) {
        write_comment(*comments_.after[n]);
        w_.space();
        number = true;
      }
      if (opt_.variations && (n != first || !variation) && is_first_child(g_, n)) {
        for (NodeIndex v = node.next_sibling; v != kNoNode; v = g_.nodes[v].next_sibling) {
          w_.ch('(');
          w_.space();
          write_line(v, pos, true);
          w_.ch(')');
          w_.space();
          number = true;
        }
      }
      if (kept_) before = &g_.positions[n];
      else replay->do_move(node.move);
    }
  }

 private:
  void write_comment(std::string_view text) {
    w_.ascii_word("{");
    comment_text(w_, text, opt_);
    w_.ascii_word("}");
  }

  const Game& g_;
  const GameComments& comments_;
  const WriteOptions& opt_;
  LineWrapper& w_;
  const bool kept_;  // the game holds every node's position
};

}  // namespace

GameComments cql_comments(const Game& game, CommentText mode) { return collect_comments(game, {}, mode); }

std::string cql_comment_text(std::string_view raw) {
  std::string s;
  s.reserve(raw.size());
  for (char c : raw) {
    if (is_cql_space(c)) {
      if (s.empty() || s.back() == ' ') continue;
      c = ' ';
    }
    s += c;
  }
  if (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::optional<std::string> merge_cql_comment(std::optional<std::string_view> original,
                                             std::span<const std::string_view> additions, bool* ignored) {
  if (ignored) *ignored = false;
  std::string appended;
  size_t total = original ? original->size() : 0;
  for (std::string_view c : additions) {
    if (c.empty()) continue;
    size_t grown = total + c.size();
    if (grown > kTruncateLimit) break;
    if (grown > kCommentLimit) {
      appended += "[cql truncate]...";
      break;
    }
    if (total > 0) appended += ' ';
    total += c.size();
    appended += c;
  }
  std::optional<std::string> result;
  if (original) result.emplace(*original);
  if (appended.empty()) return result;
  size_t old_size = original ? original->size() : 0;
  if (old_size + appended.size() > kCommentLimit) {
    if (ignored) *ignored = true;
    return result;
  }
  return clean_cql_comment(result ? *result + appended : std::move(appended));
}

void write_game(const Game& game, std::span<const AddedComment> added, const WriteOptions& options,
                std::string& out) {
  const size_t start = out.size();
  out.reserve(start + 512 + 24 * game.nodes.size());  // tags, then ~12 bytes a move and as many for a comment
  write_tags(game, out);
  out += '\n';
  GameComments comments = collect_comments(game, added, options.comment_text, options.ignored_comments);
  LineWrapper w(out);
  if (comments.game) {
    w.word("{");
    comment_text(w, *comments.game, options);
    w.line("}");
  }
  NodeIndex first = game.nodes.empty() ? kNoNode : game.nodes[0].first_child;
  if (first != kNoNode) {
    MovetextWriter mw(game, comments, options, w);
    mw.write_line(first, game.start, false);
  }
  w.word(game_result(game));
  w.newline();
  w.flush();
  // CQL's buffer holds size - 1 bytes and the text is marked truncated once it passes size - 5 bytes
  if (const size_t size = options.truncate_at; size > 0 && out.size() - start > size - 5) {
    const size_t cut = start + size - 1;
    if (cut < out.size()) {
      // a comment word that does not fit whole is not begun: the comment is closed there and the rest padded
      // with spaces (CQL 6.2 output: "Found 50 of 71 }  game truncated by CQL } *")
      auto blank = [](char c) { return c == ' ' || c == '\n'; };
      const size_t word = out.find_last_of(" \n", cut - 1) + 1;
      const size_t open = out.rfind('{', cut - 1), close = out.rfind('}', cut - 1);
      const bool in_comment = open != std::string::npos && (close == std::string::npos || close < open);
      if (!blank(out[cut - 1]) && !blank(out[cut]) && in_comment && word > open && word < cut) {
        out[word] = '}';
        std::fill(out.begin() + long(word) + 1, out.begin() + long(cut), ' ');
      }
      out.resize(cut);
    }
    out += " game truncated by CQL } * \n\n";
  }
  out += "\n\n";
}

}  // namespace cqlindex::pgn
