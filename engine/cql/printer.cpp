// Canonical S-expression printer and CQL text printer (unparser) of the bound tree.
#include "engine/cql/printer.h"

#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cql/error.h"
#include "engine/cql/lexer.h"
#include "engine/cql/move_parameters.h"
#include "engine/cql/token.h"

namespace cqlindex::cql {
namespace {

// Returns how a piece variable is declared in CQL text: `piece x`, or `[Aa]x` when the name would lex as
// something else after `piece` (a name such as `a` or `K`, which only the `[Aa]a = ...` form can declare).
std::string piece_declaration(const std::string& name) {
  std::vector<Token> tokens;
  try {
    tokens = lex(name);
  } catch (const CqlError&) {
  }
  if (tokens.size() == 2 && tokens[0].kind == TokenKind::Identifier) return "piece " + name;
  return "[Aa]" + name;
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else out += c;
  }
  return out + "\"";
}

std::string squares_text(uint64_t sq) {
  if (sq == ~uint64_t{0}) return "";
  std::string s = "[";
  bool first = true;
  for (int i = 0; i < 64; ++i)
    if (sq >> i & 1) {
      if (!first) s += ",";
      s += static_cast<char>('a' + i % 8);
      s += static_cast<char>('1' + i / 8);
      first = false;
    }
  return s + "]";
}

std::string pieces_text(uint16_t p) {
  static const char letters[] = "KQRBNPkqrbnp_";
  std::string s;
  if ((p & piece_bits::kWhite) == piece_bits::kWhite) { s += "A"; p &= ~piece_bits::kWhite; }
  if ((p & piece_bits::kBlack) == piece_bits::kBlack) { s += "a"; p &= ~piece_bits::kBlack; }
  for (int i = 0; i < 13; ++i)
    if (p >> i & 1) s += letters[i];
  return s;
}

void canonical(const Node& n, std::ostringstream& o, int indent) {
  o << std::string(indent * 2, ' ') << "(" << kind_name(n.kind) << ":" << type_name(n.type);
  if (n.kind == NodeKind::Number || n.kind == NodeKind::GroupRef) o << " " << n.a;
  if (n.kind == NodeKind::SeqRepeat) o << " " << n.a << ".." << (n.b < 0 ? std::string("inf") : std::to_string(n.b));
  if (n.kind == NodeKind::PieceSet) {
    o << " " << (n.pieces ? pieces_text(n.pieces) : "squares") << squares_text(n.squares);
  } else if (!n.text.empty()) {
    o << " " << quote(n.text);
  }
  if (n.var >= 0 && n.kind != NodeKind::Variable) o << " var#" << n.var;
  if (n.kind == NodeKind::Variable) o << " #" << n.var;
  for (Option opt : n.options) o << " [" << option_name(opt) << "]";
  if (n.kids.empty()) {
    o << ")\n";
    return;
  }
  o << "\n";
  for (const Child& c : n.kids) {
    if (c.role != Role::Arg) o << std::string(indent * 2 + 2, ' ') << role_name(c.role) << "=\n";
    canonical(*c.node, o, indent + 1 + (c.role != Role::Arg));
  }
  o << std::string(indent * 2, ' ') << ")\n";
}

// ---------------------------------------------------------------- CQL text

// A CQL string literal: quoted text has no escapes in CQL, so '"' and control characters become the escape
// tokens \" \n \r \t written against the quoted parts (adjacent strings concatenate).
std::string cql_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const char* esc = c == '"' ? "\\\"" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : nullptr;
    if (esc) out += std::string("\"") + esc + "\"";
    else out += c;
  }
  return out + "\"";
}

std::string cql(const Node& n);

bool atomic(const Node& n) {
  switch (n.kind) {
    case NodeKind::Variable: case NodeKind::PieceSet: case NodeKind::StringLiteral: case NodeKind::AllSquares:
    case NodeKind::EmptySet: case NodeKind::True: case NodeKind::False: case NodeKind::Predicate:
    case NodeKind::Counter: case NodeKind::CurrentPosition: case NodeKind::InitialPosition: case NodeKind::Parent:
      return true;
    case NodeKind::Number: return n.a >= 0;
    default: return false;
  }
}

