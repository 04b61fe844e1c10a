// Position predicates (check, mate, wtm, initial, ...), counters (ply, movenumber, ...) and game
// information from the tags (result, player, event, elo, year, ...).
#include <bit>
#include <charconv>

#include "engine/chess/movegen.h"
#include "engine/cql/eval/context.h"

namespace cqlindex::cql::eval {
namespace {

bool tag_number(const pgn::Game& g, const char* name, int64_t& out, size_t digits = 0) {
  auto t = g.tag(name);
  if (!t || t->empty()) return false;
  const char* end = digits && t->size() >= digits ? t->data() + digits : t->data() + t->size();
  auto r = std::from_chars(t->data(), end, out);
  return r.ec == std::errc() && r.ptr == end;
}

}  // namespace

bool eval_game_info(const Op& op, Ctx& ctx, Value& v) {
  const GameTree& t = *ctx.tree;
  const chess::Position& p = ctx.position();
  const pgn::Game& g = ctx.game();
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
    case OpCode::Ply: v.num = g.nodes[ctx.cur].ply; return true;
    case OpCode::MoveNumber: v.num = t.move_number(ctx.cur); return true;
    case OpCode::PositionId: v.num = t.position_id[ctx.cur]; return true;
    case OpCode::GameNumber: v.num = int64_t(ctx.game_number); return true;
    case OpCode::SideToMove: v.num = p.side_to_move() == chess::WHITE ? 1 : -1; return true;
    case OpCode::Depth: v.num = t.depth[ctx.cur]; return true;
    case OpCode::Year: return tag_number(g, "Date", v.num, 4);
    case OpCode::Result: {
      auto r = g.tag("Result");
      std::string_view s = r ? *r : g.result_token;
      return s == op.text;
    }
    case OpCode::TagValue: {
      auto r = g.tag(op.text);
      if (!r) return false;
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
    case OpCode::Fen: {
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
    case OpCode::PieceType: {
      uint64_t sq = set_of(*op.kids[0], ctx);
      if (std::popcount(sq) != 1) return false;
      chess::Piece pc = p.piece_on(chess::Square(std::countr_zero(sq)));
      v.num = chess::type_of(pc);
      if (op.flag && pc != chess::NO_PIECE && chess::color_of(pc) == chess::BLACK) v.num = -v.num;
      return true;
    }
    case OpCode::Coordinate: {
      uint64_t sq = set_of(*op.kids[0], ctx);
      if (std::popcount(sq) != 1) return false;
      int s = std::countr_zero(sq);
      v.num = op.flag ? (s & 7) + 1 : (s >> 3) + 1;
      return true;
    }
    case OpCode::RegexMatch: {
      Value l;
      if (!evaluate(*op.kids[0], ctx, l)) return false;
      std::smatch m;
      if (!std::regex_search(l.str, m, *op.regex)) return false;
      set_captures(ctx, m);  // lang: \0 \1 ... for the filters that follow
      v.str = m[0].str();
      return true;
    }
    case OpCode::OriginalComment: {
      GameTree& tree = *ctx.tree;
      if (!tree.comments) tree.comments = pgn::cql_comments(g, pgn::CommentText::AsCqlReads);
      const std::optional<std::string>& c =
          ctx.cur == 0 ? tree.comments->game : tree.comments->after[size_t(ctx.cur)];
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

}  // namespace cqlindex::cql::eval
