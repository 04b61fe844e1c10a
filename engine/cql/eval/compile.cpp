// Compiling the bound tree into Ops: transforms expanded, names resolved to enums, children put in the
// fixed order each op family reads them in.
#include <fstream>
#include <string_view>
#include <map>
#include <unordered_set>

#include "engine/cql/error.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/eval/directions.h"
#include "engine/cql/eval/evaluator.h"
#include "engine/cql/eval/square_pattern.h"
#include "engine/cql/eval/transform.h"
#include "engine/cql/similar/submission_files.h"

namespace cqlindex::cql::eval {
namespace {

[[noreturn]] void unsupported(const Node& n, const std::string& what) {
  throw CqlError("'" + what + "' is not supported by the evaluator yet", n.line, n.column);
}

// The literals matched as position filters, where CQL 6.2 stops the run when it evaluates them (its
// match_position of a number, a string literal, `fen`, `sqrt`, `lastgamenumber`): the filters whose truth alone is used (the top
// level, all but the last filter of {...}, the arguments of and/or/not, conditions, loop and line bodies, ...).
// `position` says whether n itself is in such a place.
void mark_position_uses(const Node& n, bool position, std::unordered_set<const Node*>& out) {
  if (position && (n.kind == NodeKind::Number || n.kind == NodeKind::StringLiteral || n.kind == NodeKind::Sqrt ||
                   (n.kind == NodeKind::Fen && n.type == ValueType::String) ||
                   (n.kind == NodeKind::Counter && n.text == "lastgamenumber")))
    out.insert(&n);
  auto each = [&](bool pos, std::optional<Role> role = std::nullopt) {
    for (const Child& k : n.kids)
      if (k.node && (!role || k.role == *role)) mark_position_uses(*k.node, pos, out);
  };
  auto role_is = [](const Child& k, Role role) { return k.role == role; };
  switch (n.kind) {
    case NodeKind::Compound:
      for (size_t i = 0; i < n.kids.size(); ++i)
        mark_position_uses(*n.kids[i].node, position || i + 1 < n.kids.size(), out);
      return;
    case NodeKind::And: case NodeKind::Or: case NodeKind::Not: case NodeKind::Loop: case NodeKind::While:
    case NodeKind::Assert: case NodeKind::SeqFilter: case NodeKind::SeqChain: case NodeKind::SeqRepeat:
    case NodeKind::DictionaryIterate:
      each(true);
      return;
    case NodeKind::If:
      for (const Child& k : n.kids) mark_position_uses(*k.node, role_is(k, Role::If) || position, out);
      return;
    case NodeKind::SquareLoop: case NodeKind::PieceLoop: case NodeKind::Find:
      for (const Child& k : n.kids) mark_position_uses(*k.node, role_is(k, Role::Body), out);
      return;
    case NodeKind::Echo:
      for (const Child& k : n.kids) mark_position_uses(*k.node, role_is(k, Role::Body) && k.node->type != ValueType::Numeric, out);
      return;
    case NodeKind::Line: case NodeKind::Path:
      each(true, Role::Arg);
      return;
    case NodeKind::Dash:
      for (const Child& k : n.kids) mark_position_uses(*k.node, role_is(k, Role::Target), out);
      return;
    case NodeKind::Transform: {  // expanded: its images; a counted transform only asks whether each matches
      const bool counted = n.has(Option::Count) || n.child(Role::Low);
      for (const Child& k : n.kids) mark_position_uses(*k.node, role_is(k, Role::Image) && (position || counted), out);
      return;
    }
    case NodeKind::NoTransform: case NodeKind::FunctionCall:
      each(position, Role::Body);
      return;
    case NodeKind::WithPosition:
      for (const Child& k : n.kids) mark_position_uses(*k.node, role_is(k, Role::Body) && position, out);
      return;
    default:
      each(false);
  }
}

// CQL 6.2's message for a literal matched as a position filter.
std::string position_use_message(const Node& n) {
  switch (n.kind) {
    case NodeKind::Number:
      return "An attempt to match a position against the number: " + std::to_string(n.a) +
             " was made. Although this is not technically an error, it is likely a result of an unexpected parse.";
    case NodeKind::StringLiteral:
      return "Attempt to match the position to a string literal, which is unnecessary because string literals always "
             "match so is probably inadvertent. The string literal is: " + n.text;
    case NodeKind::Sqrt:
      return "Attempt to match an sqrt value node (which may have arisen from a 'type' filter). Although technically "
             "legal, this is likely unintended";
    case NodeKind::Fen:
      return "attempt to determine if 'currentfen' matches the current position, which it always does. Perhaps you "
             "intended to use its string value";
    default:
      return "'lastgamenumber' invoked in a context where it is used for whether it matches, but this filter always "
             "matches. Do not ignore its numeric value";
  }
}

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

struct Compiler {
  Program& prog;
  std::unordered_set<const Node*> position_uses;  // mark_position_uses