// The node as one primitive: bare when atomic, else inside spaced braces (never a {m,n} token).
std::string wrap(const Node& n) {
  if (atomic(n)) return cql(n);
  if (n.kind == NodeKind::Line || n.kind == NodeKind::Path) return "( " + cql(n) + " )";
  return "{ " + cql(n) + " }";
}

// A constituent of a compound: a line or path is closed by parentheses so it cannot swallow what follows.
// A negative number is parenthesized too: after a numeric constituent a bare -3 would read as a subtraction.
std::string item(const Node& n) {
  if (n.kind == NodeKind::Line || n.kind == NodeKind::Path) return "( " + cql(n) + " )";
  if (n.kind == NodeKind::Number && n.a < 0) return "(" + cql(n) + ")";
  return cql(n);
}

// True when `text` opens with a word the move filter reads as one of its parameters.
bool reads_as_move_parameter(const std::string& text) {
  return is_move_parameter_word(std::string_view(text).substr(0, text.find_first_of(" \n({[\"")));
}

// The constituents of a compound, each ended by `end`. A dash is braced when the next constituent opens with a
// parenthesis, which would read as its targets (`p-- (-6)`, `a2--a4 (-6)`: CQL 6.2 refuses a '(' after a dash's
// `--` or its right side, even across lines); a braced single constituent reads back as the same tree.
std::string items(const Node& compound, const std::string& end) {
  std::vector<std::string> texts;
  for (const Child& c : compound.kids) texts.push_back(item(*c.node));
  std::string s;
  for (size_t i = 0; i < texts.size(); ++i) {
    const bool dash = compound.kids[i].node->kind == NodeKind::Dash;
    const bool paren_next = i + 1 < texts.size() && texts[i + 1].starts_with("(");
    // a move followed by a filter that opens with one of its parameter words would take it as that parameter
    // (twelfth fuzz finding: `move ///2-- --` printed as `move comment (...)`; likewise `from`, `o-o`, ...)
    const bool move = compound.kids[i].node->kind == NodeKind::Move;
    const bool parameter_next = i + 1 < texts.size() && reads_as_move_parameter(texts[i + 1]);
    s += ((dash && paren_next) || (move && parameter_next) ? "{ " + texts[i] + " }" : texts[i]) + end;
  }
  return s;
}

// The body of a filter that may take a range first (find, transforms): a bare number there would be read
// as the range, so it goes in braces.
// A numeric variable right after a one-bound range would be read as its second bound: write both bounds.
bool numeric_variable(const Node& n) { return n.kind == NodeKind::Variable && n.type == ValueType::Numeric; }

std::string ranged_body(const Node& n) {
  if (n.kind == NodeKind::Number) return "{ " + cql(n) + " }";
  return wrap(n);
}

std::string range_text(const Node& n, bool both = false) {
  std::string s;  // a range spelled 'count' is among the options
  if (const Node* lo = n.child(Role::Low)) {
    // one bound when both are equal: a negative second bound could not be read back ("-5 -5")
    const Node* hi = n.child(Role::High);
    s += " " + cql(*lo);
    if (both || cql(*hi) != cql(*lo)) s += " " + cql(*hi);
  }
  return s;
}

std::string opts(const Node& n, std::initializer_list<Option> skip = {}) {
  std::string s;
  for (Option o : n.options) {
    bool skipped = false;
    for (Option k : skip) skipped = skipped || o == k;
    if (!skipped) s += std::string(" ") + option_name(o);
  }
  return s;
}

std::string kids_text(const Node& n, Role role, bool wrapped = true) {
  std::string s;
  for (const Child& c : n.kids)
    if (c.role == role) s += " " + (wrapped ? wrap(*c.node) : cql(*c.node));
  return s;
}

