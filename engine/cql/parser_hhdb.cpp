// `hhdb KEY`: the fields of the Heijden endgame study database (HHdb VI), as CQL 6.2 reads them. The award
// forms (`hhdb [special] [prize|hm|commendation|award] [max]`) are one node, read from the Event tag at run
// time; every other key stands for a CQL filter over the tags and the first comment, parsed here from its CQL
// text (CQL 6.2 does the same), so `hhdb composer "Reti"` is an implicit search like `player white "Reti"`.
#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "engine/cql/lexer.h"
#include "engine/cql/parser.h"

namespace cqlindex::cql {
namespace {

// Keys that stand for `"KEY" in player black` (HHdb writes these codes in the Black tag), and the long names
// CQL also accepts for them.
constexpr std::array<std::string_view, 16> kBlackTagKeys = {"(c)", "(m)", "(s)", "(v)", "AN", "CR", "MC", "PH",
                                                           "TE", "TT", "TW", "U1", "U2", "U3", "U4", "U5"};
constexpr std::array<std::pair<std::string_view, std::string_view>, 17> kLongNames = {{
    {"anticipation", "AN"}, {"colors_reversed", "CR"}, {"corrected_solution", "(s)"}, {"correction", "(c)"},
    {"dual_after_move_1", "U2"}, {"dual_at_move_1", "U1"}, {"modification", "(m)"}, {"posthumous", "PH"},
    {"theme_tournament", "TT"}, {"theme_tourney", "TT"}, {"theoretical_ending", "TE"}, {"too_many_composers", "MC"},
    {"twin", "TW"}, {"unreachable", "U5"}, {"version", "(v)"}, {"white_fails", "U3"}, {"white_wins_in_draw", "U4"}}};
constexpr std::array<std::string_view, 7> kAwardKeys = {"award", "commendation", "hm", "max", "prize", "sort", "special"};

// The GBR code of the Black tag ("+0134.10a1b2"): the first character is read as CQL 6.2 reads it (its class
// [+-=] is the range '+' to '=').
constexpr std::string_view kGbr = R"cql(player black ~~ "[+-=]\d{4}\.\d{2}[a-h][1-8][a-h][1-8]")cql";

std::string needs_variations(std::string_view key) {
  return "cql_assertvariations \"'hhdb " + std::string(key) +
         "' can only be used when 'variations' is set in the CQL header (or run with -variations)\" and ";
}
// Reached by a move that is not the main one, and not marked "<main>" there.
constexpr std::string_view kOffMain = R"cql(find quiet <-- {move previous secondary not ("<main>" in originalcomment)})cql";

// The CQL text a key stands for ("" when there is none).
std::string hhdb_text(const std::string& key) {
  for (std::string_view k : kBlackTagKeys)
    if (key == k) return "(\"" + key + "\" in player black)";
  if (key == "<cook>") return R"cql(("<cook" in originalcomment))cql";
  if (key == "<eg>") return R"cql(("<eg>" in originalcomment))cql";
  if (key == "<minor_dual>") return R"cql(("<minor_dual" in originalcomment))cql";
  if (key == "<main>" || key == "<or>") return "(" + needs_variations(key) + "\"" + key + "\" in originalcomment)";
  if (key == "mainline") return "(" + needs_variations(key) + "not " + std::string(kOffMain) + ")";
  if (key == "variation") return "(" + needs_variations(key) + std::string(kOffMain) + ")";
  // the composers: the first comment up to its first period when the Black tag says MC (too many composers
  // for the White tag), else the White tag without a trailing " NN"
  if (key == "composer")
    return R"cql((if "MC" in player black {position 0 : originalcomment ~~ "^([^.]+)\." \1}
               else if player white ~~ "^(.*) NN$" \1 else player white))cql";
  if (key == "cooked") return "cql_hhdbhascook";
  if (key == "sound") return R"cql(not ((cql_hhdbhascook and player black ~~ "U[12]") or player black ~~ "U[345]"))cql";
  if (key == "unsound") return R"cql((cql_hhdbhascook or player black ~~ "U[1-5]"))cql";
  if (key == "dual") return R"cql((player black ~~ "U[12]" or false))cql";
  if (key == "diagram") return R"cql({event ~~ "#([^ ]+)" \1})cql";
  if (key == "egdiagram") return R"cql((position 0 : {originalcomment ~~ "EG#(\d+)" int \1}))cql";
  if (key == "firstcomment") return "(position 0 : originalcomment)";
  if (key == "stipulation") return R"cql({position 0 : originalcomment ~~ "stipulation: ([^.]+)\." \1})cql";
  if (key == "search")
    return R"cql((event + \n + player white + \n + player black +
               (if (position 0 : originalcomment) \n + (position 0 : originalcomment) else "")))cql";
  if (key == "gbr") return "(" + std::string(kGbr) + ")";
  if (key == "gbr material") return "(" + std::string(kGbr) + ")[1:8]";
  if (key == "gbr pieces") return "(" + std::string(kGbr) + ")[1:5]";
  if (key == "gbr pawns") return "(" + std::string(kGbr) + ")[6:8]";
  if (key == "gbr kings") return "(" + std::string(kGbr) + ")[8:12]";
  return "";
}

// Every node of an expansion takes the position of the `hhdb` that stands for it.
void place(Node& n, int line, int column) {
  n.line = line;
  n.column = column;
  for (Child& c : n.kids) place(*c.node, line, column);
}

