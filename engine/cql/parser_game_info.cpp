// What a game says of itself: its tags (site, event, player, elo, result, any tag by name; settag writes one),
// the comments of the input, the position's FEN.
#include <algorithm>
#include <cctype>
#include <cstring>

#include "engine/cql/parser.h"

namespace cqlindex::cql {

// Implicit search: a non-empty quoted string after a string tag filter means `"s" in filter`.
NodePtr Parser::trailing_search(NodePtr n) {
  // inside comment(...), message(...) and str(...) CQL 6.2 reads `event "y"` as two arguments
  if (string_arguments_ || n->type != ValueType::String || cur().kind != TokenKind::String || cur().text.empty())
    return n;
  const Token& s = cur();
  const std::string& p = s.text;
  size_t lb = p.find('[');
  const bool glyph = p == "!?" || p == "?!" || p == "??";  // a NAG's glyph (originalcomment "!?"), no pattern
  if ((lb != std::string::npos && p.find(']', lb) != std::string::npos) ||
      (!glyph && p.find_first_of("*+?", 1) != std::string::npos))
    error("Use of the search pattern \"" + p + "\" in a context in which this pattern is interpreted literally "
          "but might have been intended to be a regular expression; prefix it with ~~ or write \"" + p + "\" in ...");
  forward();
  NodePtr lit = mk(NodeKind::StringLiteral, ValueType::String, s);
  lit->text = p;
  NodePtr in = mk(NodeKind::StringIn, ValueType::Logical, s);
  in->options.push_back(Option::Implicit);
  in->add(Role::Left, std::move(lit));
  in->add(Role::Right, std::move(n));
  return in;
}

// site, event, date, eventdate, eco, player, elo, white, black, result, tag, settag, hascomment, originalcomment,
// fen, similarposition; nullptr (not moving) for another word.
NodePtr Parser::game_info_filter() {
  const Token& t = cur();
  if (t.kind != TokenKind::Keyword) return nullptr;
  static const char* builtin[][2] = {{"site", "Site"}, {"event", "Event"}, {"date", "Date"},
                                     {"eventdate", "EventDate"}, {"eco", "ECO"}};
  for (auto& b : builtin)
    if (t.text == b[0]) {
      forward();
      NodePtr n = mk(NodeKind::TagBuiltin, ValueType::String, t);
      n->text = b[1];
      return trailing_search(std::move(n));
    }
  if (t.text == "player") {
    forward();
    NodePtr n = mk(NodeKind::Player, ValueType::String, t);
    if (keyword("white")) n->text = "white";
    else if (keyword("black")) n->text = "black";
    return trailing_search(std::move(n));
  }
  if (t.text == "elo") {
    forward();
    NodePtr n = mk(NodeKind::Elo, ValueType::Numeric, t);
    if (keyword("white")) n->text = "white";
    else if (keyword("black")) n->text = "black";
    return n;
  }
  if (t.text == "white" || t.text == "black") {
    forward();
    NodePtr n = mk(NodeKind::ColorValue, ValueType::Numeric, t);
    n->text = t.text;
    return n;
  }
  if (t.text == "result") {
    forward();
    bool quoted_result = cur().kind == TokenKind::String &&
                         (cur().text == "1-0" || cur().text == "0-1" || cur().text == "1/2-1/2");
    if (cur().kind != TokenKind::Result && !quoted_result)
      error("Expecting '1-0' or '0-1' or '1/2-1/2' following 'result'");
    NodePtr n = mk(NodeKind::Result, ValueType::Logical, t);
    n->text = cur().text;
    forward();
    return n;
  }
  if (t.text == "tag") {
    forward();
    if (cur().kind != TokenKind::String || cur().text.empty()) error("expected a nonempty quoted tag name following 'tag'");
    // a custom name or a built-in one spelt as CQL 6.2 spells it (`tag "White"`: CQL 6.2 reads the tag)
    check_tag_name(false);
    NodePtr n = mk(NodeKind::Tag, ValueType::String, t);
    n->text = cur().text;
    forward();
    return n;
  }
  if (t.text == "hascomment" || t.text == "originalcomment") {
    forward();
    NodePtr n = mk(NodeKind::HasComment, ValueType::String, t);
    n->text = t.text;
    return trailing_search(std::move(n));
  }
  if (t.text == "settag") return settag();
  if (t.text == "fen") return fen();
  if (t.text == "similarposition") return similar_position();  // parser_similar.cpp
  return nullptr;
}

// Refuses, with CQL 6.2's messages, the tag name at cur() that CQL 6.2 refuses after `tag` (or `settag`, when
// `setting`): a name not of letters, digits and underscores, one beginning with "White" or "Black" (the player
// and rating tags), and the spellings CQL 6.2 lists as close to a built-in tag. That list is CQL's own, not a
// rule: "Event" is read as a tag but "event" and "EVENT" are refused, "round" is read but "Round" is refused,
// "Result" is refused in each of its spellings, and a mixed case such as "eVENT" is read as a custom tag.
// settag refuses the exact built-in spellings too.
void Parser::check_tag_name(bool setting) const {
  const std::string& name = cur().text;
  const auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (!alnum(name.front())) error("tag name must start with a digit or letter: " + name);
  if (!std::all_of(name.begin(), name.end(), [&](char c) { return alnum(c) || c == '_'; }))
    error("tag names can only contain digits, letters, or underscores: " + name);
  if (name.size() > 5 && (name.rfind("White", 0) == 0 || name.rfind("Black", 0) == 0))
    error("tag names that begin with the string 'White' or 'Black' cannot be used in this version of CQL here: " +
          name);
  static const char* const close[] = {"event",     "EVENT",     "site",     "SITE",  "date",   "DATE",
                                      "Round",     "ROUND",     "white",    "WHITE", "black",  "BLACK",
                                      "result",    "Result",    "RESULT",   "eco",   "Eco",    "fen",
                                      "Fen",       "eventdate", "eventDate", "EVENTDATE"};
  static const char* const read_as_built_in[] = {"Event", "Site", "Date", "White", "Black", "ECO", "FEN",
                                                 "EventDate"};
  const auto listed = [&](const auto& list) { return std::find(std::begin(list), std::end(list), name) != std::end(list); };
  if (listed(close) || (setting && listed(read_as_built_in)))
    error("CQL version 6.2 does not support using 'tag' or 'settag' with tag names that are close to built in tag "
          "names: " + name);
}

// settag("Name" string): writes a custom tag into the matching game.
NodePtr Parser::settag() {
  const Token& t = cur();
  forward();
  if (!special("(")) error("'settag' should be followed by '(' which is missing here (and then the two arguments)");
  if (cur().kind != TokenKind::String || cur().text.empty())
    error("'settag' must be followed by a left paren and nonempty quoted string");
  // settag is for custom tags: the built-in ones are refused in every spelling
  check_tag_name(true);
  NodePtr n = mk(NodeKind::SetTag, ValueType::Logical, t);
  n->text = cur().text;
  forward();
  NodePtr v = require(node(), "'settag' must be followed by a left paren, a nonempty quoted string and then a filter");
  if (v->type != ValueType::String) error("Expected a string filter following 'settag(\"xx\" '");
  if (!special(")")) error("'settag': the closing ')' is missing");
  n->add(Role::Value, std::move(v));
  return n;
}

// fen "BOARD ...": the position is that board; a bare fen is the position's FEN (a string).
NodePtr Parser::fen() {
  const Token& t = cur();
  forward();
  if (cur().kind == TokenKind::String) {
    // the board part of a FEN: 8 ranks of pieces and digits, each 8 squares wide
    const std::string board = cur().text.substr(0, cur().text.find(' '));
    int ranks = 1, width = 0;
    bool ok = !board.empty();
    for (char c : board) {
      if (c == '/') {
        ok = ok && width == 8;
        ++ranks;
        width = 0;
      } else if (c >= '1' && c <= '8') {
        width += c - '0';
      } else if (std::strchr("KQRBNPkqrbnp", c)) {
        ++width;
      } else {
        ok = false;
      }
    }
    if (!ok || ranks != 8 || width != 8) error("invalid FEN board following 'fen'");
    NodePtr n = mk(NodeKind::Fen, ValueType::Logical, t);
    n->text = cur().text;
    forward();
    return n;
  }
  return mk(NodeKind::Fen, ValueType::String, t);
}

}  // namespace cqlindex::cql