std::string binary(const Node& n, const std::string& op) {
  return wrap(*n.child(Role::Left)) + " " + op + " " + wrap(*n.child(Role::Right));
}

// `and`/`or`: a left side of the same operator is written bare, since the chain `a and b and c` reads back
// left-deep; a long chain thus prints without nesting (braces as deep as the chain could not be read back).
std::string chain(const Node& n, const std::string& op) {
  const Node& left = *n.child(Role::Left);
  return (left.kind == n.kind ? cql(left) : wrap(left)) + " " + op + " " + wrap(*n.child(Role::Right));
}

// A filter inside a line or path constituent, where '(' starts a chain: a line is written bare (it ends
// with its last constituent) and a path bare followed by an empty line (which ends it, and the path it
// sits in, exactly where the original one ended).
std::string seq_item(const Node& n) {
  if (n.kind == NodeKind::Line) return cql(n);
  if (n.kind == NodeKind::Path) return cql(n) + "\n\n";
  return wrap(n);
}

// The child a move's type comes from: Move::text names it (from, to or capture).
Role move_first_role(const Node& move) {
  return move.text == "from" ? Role::From : move.text == "to" ? Role::To : Role::Capture;
}

std::string dash_text(const Node& n, bool in_path) {
  std::string s;
  if (const Node* l = n.child(Role::Left)) s += wrap(*l);
  s += n.text;
  if (const Node* r = n.child(Role::Right)) s += wrap(*r);
  if (const Node* p = n.child(Role::Promote)) s += "=" + wrap(*p);  // `=` reads a whole filter
  // In a path a target is written after the dash, except a dash target of a bare dash: written there (braced or
  // not) it reads back as the next dash constituent, so it goes inside `--(...)` as the query had it (ninth fuzz
  // finding: `path --(check -- -4 --)?`).
  bool dash_target = false;
  for (const Child& c : n.kids) dash_target |= c.role == Role::Target && c.node->kind == NodeKind::Dash;
  const bool bare = !n.child(Role::Right) && !n.child(Role::Promote);
  if (in_path && !(bare && dash_target)) {
    for (const Child& c : n.kids)
      if (c.role == Role::Target) s += " " + seq_item(*c.node);
  } else if (n.child(Role::Target)) {
    s += "(" + kids_text(n, Role::Target) + " )";
  }
  return s + " ";
}

// `first` marks a path's first constituent: only there does an empty line not end the path (CQL 6.2's reading)
std::string seq_text(const Node& n, bool in_path, const char* arrow, bool first_constituent = false) {
  switch (n.kind) {
    case NodeKind::SeqFilter: return seq_item(*n.child(Role::Arg));
    case NodeKind::Dash: return dash_text(n, in_path);
    case NodeKind::SeqChain: {
      std::string s = "(";
      bool first = true;
      const Node* previous = nullptr;
      for (const Child& c : n.kids) {
        // in a path's first constituent, an empty line ends a dash's targets: what follows is a constituent again
        if (first_constituent && previous && previous->kind == NodeKind::Dash) s += "\n\n";
        else s += (first || in_path) ? " " : std::string(" ") + arrow + " ";
        s += seq_text(*c.node, in_path, arrow, first_constituent);
        first = false;
        previous = c.node.get();
      }
      return s + " )";
    }
    case NodeKind::SeqRepeat: {
      std::string inner = seq_text(*n.child(Role::Arg), in_path, arrow, first_constituent);
      if (n.text == "*") return inner + " {*}";
      if (n.text == "+") return inner + " {+}";
      if (n.text == "?") return inner + " ?";
      return inner + " {" + std::to_string(n.a) + "," + (n.b < 0 ? std::string() : std::to_string(n.b)) + "}";
    }
    default: return wrap(n);
  }
}

// ---------------------------------------------------------------- CQL text of each family of nodes
// Each family returns the node's text when it owns the node's kind, else nothing (each kind has one owner).

