// Compiling what a position or its game says of itself (eval_game_info.cpp): tags, result, players, ratings,
// the FEN, the counters (ply, gamenumber, lastgamenumber, ...), coordinates, regular expressions; and the
// predicates (check, mate, wtm, ...; the pure, model and ideal mates of eval_mates.cpp).
#include <fstream>
#include <map>
#include <string_view>

#include "engine/cql/error.h"
#include "engine/cql/eval/compiler.h"
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {
namespace {

// lastgamenumber as CQL 6.2 estimates it (lastgamenumbernode.cpp): the occurrences of "[White " in the input
// (a repository's files counted one after the other, as their concatenation), at most the top of the
// gamenumber range. Read in blocks: memory independent of the file's size.
int64_t estimated_last_game_number(const EvalOptions& o, const Node& at) {
  static constexpr std::string_view kPattern = "[White ";
  std::vector<std::string> paths{o.input_path};
  paths.insert(paths.end(), o.more_input_paths.begin(), o.more_input_paths.end());
  int64_t count = 0;
  std::string block(1 << 20, '\0'), carry;
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw CqlError("lastgamenumber: cannot read the input '" + path + "'", at.line, at.column);
    while (in) {
      in.read(block.data(), std::streamsize(block.size()));
      const std::string text = carry + block.substr(0, size_t(in.gcount()));
      for (size_t p = text.find(kPattern); p != std::string::npos; p = text.find(kPattern, p + kPattern.size())) ++count;
      // a pattern cut by the block's end (or the file's) is found with the next block (the carry is shorter than
      // the pattern)
      carry = text.substr(text.size() - std::min(text.size(), kPattern.size() - 1));
    }
  }
  if (count == 0)
    throw CqlError("No valid games found by searching for the pattern '[White ' in the file: " + o.input_path, at.line,
                   at.column);
  return o.gamenumber ? std::min(count, o.gamenumber->max) : count;
}

// Returns the op of a counter (ply, movenumber, gamenumber, lastgamenumber, ...).
OpPtr compile_counter(Compiler& c, const Node& n) {
  if (n.text == "lastgamenumber") {
    auto o = c.op(OpCode::LastGameNumber, n);
    o->a = estimated_last_game_number(c.prog.options, n);
    return o;
  }
  static const std::map<std::string, OpCode> counters = {
      {"ply", OpCode::Ply}, {"movenumber", OpCode::MoveNumber}, {"positionid", OpCode::PositionId},
      {"gamenumber", OpCode::GameNumber}, {"sidetomove", OpCode::SideToMove}, {"year", OpCode::Year},
      {"depth", OpCode::Depth}, {"pathcount", OpCode::PathCount}, {"pathcountunfocused", OpCode::PathCountUnfocused}};
  auto it = counters.find(n.text);
  if (it == counters.end()) unsupported(n, n.text);
  return c.op(it->second, n);
}

// The NAG an implicit search of originalcomment names (`originalcomment "!"`: 1), or 0.
int nag_of_search(const Node& n) {
  if (!n.has(Option::Implicit) || n.kids.size() != 2 || n.kids[1].node->kind != NodeKind::HasComment ||
      n.kids[1].node->text != "originalcomment")
    return 0;
  const std::string& s = n.kids[0].node->text;
  static const char* glyphs[] = {"!", "?", "!!", "??", "!?", "?!"};
  for (int i = 0; i < 6; ++i)
    if (s == glyphs[i]) return i + 1;
  if (s.size() >= 2 && s.size() <= 4 && s[0] == '$' && s.find_first_not_of("0123456789", 1) == std::string::npos) {
    const int v = std::stoi(s.substr(1));
    return v >= 1 && v <= 255 ? v : 0;
  }
  return 0;
}

}  // namespace

OpPtr Compiler::compile_game_info(const Node& n) {
  switch (n.kind) {
    case NodeKind::Result: return op(OpCode::Result, n);
    case NodeKind::TagBuiltin:
    case NodeKind::Tag: return op(OpCode::TagValue, n);
    case NodeKind::Player: return op(OpCode::Player, n);
    case NodeKind::Elo: return op(OpCode::Elo, n);
    case NodeKind::Fen: return op(OpCode::Fen, n);  // lang: without a board, the position's FEN (a string)
    case NodeKind::StringIn: {
      // `originalcomment "!"`: CQL 6.2 reads a NAG's glyph (or "$N") as a test of that NAG, not of the text
      if (const int nag = nag_of_search(n)) {
        auto o = op(OpCode::OriginalNag, n);
        o->a = nag;
        return o;
      }
      auto o = op(OpCode::StringIn, n);
      all_kids(n, *o);
      return o;
    }
    case NodeKind::Counter: return compile_counter(*this, n);
    case NodeKind::Coordinate: {
      auto o = op(OpCode::Coordinate, n);
      o->flag = n.text == "file";
      all_kids(n, *o);
      return o;
    }
    case NodeKind::RegexMatch: {
      auto o = op(OpCode::RegexMatch, n);
      try {
        o->regex = std::make_shared<const text::Regex>(n.text);
      } catch (const text::RegexError& e) {
        throw CqlError("invalid regular expression \"" + n.text + "\": " + e.what(), n.line, n.column);
      }
      all_kids(n, *o);
      return o;
    }
    // hascomment (CQL 6.2's older name, one HasCommentNode): the comment of the input at the position
    case NodeKind::HasComment: return op(OpCode::OriginalComment, n);
    default: return nullptr;
  }
}

OpPtr Compiler::compile_predicates(const Node& n) {
  if (n.kind != NodeKind::Predicate) return nullptr;
  static const std::map<std::string, OpCode> preds = {
      {"check", OpCode::Check}, {"mate", OpCode::Mate}, {"stalemate", OpCode::Stalemate}, {"wtm", OpCode::Wtm},
      {"btm", OpCode::Btm}, {"initial", OpCode::Initial}, {"terminal", OpCode::Terminal},
      {"mainline", OpCode::MainlineP}, {"variation", OpCode::VariationP}};
  if (n.text == "try") return op(OpCode::Try, n);  // echo
  if (n.text == "pathdebug") return op(OpCode::PathDebug, n);  // pathdebug (eval_path.cpp)
  if (n.text == "cql_hhdbhascook") return op(OpCode::HhdbCooked, n);  // hhdb
  // mates: puremate modelmate idealmate and the stalemates (eval_mates.cpp)
  if (n.text.find("mate") != std::string::npos && n.text != "mate" && n.text != "stalemate") {
    auto o = op(OpCode::MatePurity, n);
    o->type = ValueType::Set;
    o->flag = n.text.find("stalemate") != std::string::npos;
    o->sub = n.text.rfind("model", 0) == 0 ? kMateModel : n.text.rfind("ideal", 0) == 0 ? kMateIdeal : kMatePure;
    return o;
  }
  auto it = preds.find(n.text);
  if (it == preds.end()) unsupported(n, n.text);
  return op(it->second, n);
}

}  // namespace cqlindex::cql::eval