  // Returns the sort slot of a sort described by `description` at `n` ("": a slot of its own); sorts sharing a
  // description are one, as CQL conjoins them.
  int sort_slot(const Node& n, const std::string& description, bool min, bool quiet, bool text) {
    std::string desc = description.empty() ? "<sort-id-" + std::to_string(prog.sorts.size() + 1) + ">" : description;
    size_t slot = prog.sorts.size();
    for (size_t i = 0; i < prog.sorts.size(); ++i)
      if (!description.empty() && prog.sorts[i].description == desc) slot = i;
    if (slot == prog.sorts.size()) prog.sorts.push_back({desc, min, quiet, text});
    else if (prog.sorts[slot].min != min || prog.sorts[slot].text != text)  // conjoined: one order, one type
      throw CqlError("sort \"" + desc + "\": sorts sharing a description must have the same order (min or max) "
                     "and type (string or numeric)", n.line, n.column);
    return int(slot);
  }

  OpPtr op(OpCode code, const Node& n) {
    auto o = std::make_unique<Op>();
    o->code = code;
    o->type = n.type;
    o->text = n.text;
    o->a = n.a;
    o->b = n.b;
    o->squares = n.squares;
    o->pieces = n.pieces;
    o->var = n.var;
    o->line = n.line;
    o->column = n.column;
    return o;
  }
  OpPtr child(const Node& n, Role role) {
    const Node* c = n.child(role);
    return c ? compile(*c) : nullptr;
  }
  void all_kids(const Node& n, Op& o, std::optional<Role> role = std::nullopt) {
    for (const Child& k : n.kids)
      if (!role || k.role == *role) o.kids.push_back(compile(*k.node));
  }
  // Range children min/max into a, b (b = -1 unbounded); false when absent.
  bool range(const Node& n, Op& o) {
    const Node* lo = n.child(Role::Low);
    const Node* hi = n.child(Role::High);
    if (n.has(Option::Count)) {
      o.a = 0;
      o.b = -1;
      return true;
    }
    if (!lo) return false;
    // a bound that is not a number (a numeric variable) is read each time the filter is (range_holds)
    o.a = lo->kind == NodeKind::Number ? lo->a : 0;
    if (lo->kind != NodeKind::Number) o.range_low = compile(*lo);
    const Node* top = hi ? hi : lo;
    o.b = top->kind == NodeKind::Number ? top->a : 0;
    if (top->kind != NodeKind::Number) o.range_high = compile(*top);
    return true;
  }

  // speed: the echo flag (kEchoDescendants, kEchoLater, or 0) that says which targets can match, when `body`
  // starts with `s ≺ t`, `s ≼ t` (ancestry: t in the source's subtree), `s < t` or `s <= t` (position ids: t
  // later in the pre-order) for the echo's variables s and t
  static uint8_t target_range(const Op& body, int s, int t) {
    const Op* first = body.code == OpCode::Compound ? body.kid(0) : &body;
    if (!first || (first->sub != kLt && first->sub != kLe)) return 0;
    const Op *a = first->kid(0), *b = first->kid(1);
    if (!a || !b || a->code != OpCode::Variable || a->var != s || b->code != OpCode::Variable || b->var != t) return 0;
    if (first->code == OpCode::PositionOrder) return kEchoDescendants;
    if (first->code == OpCode::Relation && a->type == ValueType::Position) return kEchoLater;
    return 0;
  }

  // path: kids = focus (or nullptr), max (or nullptr), constituents...; options in Op::pieces (PathFlag),
  // title in text, range in a..b when flag.
  OpPtr compile_path(const Node& n) {
    auto o = op(OpCode::Path, n);
    static const std::map<Option, uint16_t> bits = {
        {Option::Primary, kPathPrimary}, {Option::FirstMatch, kPathFirstMatch},
        {Option::KeepAllBest, kPathKeepAllBest}, {Option::NestBan, kPathNestBan}, {Option::PiecePath, kPathPiecePath},
        {Option::Verbose, kPathVerbose}, {Option::Quiet, kPathQuiet}, {Option::FocusCapture, kPathFocusCapture},
        {Option::SingleColor, kPathSingleColor}};
    o->pieces = 0;
    for (Option opt : n.options) {
      auto it = bits.find(opt);
      if (it != bits.end()) o->pieces |= it->second;
    }
    o->flag = range(n, *o);
    o->kids.push_back(child(n, Role::Focus));
    o->kids.push_back(child(n, Role::Max));
    all_kids(n, *o, Role::Arg);
    return o;
  }