// Returns the text of a literal or a designator, or nothing when n is not one.
std::optional<std::string> literal_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::Number: return std::to_string(n.a);
    case NodeKind::StringLiteral: return cql_string(n.text);
    case NodeKind::PieceSet: {
      if (!n.pieces) return n.squares == ~uint64_t{0} ? std::string("a-h1-8") : squares_text(n.squares);
      std::string p = pieces_text(n.pieces);
      std::string s = p.size() == 1 ? p : "[" + p + "]";
      return s + squares_text(n.squares);
    }
    case NodeKind::AllSquares: return ".";
    case NodeKind::EmptySet: return "[]";
    case NodeKind::True: return "true";
    case NodeKind::False: return "false";
    case NodeKind::ColorValue: return n.text;
    default: return std::nullopt;
  }
}

// Returns the text of a filter written as its keyword alone (predicates, counters, `from`, ...), or nothing.
std::optional<std::string> keyword_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::FromSquare: case NodeKind::ToSquare: case NodeKind::EnPassantSquare: case NodeKind::PastMove: case NodeKind::Predicate:
    case NodeKind::Counter: case NodeKind::PathInfo: case NodeKind::CurrentTransform:
    case NodeKind::RemoveComment: case NodeKind::Extension: case NodeKind::HasComment:
      return n.text;
    case NodeKind::CurrentPosition: return "currentposition";
    case NodeKind::InitialPosition: return "initialposition";
    case NodeKind::Parent: return "parent";
    case NodeKind::Abort: return "cql_abort";
    default: return std::nullopt;
  }
}

// Returns the text of a compound, `and`, `or`, `not` or `if`, or nothing.
std::optional<std::string> logic_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::Compound: return "{ " + items(n, " ") + "}";
    case NodeKind::And: return chain(n, "and");
    case NodeKind::Or: return chain(n, "or");
    case NodeKind::Not: return "not " + wrap(*n.child(Role::Arg));
    case NodeKind::If: {
      std::string s = "if " + wrap(*n.child(Role::If)) + " then " + wrap(*n.child(Role::Then));
      if (const Node* e = n.child(Role::Else)) s += " else " + wrap(*e);
      return s;
    }
    default: return std::nullopt;
  }
}

// Returns the text of a set operation, an attack, a ray or a square or piece loop, or nothing.
std::optional<std::string> set_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::Union: return binary(n, "|");
    case NodeKind::Intersect: case NodeKind::PositionIntersect: return binary(n, "&");
    case NodeKind::Complement: return "~" + wrap(*n.child(Role::Arg));
    case NodeKind::Subset: case NodeKind::StringIn:
      if (n.has(Option::Implicit)) return cql(*n.child(Role::Right)) + " " + cql(*n.child(Role::Left));
      return binary(n, "in");
    case NodeKind::Attacks: return binary(n, n.text == "->" ? "->" : "attacks");
    case NodeKind::AttackedBy: return binary(n, n.text == "<-" ? "<-" : "attackedby");
    case NodeKind::AttackRay: {
      std::string s;
      for (const Child& c : n.kids) s += (s.empty() ? "" : " " + n.text + " ") + wrap(*c.node);
      return s;
    }
    case NodeKind::Between: return "between (" + kids_text(n, Role::Left) + kids_text(n, Role::Right) + " )";
    case NodeKind::Ray: return n.text + opts(n) + " (" + kids_text(n, Role::Arg) + " )";
    case NodeKind::Pin: {
      std::string s = "pin";  // in the order written: the first keyword names the value
      for (const Child& c : n.kids) s += std::string(" ") + role_name(c.role) + " " + wrap(*c.node);
      return s;
    }
    case NodeKind::LightDark: return n.text + " " + wrap(*n.child(Role::Arg));
    case NodeKind::Direction: return n.text + opts(n) + range_text(n) + " " + wrap(*n.child(Role::Arg));
    case NodeKind::MakeSquare: {
      if (n.kids.size() == 1) return "makesquare " + wrap(*n.kids[0].node);
      return "makesquare (" + kids_text(n, Role::Arg) + " )";
    }
    case NodeKind::SquareLoop: case NodeKind::PieceLoop:
      return std::string(n.kind == NodeKind::SquareLoop ? "square" : "piece") + (n.has(Option::All) ? " all " : " ") + n.text +
             " in " + wrap(*n.child(Role::Domain)) + " " + wrap(*n.child(Role::Body));
    case NodeKind::PieceAssign: return piece_declaration(n.text) + " = " + wrap(*n.child(Role::Value));
    default: return std::nullopt;
  }
}

