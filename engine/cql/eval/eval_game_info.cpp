// Position predicates (check, mate, wtm, initial, ...), counters (ply, movenumber, ...) and game
// information from the tags (result, player, event, elo, year, ...).
#include <bit>
#include <optional>

#include "engine/chess/movegen.h"
#include "engine/cql/eval/context.h"
#include "engine/pgn/cql_tag_values.h"

namespace cqlindex::cql::eval {
namespace {

// Returns whether tag `name` reads as a number (pgn::tag_integer; `year`: pgn::tag_year), put in `out`.
bool tag_number(const pgn::Game& g, const char* name, int64_t& out, bool year = false) {
  auto t = g.tag(name);
  if (!t) return false;
  const std::optional<int64_t> n = year ? pgn::tag_year(*t) : pgn::tag_integer(*t);
  if (n) out = *n;
  return n.has_value();
}

// Returns whether the position predicate `op` (check, mate, wtm, initial, terminal, mainline, ...) holds.
bool position_predicate(const Op& op, Ctx& ctx) {
  const GameTree& t = *ctx.tree;
  const chess::Position& p = ctx.position();
  switch (op.code) {
    case OpCode::Check: return p.in_check();
    case OpCode::Mate: return p.in_check() && !chess::has_legal_move(p);
    case OpCode::Stalemate: return !p.in_check() && !chess::has_legal_move(p);
    case OpCode::Wtm: return p.side_to_move() == chess::WHITE;
    case OpCode::Btm: return p.side_to_move() == chess::BLACK;
    case OpCode::Initial: return ctx.cur == 0;
    case OpCode::Terminal: {
      bool any = false;
      t.for_children(ctx.cur, [&](int) { any = true; });
      return !any;
    }
    case OpCode::MainlineP: return t.depth[ctx.cur] == 0;
    case OpCode::VariationP: return t.depth[ctx.cur] != 0;
    default: return false;
  }
}

// Returns true after putting the counter `op` (ply, movenumber, positionid, gamenumber, sidetomove, depth) in v.
bool counter(const Op& op, Ctx& ctx, Value& v) {
  const GameTree& t = *ctx.tree;
  switch (op.code) {
    case OpCode::Ply: v.num = ctx.game().nodes[ctx.cur].ply; return true;
    case OpCode::MoveNumber: v.num = t.move_number(ctx.cur); return true;
    case OpCode::PositionId: v.num = t.position_id[ctx.cur]; return true;
    case OpCode::GameNumber: v.num = int64_t(ctx.game_number); return true;
    case OpCode::SideToMove: v.num = ctx.position().side_to_move() == chess::WHITE ? 1 : -1; return true;
    case OpCode::Depth: v.num = t.depth[ctx.cur]; return true;
    default: return false;
  }
}

// Returns whether the game's tags give `op` (year, result, a tag, player, elo) a value (in v) or make it hold.
bool tag_information(const Op& op, Ctx& ctx, Value& v) {
  const pgn::Game& g = ctx.game();
  switch (op.code) {
    case OpCode::Year: return tag_number(g, "Date", v.num, true);
    case OpCode::Result: {
      auto r = g.tag("Result");
      std::string_view s = r ? *r : g.result_token;
      return s == op.text;
    }
    case OpCode::TagValue: {
      auto r = g.tag(op.text);
      if (!r) return false;
      if (op.text == "ECO") {  // the code CQL 6.2 keeps, as it writes it ("D38/26" is D38, "b12" B12)
        v.str = pgn::cql_eco(*r);
        return !v.str.empty();
      }
      v.str.assign(r->begin(), r->end());
      return true;
    }
    case OpCode::Player: {
      auto w = g.tag("White"), b = g.tag("Black");
      if (op.text == "white") { if (!w) return false; v.str.assign(w->begin(), w->end()); return true; }
      if (op.text == "black") { if (!b) return false; v.str.assign(b->begin(), b->end()); return true; }
      v.str.assign(w ? *w : std::string_view());
      v.str += '\n';
      v.str.append(b ? *b : std::string_view());
      return true;
    }
    case OpCode::Elo: {
      int64_t we = 0, be = 0;
      bool hw = tag_number(g, "WhiteElo", we), hb = tag_number(g, "BlackElo", be);
      if (op.text == "white") { v.num = we; return hw; }
      if (op.text == "black") { v.num = be; return hb; }
      if (!hw && !hb) return false;
      v.num = !hw ? be : !hb ? we : std::max(we, be);
      return true;
    }
    default: return false;
  }
}

// Returns true after putting the position's FEN in v (`fen` without a board), else whether its board is op's.
bool fen_value(const Op& op, Ctx& ctx, Value& v) {
  const chess::Position& p = ctx.position();
  std::string fen = p.fen();
  if (op.type == ValueType::String) {
    // lang: `fen` without a board is the position's FEN as CQL 6.2 writes it: the en-passant square after
    // every double step (capturable or not), halfmove clock 0 and move number 1
    fen.resize(fen.rfind(' ', fen.rfind(' ') - 1));
    fen.resize(fen.rfind(' ') + 1);
    fen += (p.ep_square() == chess::SQ_NONE ? std::string("-") : chess::square_name(p.ep_square())) + " 0 1";
    v.str = std::move(fen);
    return true;
  }
  std::string_view board(fen.data(), fen.find(' '));
  std::string_view want(op.text.data(), std::min(op.text.size(), op.text.find(' ')));
  return board == want;
}

// Returns whether op's one square gives a value in v: the type of its piece, or its file or rank.
bool square_information(const Op& op, Ctx& ctx, Value& v) {
  uint64_t sq = set_of(*op.kids[0], ctx);
  if (std::popcount(sq) != 1) return false;
  if (op.code == OpCode::PieceType) {
    chess::Piece pc = ctx.position().piece_on(chess::Square(std::countr_zero(sq)));
    v.num = chess::type_of(pc);
    if (op.flag && pc != chess::NO_PIECE && chess::color_of(pc) == chess::BLACK) v.num = -v.num;
    return true;
  }
  int s = std::countr_zero(sq);  // OpCode::Coordinate
  v.num = op.flag ? (s & 7) + 1 : (s >> 3) + 1;
  return true;
}

// Returns whether the string filter `op` (a regex match, the game's comment, `in`) holds, its string in v.
bool string_information(const Op& op, Ctx& ctx, Value& v) {
  switch (op.code) {
    case OpCode::RegexMatch: {
      Value l;
      if (!evaluate(*op.kids[0], ctx, l)) return false;
      std::vector<text::RegexGroup> groups;
      if (!regex_search_at(op, l.str, groups)) return false;
      set_captures(ctx, l.str, groups);  // lang: \0 \1 ... for the filters that follow
      v.str = ctx.captures[0];
      return true;
    }
    case OpCode::OriginalComment: {
      GameTree& tree = *ctx.tree;
      if (!tree.comments) tree.comments = pgn::cql_comments(ctx.game(), pgn::CommentText::AsCqlReads);
      const pgn::GameComments::Text& c = ctx.cur == 0 ? tree.comments->game : tree.comments->after[size_t(ctx.cur)];
      if (!c) return false;
      v.str = *c;
      return true;
    }
    case OpCode::StringIn: {
      Value l, r;
      if (!evaluate(*op.kids[0], ctx, l) || !evaluate(*op.kids[1], ctx, r)) return false;
      return r.str.find(l.str) != std::string::npos;
    }
    default: return false;
  }
}

}  // namespace

bool eval_game_info(const Op& op, Ctx& ctx, Value& v) {
  switch (op.code) {
    case OpCode::Check: case OpCode::Mate: case OpCode::Stalemate: case OpCode::Wtm: case OpCode::Btm:
    case OpCode::Initial: case OpCode::Terminal: case OpCode::MainlineP: case OpCode::VariationP:
      return position_predicate(op, ctx);
    case OpCode::Ply: case OpCode::MoveNumber: case OpCode::PositionId: case OpCode::GameNumber:
    case OpCode::SideToMove: case OpCode::Depth:
      return counter(op, ctx, v);
    case OpCode::Year: case OpCode::Result: case OpCode::TagValue: case OpCode::Player: case OpCode::Elo:
      return tag_information(op, ctx, v);
    case OpCode::Fen: return fen_value(op, ctx, v);
    case OpCode::PieceType: case OpCode::Coordinate: return square_information(op, ctx, v);
    case OpCode::RegexMatch: case OpCode::OriginalComment: case OpCode::StringIn: return string_information(op, ctx, v);
    case OpCode::OriginalNag: {
      const pgn::Game& game = ctx.game();
      for (const pgn::Nag& nag : game.nags_of(game.nodes[size_t(ctx.cur)]))
        if (nag.value == op.a && !nag.before_move) return true;
      return false;
    }
    default: return false;
  }
}

}  // namespace cqlindex::cql::eval
