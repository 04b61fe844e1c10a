// Compiling the bound tree into Ops: transforms expanded, names resolved to enums, children put in the
// fixed order each op family reads them in.
// GCC 12 reports false -Wrestrict positives on std::string concatenation at -O2 (GCC bug 105329).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif
#include <cstring>
#include <map>

#include "engine/cql/error.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/eval/evaluator.h"
#include "engine/cql/eval/transform.h"

namespace cqlindex::cql::eval {
namespace {

[[noreturn]] void unsupported(const Node& n, const std::string& what) {
  throw CqlError("'" + what + "' is not supported by the evaluator yet", n.line, n.column);
}

struct Compiler {
  Program& prog;

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
  OpPtr child(const Node& n, const char* role) {
    const Node* c = n.child(role);
    return c ? compile(*c) : nullptr;
  }
  void all_kids(const Node& n, Op& o, const char* role = nullptr) {
    for (const Child& k : n.kids)
      if (!role || std::strcmp(k.role, role) == 0) o.kids.push_back(compile(*k.node));
  }
  // Range children min/max into a, b (b = -1 unbounded); false when absent.
  bool range(const Node& n, Op& o) {
    const Node* lo = n.child("low");
    const Node* hi = n.child("high");
    if (n.has("count")) {
      o.a = 0;
      o.b = -1;
      return true;
    }
    if (!lo) return false;
    if (lo->kind != NodeKind::Number || (hi && hi->kind != NodeKind::Number)) unsupported(n, "range with variables");
    o.a = lo->a;
    o.b = hi ? hi->a : lo->a;
    return true;
  }