// Returns the text of an arithmetic, a comparison or a count, or nothing.
std::optional<std::string> numeric_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::Arithmetic: return binary(n, n.text);
    case NodeKind::Negate: return "- " + wrap(*n.child(Role::Arg));
    case NodeKind::Concat: return binary(n, "+");
    case NodeKind::Relation: case NodeKind::SetEquality: case NodeKind::PositionOrder: return binary(n, n.text);
    case NodeKind::CountSquares: case NodeKind::StringLength: case NodeKind::DictionaryCount:
      return "#" + wrap(*n.child(Role::Arg));
    case NodeKind::Abs: return "abs " + wrap(*n.child(Role::Arg));
    case NodeKind::Sqrt: return "sqrt " + wrap(*n.child(Role::Arg));
    case NodeKind::MinMax: return n.text + " (" + kids_text(n, Role::Arg) + " )";
    case NodeKind::Power: case NodeKind::Coordinate: return n.text + " " + wrap(*n.child(Role::Arg));
    case NodeKind::PieceAttribute:
      return n.child(Role::Arg) ? n.text + " " + wrap(*n.child(Role::Arg)) : n.text;
    default: return std::nullopt;
  }
}

// Returns the text of a string filter, a file filter or an output filter (comment, message), or nothing.
std::optional<std::string> string_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::Substring: {
      std::string s = wrap(*n.child(Role::Arg)) + "[";
      if (const Node* f = n.child(Role::From)) s += wrap(*f);
      if (n.has(Option::Slice)) s += ":";
      if (const Node* t = n.child(Role::To)) s += wrap(*t);
      s += "]";
      if (n.has(Option::Assign)) s += " = " + wrap(*n.child(Role::Value));
      return s;
    }
    case NodeKind::RegexMatch: return wrap(*n.child(Role::Arg)) + " ~~ " + cql_string(n.text);
    case NodeKind::GroupRef: return n.has(Option::Index) ? "\\-1" : "\\" + std::to_string(n.a);
    case NodeKind::IndexOf: return "indexof (" + kids_text(n, Role::Left) + kids_text(n, Role::Right) + " )";
    case NodeKind::WriteFile: return "writefile (" + kids_text(n, Role::Left) + kids_text(n, Role::Right) + " )";
    case NodeKind::CaseConvert: case NodeKind::StringToInt: case NodeKind::ReadFile:
      return n.text + " " + wrap(*n.child(Role::Arg));
    case NodeKind::Ascii: return "ascii " + wrap(*n.child(Role::Arg));
    case NodeKind::ToString: return "str (" + kids_text(n, Role::Arg) + " )";
    case NodeKind::Comment: return "comment (" + kids_text(n, Role::Arg) + " )";
    case NodeKind::Message: return "message" + opts(n) + " (" + kids_text(n, Role::Arg) + " )";
    default: return std::nullopt;
  }
}

// Returns the text of a game-information filter (result, tags, players, fen), or nothing.
std::optional<std::string> game_info_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::Result: return "result " + n.text;
    case NodeKind::Tag: return "tag " + cql_string(n.text);
    case NodeKind::TagBuiltin: {
      static const char* map[][2] = {{"Site", "site"}, {"Event", "event"}, {"Date", "date"}, {"EventDate", "eventdate"}, {"ECO", "eco"}};
      for (auto& m : map)
        if (n.text == m[0]) return m[1];
      return n.text;
    }
    case NodeKind::SetTag: return "settag (" + cql_string(n.text) + kids_text(n, Role::Value) + " )";
    case NodeKind::Player: return n.text.empty() ? "player" : "player " + n.text;
    case NodeKind::Elo: return n.text.empty() ? "elo" : "elo " + n.text;
    case NodeKind::Fen: return n.type == ValueType::String ? "fen" : "fen " + cql_string(n.text);
    default: return std::nullopt;
  }
}