  OpPtr compile(const Node& n) {
    if (position_uses.count(&n)) {
      auto o = op(OpCode::RuntimeError, n);
      o->type = ValueType::Logical;
      o->text = position_use_message(n);
      prog.may_fail = true;
      return o;
    }
    switch (n.kind) {
      case NodeKind::Number: return op(OpCode::Number, n);
      case NodeKind::StringLiteral: return op(OpCode::String, n);
      case NodeKind::PieceSet: {
        if (n.pieces == 0) return op(OpCode::Squares, n);
        return op(OpCode::PieceSet, n);
      }
      case NodeKind::AllSquares: {
        auto o = op(OpCode::Squares, n);
        o->squares = ~uint64_t{0};
        return o;
      }
      case NodeKind::EmptySet: {
        auto o = op(OpCode::Squares, n);
        o->squares = 0;
        return o;
      }
      case NodeKind::True: return op(OpCode::True, n);
      case NodeKind::False: return op(OpCode::False, n);
      case NodeKind::ColorValue: {
        auto o = op(OpCode::Number, n);
        o->a = n.text == "white" ? 1 : -1;
        return o;
      }
      case NodeKind::Compound: { auto o = op(OpCode::Compound, n); all_kids(n, *o); return o; }
      case NodeKind::And: { auto o = op(OpCode::And, n); all_kids(n, *o); return o; }
      case NodeKind::Or: { auto o = op(OpCode::Or, n); all_kids(n, *o); return o; }
      case NodeKind::Not: { auto o = op(OpCode::Not, n); all_kids(n, *o); return o; }
      case NodeKind::If: {
        auto o = op(OpCode::If, n);
        o->kids.push_back(child(n, Role::If));
        o->kids.push_back(child(n, Role::Then));
        o->kids.push_back(child(n, Role::Else));
        return o;
      }
      case NodeKind::Union: { auto o = op(OpCode::Union, n); all_kids(n, *o); return o; }
      case NodeKind::Intersect: { auto o = op(OpCode::Intersect, n); all_kids(n, *o); return o; }
      case NodeKind::Complement: { auto o = op(OpCode::Complement, n); all_kids(n, *o); return o; }
      case NodeKind::Subset: { auto o = op(OpCode::Subset, n); all_kids(n, *o); return o; }
      case NodeKind::StringIn: { auto o = op(OpCode::StringIn, n); all_kids(n, *o); return o; }
      case NodeKind::Attacks: { auto o = op(OpCode::Attacks, n); all_kids(n, *o); return o; }
      case NodeKind::AttackedBy: { auto o = op(OpCode::AttackedBy, n); all_kids(n, *o); return o; }
      case NodeKind::Between: { auto o = op(OpCode::Between, n); all_kids(n, *o); return o; }
      case NodeKind::AttackRay: {
        auto o = op(OpCode::Ray, n);
        o->flag = true;  // attack
        o->sub = kAllDirections;  // along any direction (path: turton, likeinterference)
        all_kids(n, *o);
        return o;
      }
      case NodeKind::Ray: {
        auto o = op(OpCode::Ray, n);
        o->flag = n.has(Option::Attack) || n.text == "xray";
        uint8_t mask = 0;
        for (Option d : n.options) mask |= direction_mask(option_name(d));
        o->sub = mask ? mask : kAllDirections;
        all_kids(n, *o);
        return o;
      }
      case NodeKind::Pin: {
        auto o = op(OpCode::Pin, n);
        o->kids.push_back(child(n, Role::From));
        o->kids.push_back(child(n, Role::Through));
        o->kids.push_back(child(n, Role::To));
        o->sub = n.text == "from" ? kPinFrom : n.text == "to" ? kPinTo : kPinThrough;
        return o;
      }
      case NodeKind::LightDark: {
        auto o = op(OpCode::LightDark, n);
        o->flag = n.text == "light";
        all_kids(n, *o);
        return o;
      }
      case NodeKind::Direction: {
        auto o = op(OpCode::Direction, n);
        o->sub = direction_mask(n.text);
        const Node* lo = n.child(Role::Low);
        if (lo && lo->kind != NodeKind::Number && !n.has(Option::Count)) {
          // distances computed at run time (echo: chameleon.cql `up DeltaRank`): kids 1, 2
          o->kids.push_back(child(n, Role::Arg));
          o->kids.push_back(child(n, Role::Low));
          o->kids.push_back(child(n, Role::High));
          return o;
        }
        if (!range(n, *o)) {
          o->a = 1;
          o->b = 7;
        }
        o->kids.push_back(child(n, Role::Arg));
        return o;
      }
      case NodeKind::FromSquare: return op(n.text == "to" ? OpCode::ToSquare : OpCode::FromSquare, n);
      case NodeKind::EnPassantSquare: return op(OpCode::EnPassantSquare, n);
      case NodeKind::ToSquare: return op(OpCode::ToSquare, n);
      case NodeKind::SquareLoop:
      case NodeKind::PieceLoop: {
        auto o = op(n.kind == NodeKind::SquareLoop ? OpCode::SquareLoop : OpCode::PieceLoop, n);
        if (n.kind == NodeKind::PieceLoop) prog.uses_piece_ids = true;
        o->flag = n.has(Option::All);
        o->kids.push_back(child(n, Role::Domain));
        o->kids.push_back(child(n, Role::Body));
        return o;
      }
      case NodeKind::PieceAssign: {
        prog.uses_piece_ids = true;
        auto o = op(OpCode::PieceAssign, n);
        o->kids.push_back(child(n, Role::Value));
        return o;
      }
      case NodeKind::Arithmetic: {
        auto o = op(OpCode::Arithmetic, n);
        const std::string& t = n.text;
        o->sub = t == "+" ? kAdd : t == "-" ? kSub : t == "*" ? kMul : t == "/" ? kDiv : kMod;
        all_kids(n, *o);
        return o;
      }
      case NodeKind::Negate: { auto o = op(OpCode::Negate, n); all_kids(n, *o); return o; }
      case NodeKind::Relation:
      case NodeKind::SetEquality: {
        auto o = op(n.kind == NodeKind::Relation ? OpCode::Relation : OpCode::SetEquality, n);
        const std::string& t = n.text;
        o->sub = t == "<" ? kLt : t == "<=" ? kLe : t == ">" ? kGt : t == ">=" ? kGe : t == "==" ? kEq : kNe;
        all_kids(n, *o);
        return o;
      }
      case NodeKind::CountSquares: { auto o = op(OpCode::CountSquares, n); all_kids(n, *o); return o; }
      case NodeKind::StringLength: { auto o = op(OpCode::StringLength, n); all_kids(n, *o); return o; }
      case NodeKind::Abs: {
        auto o = op(OpCode::Abs, n); all_kids(n, *o); return o;
      }
      case NodeKind::Sqrt: { auto o = op(OpCode::Sqrt, n); all_kids(n, *o); return o; }  // lang
      case NodeKind::MinMax: {
        auto o = op(OpCode::MinMax, n);
        o->flag = n.text == "min";
        all_kids(n, *o);
        return o;
      }
      case NodeKind::Power: { auto o = op(OpCode::Power, n); all_kids(n, *o); return o; }
      case NodeKind::Concat: { auto o = op(OpCode::Concat, n); all_kids(n, *o); return o; }
      case NodeKind::PieceAttribute: {
        static const std::map<std::string, PawnKind> pawns = {
            {"connectedpawns", kConnected}, {"isolatedpawns", kIsolated}, {"doubledpawns", kDoubled}, {"passedpawns", kPassed}};
        auto it = pawns.find(n.text);
        if (n.text == "type" || n.text == "colortype") {
          auto o = op(OpCode::PieceType, n);
          o->flag = n.text == "colortype";
          all_kids(n, *o);
          return o;
        }
        if (n.text == "piecename" || n.text == "typename" || n.text == "pieceid") {  // eval_echo.cpp
          if (n.text == "pieceid") prog.uses_piece_ids = true;
          auto o = op(n.text == "pieceid" ? OpCode::PieceId : OpCode::PieceName, n);
          o->flag = n.text == "typename";
          all_kids(n, *o);
          return o;
        }
        if (it == pawns.end()) unsupported(n, n.text);
        auto o = op(OpCode::PawnStructure, n);
        o->sub = it->second;
        return o;
      }
      case NodeKind::Predicate: {
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
      case NodeKind::Counter: {
        if (n.text == "lastgamenumber") {
          auto o = op(OpCode::LastGameNumber, n);
          o->a = estimated_last_game_number(prog.options, n);
          return o;
        }
        static const std::map<std::string, OpCode> counters = {
            {"ply", OpCode::Ply}, {"movenumber", OpCode::MoveNumber}, {"positionid", OpCode::PositionId},
            {"gamenumber", OpCode::GameNumber}, {"sidetomove", OpCode::SideToMove}, {"year", OpCode::Year},
            {"depth", OpCode::Depth}, {"pathcount", OpCode::PathCount}, {"pathcountunfocused", OpCode::PathCountUnfocused}};
        auto it = counters.find(n.text);
        if (it == counters.end()) unsupported(n, n.text);
        return op(it->second, n);
      }
      case NodeKind::Coordinate: {
        auto o = op(OpCode::Coordinate, n);
        o->flag = n.text == "file";
        all_kids(n, *o);
        return o;
      }
      case NodeKind::RegexMatch: {
        auto o = op(OpCode::RegexMatch, n);
        try {
          o->regex = std::make_shared<const std::regex>(n.text);
        } catch (const std::regex_error& e) {
          throw CqlError("invalid regular expression \"" + n.text + "\": " + e.what(), n.line, n.column);
        }
        all_kids(n, *o);
        return o;
      }
      // hascomment (CQL 6.2's older name, one HasCommentNode): the comment of the input at the position
      case NodeKind::HasComment: return op(OpCode::OriginalComment, n);
      case NodeKind::CurrentTransform: {
        auto o = op(OpCode::CurrentTransform, n);
        o->text = "<" + (n.applied_transforms.empty() ? std::string("identity") : n.applied_transforms) + ">";
        return o;
      }
      // ancestor(x y): x is a strict ancestor of y, x ≺ y; descendant(x y): x ≻ y (the manual, ancestor.html)
      case NodeKind::Descendant: {
        auto o = op(OpCode::PositionOrder, n);
        o->sub = n.text == "ancestor" ? kLt : kGt;
        all_kids(n, *o);
        return o;
      }
      case NodeKind::Find: {
        auto o = op(OpCode::Find, n);
        o->sub = (n.has(Option::Backward) ? kFindBackward : 0) | (n.has(Option::Quiet) ? kFindQuiet : 0) |
                 (n.has(Option::All) ? kFindAll : 0);
        o->flag = range(n, *o);
        o->kids.push_back(child(n, Role::Body));
        return o;
      }
      case NodeKind::Sort: {
        // spec/cql-sort.txt: a number, a set (its count) or a string (the parser refuses a position, as CQL 6.2)
        auto o = op(OpCode::Sort, n);
        const bool min = n.has(Option::Min);
        o->var = sort_slot(n, n.text, min, n.has(Option::Quiet), n.type == ValueType::String);
        o->flag = min;
        o->kids.push_back(child(n, Role::Body));
        return o;
      }
      case NodeKind::Result: return op(OpCode::Result, n);
      case NodeKind::TagBuiltin:
      case NodeKind::Tag: return op(OpCode::TagValue, n);
      case NodeKind::Player: return op(OpCode::Player, n);
      case NodeKind::Elo: return op(OpCode::Elo, n);
      case NodeKind::Fen: return op(OpCode::Fen, n);  // lang: without a board, the position's FEN (a string)
      case NodeKind::PastMove: {
        static const std::map<std::string, PastMoveKind> kinds = {
            {"castle", kCastle}, {"o-o", kOO}, {"o-o-o", kOOO}, {"enpassant", kEnPassant},
            {"nullmove", kNullMove}, {"primary", kPrimary}, {"secondary", kSecondary}};
        auto o = op(OpCode::PastMove, n);
        o->sub = kinds.at(n.text);
        return o;
      }
      case NodeKind::CurrentPosition: return op(OpCode::CurrentPosition, n);
      case NodeKind::InitialPosition: return op(OpCode::InitialPosition, n);
      case NodeKind::Parent: return op(OpCode::Parent, n);
      case NodeKind::WithPosition: {
        auto o = op(OpCode::WithPosition, n);
        o->kids.push_back(child(n, Role::Position));
        o->kids.push_back(child(n, Role::Body));
        return o;
      }
      case NodeKind::Move: {
        auto o = op(OpCode::Move, n);
        o->sub = n.has(Option::Previous) ? kPrevious : n.has(Option::Legal) ? kLegal : n.has(Option::PseudoLegal) ? kPseudoLegal : kPlayed;
        // move comment: written at the position each matching move leads to (turton-old.pgn; previous: here)
        o->kids.push_back(child(n, Role::From));
        o->kids.push_back(child(n, Role::To));
        o->kids.push_back(child(n, Role::Capture));
        o->kids.push_back(child(n, Role::Promote));
        o->kids.push_back(child(n, Role::Comment));  // echo: move comment
        o->kids.push_back(child(n, Role::EnPassantSquare));
        // options: castle o-o o-o-o enpassant null primary secondary count
        static const std::map<Option, int64_t> bits = {
            {Option::Castle, kMoveCastle}, {Option::OO, kMoveOO}, {Option::OOO, kMoveOOO},
            {Option::EnPassant, kMoveEnPassant}, {Option::Null, kMoveNull}, {Option::Primary, kMovePrimary},
            {Option::Secondary, kMoveSecondary}, {Option::Count, kMoveCount}};
        o->b = 0;
        for (Option opt : n.options) {
          auto it = bits.find(opt);
          if (it != bits.end()) o->b |= it->second;
        }
        return o;
      }
      case NodeKind::Dash: {
        auto o = op(OpCode::Dash, n);
        o->flag = is_capture_dash(n);
        o->kids.push_back(child(n, Role::Left));
        o->kids.push_back(child(n, Role::Right));
        o->kids.push_back(child(n, Role::Promote));
        all_kids(n, *o, Role::Target);
        return o;
      }
      case NodeKind::LegalDash: {
        auto o = op(OpCode::LegalDash, n);
        o->sub = n.text == "pseudolegal" ? kPseudoLegal : kLegal;
        o->kids.push_back(child(n, Role::Dash));
        // its dash has no promotion and at most one target, castle o-o o-o-o or enpassant (check_legal_dash)
        return o;
      }
      case NodeKind::CountMoves: {
        auto o = op(OpCode::CountMoves, n);
        o->sub = n.has(Option::Legal) ? kLegal : n.has(Option::PseudoLegal) ? kPseudoLegal : kPlayed;
        o->kids.push_back(child(n, Role::Dash));
        return o;
      }
      case NodeKind::Line: {
        auto o = op(OpCode::Line, n);
        o->flag = n.has(Option::Quiet);
        o->sub = (n.text == "<--" ? kLineBackward : 0) | (n.has(Option::Primary) ? kLinePrimary : 0) |
                 (n.has(Option::FirstMatch) ? kLineFirstMatch : 0) | (n.has(Option::SingleColor) ? kLineSingleColor : 0) |
                 (n.has(Option::LastPosition) ? kLineLastPosition : 0) | (n.has(Option::Secondary) ? kLineSecondary : 0) |
                 (n.has(Option::NestBan) ? kLineNestBan : 0);
        if (!range(n, *o)) {
          o->a = -1;
          o->b = -1;
        }
        all_kids(n, *o, Role::Arg);
        return o;
      }
      // path
      case NodeKind::Path: return compile_path(n);
      case NodeKind::PathInfo: return op(OpCode::PathInfo, n);  // text: pathstart / pathlastposition
      case NodeKind::SeqFilter: { auto o = op(OpCode::SeqFilter, n); all_kids(n, *o); return o; }
      case NodeKind::SeqChain: { auto o = op(OpCode::SeqChain, n); all_kids(n, *o); return o; }
      case NodeKind::SeqRepeat: { auto o = op(OpCode::SeqRepeat, n); all_kids(n, *o); return o; }
      case NodeKind::Variable: return op(OpCode::Variable, n);
      case NodeKind::Assign: {
        if (n.has(Option::Dictionary)) {  // lang
          auto o = op(OpCode::DictAssign, n);
          o->kids.push_back(child(n, Role::Key));
          o->kids.push_back(child(n, Role::Value));
          return o;
        }
        if (n.text != "=") {  // lang: op-assignment and =?
          auto o = op(OpCode::OpAssign, n);
          o->kids.push_back(child(n, Role::Value));
          return o;
        }
        auto o = op(OpCode::Assign, n);
        o->kids.push_back(child(n, Role::Value));
        return o;
      }
      // lang: user functions, loops, dictionaries, strings
      case NodeKind::FunctionDef: case NodeKind::DictionaryDecl: return op(OpCode::True, n);
      case NodeKind::FunctionCall: { auto o = op(OpCode::FunctionCall, n); o->kids.push_back(child(n, Role::Body)); return o; }
      case NodeKind::Loop: { auto o = op(OpCode::Loop, n); o->kids.push_back(child(n, Role::Body)); return o; }
      case NodeKind::Assert: { auto o = op(OpCode::Assert, n); o->kids.push_back(child(n, Role::Body)); return o; }
      case NodeKind::While: {
        auto o = op(OpCode::While, n);
        o->kids.push_back(child(n, Role::If));
        o->kids.push_back(child(n, Role::Body));
        return o;
      }
      case NodeKind::Unbind: {
        auto o = op(n.child(Role::Key) ? OpCode::DictUnbind : OpCode::Unbind, n);
        o->kids.push_back(child(n, Role::Key));
        return o;
      }
      case NodeKind::IsBound: {
        auto o = op(OpCode::IsBound, n);
        o->flag = n.has(Option::Not);
        for (size_t i = 0; i < prog.variables.size(); ++i)
          if (prog.variables[i].name == n.text) o->var = int(i);
        return o;
      }
      case NodeKind::DictionaryGet: { auto o = op(OpCode::DictGet, n); o->kids.push_back(child(n, Role::Key)); return o; }
      case NodeKind::DictionaryIterate: {
        auto o = op(OpCode::DictIterate, n);
        o->b = n.child(Role::Dictionary)->var;
        o->kids.push_back(child(n, Role::Body));
        return o;
      }
      case NodeKind::DictionaryCount: {
        auto o = op(OpCode::DictCount, n);
        o->var = n.child(Role::Arg)->var;
        return o;
      }
      case NodeKind::GroupRef: { auto o = op(OpCode::GroupRef, n); o->flag = n.has(Option::Index); return o; }
      case NodeKind::Substring: {
        auto o = op(n.has(Option::Assign) ? OpCode::SubstringAssign : OpCode::Substring, n);
        o->flag = n.has(Option::Slice);
        o->kids.push_back(child(n, Role::Arg));
        o->kids.push_back(child(n, Role::From));
        o->kids.push_back(child(n, Role::To));
        o->kids.push_back(child(n, Role::Value));
        return o;
      }
      case NodeKind::IndexOf: case NodeKind::WriteFile: {
        auto o = op(n.kind == NodeKind::IndexOf ? OpCode::IndexOf : OpCode::WriteFile, n);
        o->kids.push_back(child(n, Role::Left));
        o->kids.push_back(child(n, Role::Right));
        return o;
      }
      case NodeKind::CaseConvert: {
        auto o = op(OpCode::CaseConvert, n);
        o->flag = n.text == "uppercase";
        all_kids(n, *o);
        return o;
      }
      case NodeKind::StringToInt: { auto o = op(OpCode::StringToInt, n); all_kids(n, *o); return o; }
      case NodeKind::Ascii: { auto o = op(OpCode::Ascii, n); all_kids(n, *o); return o; }
      case NodeKind::ReadFile: { auto o = op(OpCode::ReadFile, n); all_kids(n, *o); return o; }
      case NodeKind::ToString: { auto o = op(OpCode::ToString, n); all_kids(n, *o); return o; }
      case NodeKind::SetTag: { auto o = op(OpCode::SetTag, n); o->kids.push_back(child(n, Role::Value)); return o; }
      // removecomment (-noremovecomment: matches and does nothing)
      case NodeKind::RemoveComment: return op(prog.options.noremovecomment ? OpCode::True : OpCode::RemoveComment, n);
      case NodeKind::Message: { auto o = op(OpCode::Message, n); o->flag = n.has(Option::Quiet); all_kids(n, *o); return o; }
      case NodeKind::Transform: {
        auto o = op(OpCode::Orbit, n);
        o->flag = range(n, *o);
        all_kids(n, *o, Role::Image);
        o->pattern = SquarePattern::of(*o);  // speed
        return o;
      }
      case NodeKind::NoTransform: return compile(*n.kids.front().node);
      case NodeKind::Comment: { auto o = op(OpCode::Comment, n); all_kids(n, *o); return o; }
      case NodeKind::SimilarPosition: {
        // spec/cql-similarposition.txt; its database is read here, once per file and run (submission_files.h)
        auto o = op(OpCode::SimilarPosition, n);
        std::string error;
        o->submissions = prog.options.submissions->load(n.text, n.has(Option::NoTransform), &error);
        if (!o->submissions) throw CqlError("similarposition: " + error, n.line, n.column, CqlError::Kind::Input);
        // without nosort, the games are sorted by the least submission game they list (CQL's sort comment
        // "submission game: N", "none" when the game matched otherwise)
        if (!n.has(Option::NoSort)) o->var = sort_slot(n, "submission game", true, false, false);
        return o;
      }
      // echo and position navigation (eval_echo.cpp)
      case NodeKind::Echo: {
        auto o = op(OpCode::Echo, n);
        o->sub = (n.has(Option::Quiet) ? kEchoQuiet : 0) | (n.has(Option::InAll) ? kEchoInAll : 0);
        o->a = n.child(Role::Source)->var;
        o->b = n.child(Role::Target)->var;
        o->kids.push_back(child(n, Role::Body));
        o->sub |= target_range(*o->kids[0], int(o->a), int(o->b));
        return o;
      }
      case NodeKind::PositionIntersect: { auto o = op(OpCode::PositionIntersect, n); all_kids(n, *o); return o; }
      case NodeKind::PositionOrder: {
        auto o = op(OpCode::PositionOrder, n);
        const std::string& t = n.text;
        o->sub = t == "[<]" ? kLt : t == "[<=]" ? kLe : t == "[>]" ? kGt : kGe;
        all_kids(n, *o);
        return o;
      }
      case NodeKind::Lca: { auto o = op(OpCode::Lca, n); all_kids(n, *o); return o; }
      case NodeKind::Distance: { auto o = op(OpCode::Distance, n); all_kids(n, *o); return o; }
      case NodeKind::Child: { auto o = op(OpCode::Child, n); all_kids(n, *o); return o; }
      case NodeKind::MakeSquare: { auto o = op(OpCode::MakeSquare, n); all_kids(n, *o); return o; }
      case NodeKind::PositionById: { auto o = op(OpCode::PositionById, n); all_kids(n, *o); return o; }
      case NodeKind::Hhdb: {  // hhdb: the award forms (the other keys were parsed into CQL filters)
        auto o = op(OpCode::HhdbAward, n);
        o->sub = n.has(Option::Prize) ? kHhdbPrize : n.has(Option::Hm) ? kHhdbHonourableMention
                 : n.has(Option::Commendation) ? kHhdbCommendation : kHhdbAnyAward;
        o->flag = n.has(Option::Special);
        o->a = n.has(Option::Max) ? 1 : 0;
        return o;
      }
      // hhdb: CQL 6.2 stops with the message when a filter needs variations and the run has none
      case NodeKind::AssertVariations:
        if (!prog.options.variations) throw CqlError(n.text, n.line, n.column);
        return op(OpCode::True, n);
      case NodeKind::ConsecutiveMoves: {
        auto o = op(OpCode::ConsecutiveMoves, n);
        o->sub = n.has(Option::Quiet) ? kConsecutiveMovesQuiet : 0;
        o->flag = range(n, *o);
        o->kids.push_back(child(n, Role::Left));
        o->kids.push_back(child(n, Role::Right));
        return o;
      }
      default: unsupported(n, kind_name(n.kind));
    }
  }
};

// True when op's value depends only on the game's tags (never on the position), and it writes no comment.
bool game_constant(const Op& op) {
  switch (op.code) {
    case OpCode::Number: case OpCode::String: case OpCode::True: case OpCode::False: case OpCode::Result:
    case OpCode::TagValue: case OpCode::Player: case OpCode::Elo: case OpCode::Year: case OpCode::GameNumber:
    case OpCode::StringIn: case OpCode::RegexMatch: case OpCode::Relation: case OpCode::Arithmetic:
    case OpCode::Not: case OpCode::And: case OpCode::Or: case OpCode::Compound: case OpCode::Orbit:
    case OpCode::Negate: case OpCode::Abs: case OpCode::Concat: case OpCode::StringLength:
      for (const auto& k : op.kids)
        if (k && !game_constant(*k)) return false;
      return true;
    default: return false;
  }
}

// lang: true when op (or a filter under it) acts beyond the game's output: message, writefile.
bool has_effects(const Op& op) {
  if (op.code == OpCode::Message || op.code == OpCode::WriteFile) return true;
  for (const auto& k : op.kids)
    if (k && has_effects(*k)) return true;
  return false;
}

}  // namespace

Program compile(const Query& query, EvalOptions options) {
  Program prog;
  prog.options = std::move(options);
  if (!prog.options.submissions) prog.options.submissions = std::make_shared<similar::SubmissionFiles>();
  prog.variable_count = query.variables.size();
  prog.variables = query.variables;
  prog.always_bound.assign(query.variables.size(), 0);
  for (size_t i = 0; i < query.variables.size(); ++i) {
    const Variable& v = query.variables[i];
    prog.variable_kinds.push_back(v.kind);
    // a persistent variable holds its value from game to game, so it is bound from the start (0, "", [])
    if (v.persistent && v.kind != VariableKind::Dictionary) prog.always_bound[i] = 1;
    if (v.atomic) prog.atomic_vars.push_back(int(i));  // atomic
    prog.variable_names.push_back(v.name);
  }
  // `sort matchcount`: sort slot 0, filled with the number of matching positions after the scan
  if (prog.options.sort_matchcount) prog.sorts.push_back({"matchcount", false, false});
  NodePtr expanded = expand_transforms(*query.body);
  Compiler c{prog, {}};
  mark_position_uses(*expanded, true, c.position_uses);
  prog.body = c.compile(*expanded);
  fuse_count_compares(*prog.body);  // speed
  mark_hhdb_filters(*prog.body);    // hhdb
  mark_case_filters(*prog.body);
  if (!prog.options.player.empty()) prog.player_regex.emplace(prog.options.player);
  // lang: a query that acts beyond the game (persistent state, message, writefile) must evaluate the conjuncts
  // before a failing tag test, so only the leading tag tests may be tried first then
  const bool effects = query.needs_single_thread || has_effects(*prog.body);
  if (prog.body->code == OpCode::Compound)
    for (const auto& k : prog.body->kids) {
      if (game_constant(*k)) prog.game_constant.push_back(k.get());
      else if (effects) break;
    }
  return prog;
}

}  // namespace cqlindex::cql::eval