  OpPtr compile(const Node& n) {
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
        o->kids.push_back(child(n, "if"));
        o->kids.push_back(child(n, "then"));
        o->kids.push_back(child(n, "else"));
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
        all_kids(n, *o);
        return o;
      }
      case NodeKind::Ray: {
        auto o = op(OpCode::Ray, n);
        o->flag = n.has("attack") || n.text == "xray";
        static const char* dirs[] = {"up", "down", "left", "right", "northeast", "northwest", "southeast", "southwest"};
        static const std::map<std::string, uint8_t> composite = {
            {"horizontal", 4 | 8}, {"vertical", 1 | 2}, {"diagonal", 16 | 32 | 64 | 128}, {"orthogonal", 15},
            {"maindiagonal", 16 | 128}, {"offdiagonal", 32 | 64}, {"anydirection", 255}};
        uint8_t mask = 0;
        for (const std::string& d : n.options) {
          for (int i = 0; i < 8; ++i)
            if (d == dirs[i]) mask |= uint8_t(1 << i);
          auto it = composite.find(d);
          if (it != composite.end()) mask |= it->second;
        }
        o->sub = mask ? mask : 255;
        all_kids(n, *o);
        return o;
      }
      case NodeKind::Pin: {
        auto o = op(OpCode::Pin, n);
        o->kids.push_back(child(n, "from"));
        o->kids.push_back(child(n, "through"));
        o->kids.push_back(child(n, "to"));
        o->sub = n.text == "from" ? 0 : n.text == "to" ? 2 : 1;
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
        if (!range(n, *o)) {
          o->a = 1;
          o->b = 7;
        }
        o->kids.push_back(child(n, "arg"));
        return o;
      }
      case NodeKind::FromSquare: {
        if (n.text == "enpassantsquare") unsupported(n, n.text);
        return op(n.text == "to" ? OpCode::ToSquare : OpCode::FromSquare, n);
      }
      case NodeKind::ToSquare: return op(OpCode::ToSquare, n);
      case NodeKind::SquareLoop:
      case NodeKind::PieceLoop: {
        auto o = op(n.kind == NodeKind::SquareLoop ? OpCode::SquareLoop : OpCode::PieceLoop, n);
        if (n.kind == NodeKind::PieceLoop) prog.uses_piece_ids = true;
        o->flag = n.has("all");
        o->kids.push_back(child(n, "domain"));
        o->kids.push_back(child(n, "body"));
        return o;
      }
      case NodeKind::PieceAssign: {
        prog.uses_piece_ids = true;
        auto o = op(OpCode::PieceAssign, n);
        o->kids.push_back(child(n, "value"));
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
        if (n.text == "sqrt") unsupported(n, "sqrt");
        auto o = op(OpCode::Abs, n); all_kids(n, *o); return o;
      }
      case NodeKind::Sqrt: unsupported(n, "sqrt");
      case NodeKind::MinMax: {
        if (n.type != ValueType::Numeric) unsupported(n, "string min/max");
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
        auto it = preds.find(n.text);
        if (it == preds.end()) unsupported(n, n.text);
        return op(it->second, n);
      }
      case NodeKind::Counter: {
        static const std::map<std::string, OpCode> counters = {
            {"ply", OpCode::Ply}, {"movenumber", OpCode::MoveNumber}, {"positionid", OpCode::PositionId},
            {"gamenumber", OpCode::GameNumber}, {"sidetomove", OpCode::SideToMove}, {"year", OpCode::Year},
            {"depth", OpCode::Depth}};
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
      case NodeKind::HasComment: {
        if (n.text != "originalcomment") unsupported(n, n.text);
        return op(OpCode::OriginalComment, n);
      }
      case NodeKind::Find: {
        auto o = op(OpCode::Find, n);
        o->sub = (n.has("<--") ? 1 : 0) | (n.has("quiet") ? 2 : 0) | (n.has("all") ? 4 : 0);
        o->flag = range(n, *o);
        o->kids.push_back(child(n, "body"));
        return o;
      }
      case NodeKind::Sort: {
        if (n.type == ValueType::String || n.type == ValueType::Position) unsupported(n, "sort of a string or position");
        auto o = op(OpCode::Sort, n);
        const bool min = n.has("min");
        std::string desc = n.text.empty() ? "<sort-id-" + std::to_string(prog.sorts.size() + 1) + ">" : n.text;
        size_t slot = prog.sorts.size();
        for (size_t i = 0; i < prog.sorts.size(); ++i)
          if (!n.text.empty() && prog.sorts[i].description == desc) slot = i;
        if (slot == prog.sorts.size()) prog.sorts.push_back({desc, min, n.has("quiet")});
        o->var = int(slot);
        o->flag = min;
        o->kids.push_back(child(n, "body"));
        return o;
      }
      case NodeKind::Result: return op(OpCode::Result, n);
      case NodeKind::TagBuiltin:
      case NodeKind::Tag: return op(OpCode::TagValue, n);
      case NodeKind::Player: return op(OpCode::Player, n);
      case NodeKind::Elo: return op(OpCode::Elo, n);
      case NodeKind::Fen: {
        if (n.type != ValueType::Logical) unsupported(n, "fen without a board");
        return op(OpCode::Fen, n);
      }
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
        o->kids.push_back(child(n, "position"));
        o->kids.push_back(child(n, "body"));
        return o;
      }
      case NodeKind::Move: {
        auto o = op(OpCode::Move, n);
        o->sub = n.has("previous") ? kPrevious : n.has("legal") ? kLegal : n.has("pseudolegal") ? kPseudoLegal : kPlayed;
        if (n.child("comment")) unsupported(n, "move comment");
        if (n.child("enpassantsquare")) unsupported(n, "move enpassantsquare");
        o->kids.push_back(child(n, "from"));
        o->kids.push_back(child(n, "to"));
        o->kids.push_back(child(n, "capture"));
        o->kids.push_back(child(n, "promote"));
        // options: castle o-o o-o-o enpassant null primary secondary count
        static const std::map<std::string, int64_t> bits = {
            {"castle", kMoveCastle}, {"o-o", kMoveOO}, {"o-o-o", kMoveOOO}, {"enpassant", kMoveEnPassant},
            {"null", kMoveNull}, {"primary", kMovePrimary}, {"secondary", kMoveSecondary}, {"count", kMoveCount}};
        o->b = 0;
        for (const std::string& opt : n.options) {
          auto it = bits.find(opt);
          if (it != bits.end()) o->b |= it->second;
        }
        return o;
      }
      case NodeKind::Dash: {
        auto o = op(OpCode::Dash, n);
        o->flag = n.text != "--" && n.text != "\u2015\u2015";  // [x] or ×: a capture
        o->kids.push_back(child(n, "left"));
        o->kids.push_back(child(n, "right"));
        const Node* promote = n.child("promote");
        if (promote && promote->kind != NodeKind::PieceSet) unsupported(n, "promotion by string");
        o->kids.push_back(child(n, "promote"));
        all_kids(n, *o, "target");
        return o;
      }
      case NodeKind::LegalDash: {
        auto o = op(OpCode::LegalDash, n);
        o->sub = n.text == "pseudolegal" ? kPseudoLegal : kLegal;
        o->kids.push_back(child(n, "dash"));
        return o;
      }
      case NodeKind::CountMoves: {
        auto o = op(OpCode::CountMoves, n);
        o->sub = n.has("legal") ? kLegal : n.has("pseudolegal") ? kPseudoLegal : kPlayed;
        o->kids.push_back(child(n, "dash"));
        return o;
      }
      case NodeKind::Line: {
        auto o = op(OpCode::Line, n);
        if (n.has("nestban") || n.has("singlecolor") || n.has("lastposition") || n.has("secondary"))
          unsupported(n, "line parameter");
        o->flag = n.has("quiet");
        o->sub = (n.text == "<--" ? 1 : 0) | (n.has("primary") ? 2 : 0) | (n.has("firstmatch") ? 4 : 0);
        if (!range(n, *o)) {
          o->a = -1;
          o->b = -1;
        }
        all_kids(n, *o, "arg");
        return o;
      }
      case NodeKind::SeqFilter: { auto o = op(OpCode::SeqFilter, n); all_kids(n, *o); return o; }
      case NodeKind::SeqChain: { auto o = op(OpCode::SeqChain, n); all_kids(n, *o); return o; }
      case NodeKind::SeqRepeat: { auto o = op(OpCode::SeqRepeat, n); all_kids(n, *o); return o; }
      case NodeKind::Variable: return op(OpCode::Variable, n);
      case NodeKind::Assign: {
        if (n.text != "=" || !n.options.empty()) unsupported(n, "assignment " + n.text);
        auto o = op(OpCode::Assign, n);
        o->kids.push_back(child(n, "value"));
        return o;
      }
      case NodeKind::Transform: {
        auto o = op(OpCode::Orbit, n);
        o->flag = range(n, *o);
        all_kids(n, *o, "image");
        return o;
      }
      case NodeKind::NoTransform: return compile(*n.kids.front().node);
      case NodeKind::Comment: { auto o = op(OpCode::Comment, n); all_kids(n, *o); return o; }
      case NodeKind::SimilarPosition: {
        if (!prog.options.similar) unsupported(n, "similarposition");
        return op(OpCode::SimilarPosition, n);
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

}  // namespace

Program compile(const Query& query, EvalOptions options) {
  Program prog;
  prog.options = std::move(options);
  prog.variable_count = query.variables.size();
  for (const Variable& v : query.variables) {
    if (v.persistent) throw CqlError("'persistent' variables are not supported by the evaluator yet", 0, 0);
    if (v.kind == VariableKind::Dictionary) throw CqlError("dictionaries are not supported by the evaluator yet", 0, 0);
    prog.variable_kinds.push_back(v.kind);
  }
  NodePtr expanded = expand_transforms(*query.body);
  Compiler c{prog};
  prog.body = c.compile(*expanded);
  fuse_count_compares(*prog.body);  // speed
  if (!prog.options.player.empty()) prog.player_regex.emplace(prog.options.player);
  if (prog.body->code == OpCode::Compound)
    for (const auto& k : prog.body->kids)
      if (game_constant(*k)) prog.game_constant.push_back(k.get());
  return prog;
}

}  // namespace cqlindex::cql::eval