// Returns the text of a filter that moves to or compares other positions of the game tree, or nothing.
std::optional<std::string> position_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::Child: return n.child(Role::Arg) ? "child (" + kids_text(n, Role::Arg) + " )" : "child";
    case NodeKind::PositionById: return "position " + wrap(*n.child(Role::Arg));
    case NodeKind::WithPosition: return wrap(*n.child(Role::Position)) + " : " + wrap(*n.child(Role::Body));
    case NodeKind::Lca: case NodeKind::Distance: case NodeKind::Descendant:
      return n.text + " (" + kids_text(n, Role::Left) + kids_text(n, Role::Right) + " )";
    case NodeKind::GenericEqual: return "equal (" + kids_text(n, Role::Left) + kids_text(n, Role::Right) + " )";
    default: return std::nullopt;
  }
}

// Returns the text of a `move` filter: the first keyword decides the type, so a set keyword comes first only
// when the original had one first.
std::string move_text(const Node& n) {
  std::string s = "move";
  if (!n.text.empty()) s += " " + n.text + " " + wrap(*n.child(move_first_role(n)));
  else s += opts(n);
  for (const Child& c : n.kids) {
    const std::string r = role_name(c.role);
    if (r == n.text || c.role == Role::Comment) continue;
    if (c.role == Role::Promote) s += " promote " + cql(*c.node);
    else s += " " + r + " " + wrap(*c.node);
  }
  if (!n.text.empty()) s += opts(n);
  if (const Node* c = n.child(Role::Comment)) s += " " + cql(*c);
  return s;
}

// Returns the text of a move filter (`move`, a dash, `legal`/`pseudolegal`, `countmoves`), or nothing.
std::optional<std::string> moves_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::Move: return move_text(n);
    case NodeKind::Dash: return dash_text(n, false);
    case NodeKind::LegalDash: case NodeKind::PreviousDash: return n.text + " " + cql(*n.child(Role::Dash));
    case NodeKind::CountMoves: return "countmoves" + opts(n) + " " + cql(*n.child(Role::Dash));
    default: return std::nullopt;
  }
}

// Returns the text of a `line`: its range, then each constituent after its arrow.
std::string line_text(const Node& n) {
  std::string s = "line" + opts(n) + range_text(n);
  for (const Child& c : n.kids)
    if (c.role == Role::Arg) s += " " + n.text + " " + seq_text(*c.node, false, n.text.c_str());
  return s;
}

// Returns the text of a `path`: the range first, since a range number reads back before a parameter's keyword,
// not before every constituent (Token::may_follow_range; eighth fuzz finding: 'path lastposition 4 . (...)').
std::string path_text(const Node& n) {
  const std::string range = range_text(n);
  std::string s = "path" + range;
  const size_t after_range = s.size();
  s += opts(n, {Option::FocusCapture});
  if (const Node* f = n.child(Role::Focus)) s += std::string(n.has(Option::FocusCapture) ? " focus capture " : " focus ") + wrap(*f);
  if (const Node* m = n.child(Role::Max)) s += " max " + wrap(*m);
  if (!n.text.empty()) s += " title " + cql_string(n.text);
  bool first = true;
  for (const Child& c : n.kids)
    if (c.role == Role::Arg) {
      std::string text = seq_text(*c.node, true, "", first);
      // straight after the range (no parameter between) a filter that opens with a token the range may not
      // stand before is braced, as the query had it: '{.}' is the same tree as '.'
      if (first && !range.empty() && s.size() == after_range && c.node->kind == NodeKind::SeqFilter &&
          !lex(text).front().may_follow_range())
        text = "{ " + text + " }";
      s += " " + text;
      first = false;
    }
  return s;
}