// `hhdb [special] sort TYPE`: three quiet ascending sorts, as CQL 6.2 expands it: the award's category (prize,
// special prize, hm, special hm, commendation, special commendation), then its rank, then its upper rank.
std::string hhdb_sort_text(const std::string& type, bool special) {
  if (special) return "{hhdb special and hhdb sort " + type + "}";
  if (type == "award") return "{hhdb sort prize or hhdb sort hm or hhdb sort commendation}";
  const std::string category = type == "prize" ? "1" : type == "hm" ? "3" : "5";
  return "{hhdb " + type + "\n"
         "if hhdb special then {cql_category = " + category + " + 1 cql_truerank = hhdb special " + type +
         " cql_maxrank = hhdb special " + type + " max}\n"
         "else {cql_category = " + category + " cql_truerank = hhdb " + type + " cql_maxrank = hhdb " + type + " max}\n"
         "sort quiet min \"cql_category\" cql_category\n"
         "sort quiet min \"cql_truerank\" cql_truerank\n"
         "sort quiet min \"cql_maxrank\" cql_maxrank\n"
         "true}";
}

bool is_award_key(const std::string& k) { return std::find(kAwardKeys.begin(), kAwardKeys.end(), k) != kAwardKeys.end(); }

}  // namespace

// The key at the cursor: a name, or a quoted string for the keys with other characters ("(c)", "<cook>").
static std::string hhdb_key(const Token& t) {
  if (t.kind == TokenKind::Identifier || t.kind == TokenKind::Keyword || t.kind == TokenKind::String) return t.text;
  if (t.kind == TokenKind::Piece) return t.spelling;  // MC, TE ... never lex as designators, but be safe
  return "";
}

NodePtr Parser::hhdb() {
  const Token& start = cur();
  forward();
  // the award forms: any of award commendation hm max prize sort special, in any order
  std::vector<std::string> awards;
  while (!eof() && (cur().kind == TokenKind::Identifier || cur().kind == TokenKind::Keyword) &&
         is_award_key(cur().text)) {
    awards.push_back(cur().text);
    forward();
  }
  if (!awards.empty()) {
    std::string type, text;
    bool special = false, max = false, sort = false;
    for (const std::string& k : awards) {
      if (k == "max") {
        if (max) error_at(start, "multiple max keywords following hhdb");
        max = true;
      } else if (k == "special") {
        if (special) error_at(start, "multiple 'special' keywords following hhdb");
        special = true;
      } else if (k == "sort") {
        sort = true;
      } else {
        if (!type.empty()) error_at(start, "multiple type (hm, prize, commendation or award) specifications following 'hhdb'");
        type = k;
      }
      text += (text.empty() ? "" : " ") + k;
    }
    if (sort) {
      if (awards.back() == "sort")
        error_at(start, "'sort' apparently appears as the last parameter to 'hhdb'. If 'hhdb sort' was intended, move "
                        "the 'sort' to immediately follow the 'hhdb' keyword");
      if (type.empty() && !special)
        error_at(start, "'hhdb sort' requires either 'special', 'award', 'prize', 'hm', or 'commendation' parameters as well");
      if (max) error_at(start, "'hhdb' cannot be followed by both the 'sort' and the 'max' keywords");
      return expand(hhdb_sort_text(type.empty() ? "award" : type, special), start, "sort");
    }
    NodePtr n = mk(NodeKind::Hhdb, ValueType::Numeric, start);
    n->text = text;
    n->options.push_back(option_named(type.empty() ? "award" : type).value());  // award commendation hm prize
    if (special) n->options.push_back(Option::Special);
    if (max) n->options.push_back(Option::Max);
    return n;
  }
  std::string key = hhdb_key(cur());
  if (key.empty()) error("Expecting a valid hhdb keyword following 'hhdb'");
  const Token& key_token = cur();
  forward();
  for (const auto& [name, code] : kLongNames)
    if (key == name) key = std::string(code);
  if (key == "gbr" && (cur().kind == TokenKind::Identifier || cur().kind == TokenKind::Keyword) &&
      (cur().text == "kings" || cur().text == "material" || cur().text == "pawns" || cur().text == "pieces")) {
    key += " " + cur().text;
    forward();
  }
  const std::string text = hhdb_text(key);
  if (text.empty()) error_at(key_token, "unknown or unsupported hhdb keyword: " + key);
  return trailing_search(expand(text, start, key));
}

// The filter `text` stands for, parsed against this query's variables, placed at `at`.
NodePtr Parser::expand(const std::string& text, const Token& at, const std::string& key) {
  Parser sub(text, lex(text), q_);
  sub.var_assigned_ = var_assigned_;
  NodePtr n = sub.node();
  if (!n || !sub.eof()) error_at(at, "internal: the CQL text of 'hhdb " + key + "' does not parse");
  var_assigned_ = std::move(sub.var_assigned_);
  place(*n, at.line, at.column);
  return n;
}

// hhdb, cql_assertvariations; nullptr (not moving) for another word.
NodePtr Parser::hhdb_filter() {
  const Token& t = cur();
  const std::string& w = t.text;
  NodePtr n;
  if (w == "hhdb") return hhdb();
  if (w == "cql_assertvariations") {
    forward();
    if (cur().kind != TokenKind::String || cur().text.empty())
      error("cql_assertvariations must be followed by nonempty quoted string");
    n = mk(NodeKind::AssertVariations, ValueType::Logical, t);
    n->text = cur().text;
    forward();
    return n;
  }
  return nullptr;
}

}  // namespace cqlindex::cql