// Returns the text of a `line`, a `path` or a sequence constituent standing alone, or nothing.
std::optional<std::string> sequence_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::Line: return line_text(n);
    case NodeKind::Path: return path_text(n);
    case NodeKind::SeqFilter: case NodeKind::SeqChain: case NodeKind::SeqRepeat: return seq_text(n, false, "-->");
    default: return std::nullopt;
  }
}

// Returns the text of a `sort`: its options, min or max, its description, its body.
std::string sort_text(const Node& n) {
  std::string s = "sort" + opts(n, {Option::Min, Option::Max});
  if (n.has(Option::Min)) s += " min";
  if (n.has(Option::Max)) s += " max";
  const std::string body = wrap(*n.child(Role::Body));
  // an empty description is written when the target opens with a string, which would read as the description
  // (eleventh fuzz finding: `sort "" "!"` printed as `sort "!"`)
  if (!n.text.empty() || body.front() == '"') s += " " + cql_string(n.text);
  return s + " " + body;
}

// Returns the text of a search, a loop, `echo`, `sort`, a transform or `assert`, or nothing.
std::optional<std::string> control_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::Find: return "find" + opts(n) + range_text(n, numeric_variable(*n.child(Role::Body))) + " " + ranged_body(*n.child(Role::Body));
    case NodeKind::Echo:
      return "echo" + opts(n, {Option::InAll}) + " (" + cql(*n.child(Role::Source)) + " " + cql(*n.child(Role::Target)) + ")" +
             (n.has(Option::InAll) ? " in all " : " ") + wrap(*n.child(Role::Body));
    case NodeKind::ConsecutiveMoves:
      return "consecutivemoves" + opts(n) + range_text(n) + " (" + cql(*n.child(Role::Left)) + " " + cql(*n.child(Role::Right)) + ")";
    case NodeKind::Loop: return "loop " + wrap(*n.child(Role::Body));
    case NodeKind::While: return "while (" + cql(*n.child(Role::If)) + ") " + wrap(*n.child(Role::Body));
    case NodeKind::Sort: return sort_text(n);
    case NodeKind::Transform:
      return n.text + opts(n) + range_text(n, numeric_variable(*n.child(Role::Body))) + " " + ranged_body(*n.child(Role::Body));
    case NodeKind::NoTransform: return "notransform " + wrap(*n.child(Role::Body));
    case NodeKind::Assert: return "assert " + wrap(*n.child(Role::Body));
    default: return std::nullopt;
  }
}

// Returns the text of a variable, an assignment, a dictionary filter or a function, or nothing.
std::optional<std::string> variable_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::Variable: return n.text;
    case NodeKind::Assign: {
      std::string s;
      for (Option o : n.options)
        if (o != Option::Dictionary) s += std::string(option_name(o)) + " ";
      s += cql(*n.child(Role::Target));
      if (const Node* k = n.child(Role::Key)) s += "[" + cql(*k) + "]";
      return s + " " + n.text + " " + wrap(*n.child(Role::Value));
    }
    case NodeKind::Unbind: {
      std::string s = "unbind " + cql(*n.child(Role::Target));
      if (const Node* k = n.child(Role::Key)) s += "[" + cql(*k) + "]";
      return s;
    }
    case NodeKind::IsBound: return std::string(n.has(Option::Not) ? "isunbound " : "isbound ") + cql_string(n.text);
    case NodeKind::DictionaryDecl: return std::string(n.has(Option::Local) ? "local " : "") + "dictionary " + n.text;
    case NodeKind::DictionaryGet: return cql(*n.child(Role::Dictionary)) + "[" + cql(*n.child(Role::Key)) + "]";
    case NodeKind::DictionaryIterate:
      return n.text + " [element] " + cql(*n.child(Role::Dictionary)) + " " + wrap(*n.child(Role::Body));
    case NodeKind::FunctionDef: return "\n" + n.child(Role::Source)->text + "\n";
    case NodeKind::FunctionCall: return n.text + " (" + kids_text(n, Role::Arg) + " )";
    default: return std::nullopt;
  }
}

// Returns the text of `similarposition`, `hhdb` or `cql_assertvariations`, or nothing.
std::optional<std::string> special_text(const Node& n) {
  switch (n.kind) {
    case NodeKind::SimilarPosition: return "similarposition" + opts(n) + " " + cql_string(n.text);
    case NodeKind::Hhdb: return "hhdb " + n.text;
    case NodeKind::AssertVariations: return "cql_assertvariations " + cql_string(n.text);
    default: return std::nullopt;
  }
}

// Returns the node as CQL text that parses back to the same tree: the text of the one family that owns its kind.
std::string cql(const Node& n) {
  using Family = std::optional<std::string> (*)(const Node&);
  static constexpr Family kFamilies[] = {literal_text, keyword_text,   logic_text,    set_text,
                                         numeric_text, string_text,    game_info_text, position_text,
                                         moves_text,   sequence_text,  control_text,  variable_text,
                                         special_text};
  for (Family family : kFamilies)
    if (std::optional<std::string> text = family(n)) return *std::move(text);
  return "";
}

}  // namespace

std::string print_canonical(const Node& n) {
  std::ostringstream o;
  canonical(n, o, 0);
  return o.str();
}

std::string print_canonical(const Query& q) {
  std::ostringstream o;
  const Header& h = q.header;
  o << "(Header";
  if (!h.input.empty()) o << " input=" << cql_string(h.input);
  if (!h.output.empty()) o << " output=" << cql_string(h.output);
  if (h.gamenumber) o << " gamenumber=" << h.gamenumber->min << ".." << h.gamenumber->max;
  if (h.matchcount) o << (h.sort_matchcount ? " sort-matchcount=" : " matchcount=") << h.matchcount->min << ".." << h.matchcount->max;
  if (!h.result.empty()) o << " result=" << h.result;
  if (h.variations) o << " [variations]";
  if (h.matchstring) o << " matchstring=" << cql_string(*h.matchstring);
  if (h.silent) o << " [silent]";
  if (h.quiet) o << " [quiet]";
  o << ")\n";
  for (size_t i = 0; i < q.variables.size(); ++i) {
    const Variable& v = q.variables[i];
    static const char* kinds[] = {"square", "piece", "position", "numeric", "string", "set", "dictionary"};
    o << "(Variable #" << i << " " << v.name << " " << kinds[static_cast<int>(v.kind)] << ":" << type_name(v.type)
      << (v.persistent ? " [persistent]" : "") << (v.quiet ? " [quiet]" : "") << (v.atomic ? " [atomic]" : "") << ")\n";
  }
  o << print_canonical(*q.body);
  return o.str();
}

std::string print_cql(const Node& n) { return cql(n); }

// A header file name: bare (read up to white space or ')') unless it needs the quoted form.
static std::string file_name(const std::string& f) {
  if (f.find_first_of(" \t\r\n)") == std::string::npos && f[0] != '"') return f;
  return "\"" + f + "\"";
}

std::string print_cql(const Query& q) {
  const Header& h = q.header;
  std::string s = "cql(";
  if (!h.input.empty()) s += " input " + file_name(h.input);
  if (!h.output.empty()) s += " output " + file_name(h.output);
  if (h.gamenumber) s += " gamenumber " + std::to_string(h.gamenumber->min) + " " + std::to_string(h.gamenumber->max);
  if (h.matchcount)
    s += std::string(h.sort_matchcount ? " sort matchcount " : " matchcount ") + std::to_string(h.matchcount->min) + " " +
         std::to_string(h.matchcount->max);
  if (!h.result.empty()) s += " result " + h.result;
  if (h.variations) s += " variations";
  if (h.matchstring) s += " matchstring " + cql_string(*h.matchstring);
  if (h.silent) s += " silent";
  if (h.quiet) s += " quiet";
  s += " )\n";
  return s + items(*q.body, "\n");
}

}  // namespace cqlindex::cql
