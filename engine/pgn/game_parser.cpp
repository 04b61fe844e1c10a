// Tags + movetext -> Game. Moves are replayed into game.positions (one per node, kept for the game's users) and
// checked for legality; the first error in the mainline stops the game, an error inside a variation drops the rest
// of that variation only.
#include "engine/pgn/game_parser.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "engine/chess/san.h"
#include "engine/pgn/lexer.h"

namespace cqlindex::pgn {
namespace {

using chess::Move;
using chess::Position;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Variant tag values that mean ordinary chess rules (Chess960 included); sets *chess960. Case, blanks, '-' and
// '_' are ignored ("Chess 960", "chess-960", "FischerRandom").
bool is_standard_variant(std::string_view v, bool* chess960) {
  std::string k;
  for (char c : v)
    if (c != ' ' && c != '\t' && c != '-' && c != '_') k += char(std::tolower(uint8_t(c)));
  *chess960 = k == "chess960" || k == "960" || k == "fischerandom" || k == "fischerrandom";
  return *chess960 || k.empty() || k == "standard" || k == "chess" || k == "normal" || k == "regular" || k == "fromposition";
}

// Annotation glyphs written as text instead of $n (ChessBase style): their NAG, or 0.
uint32_t text_nag(std::string_view w) {
  struct Glyph {
    std::string_view text;
    uint8_t nag;
  };
  static constexpr Glyph kGlyphs[] = {{"=", 10},   {"inf", 13},  {"+/=", 14}, {"=/+", 15}, {"+/-", 16},
                                      {"-/+", 17}, {"+-", 18},   {"-+", 19},  {"=/inf", 44}, {"RR", 145},
                                      {"N", 146}};
  for (const Glyph& g : kGlyphs)
    if (g.text == w) return g.nag;
  return 0;
}

// Up to 40 bytes of file text for a message, control characters shown as '?' (other bytes kept as they are).
std::string excerpt(std::string_view text) {
  std::string s(text.substr(0, 40));
  for (char& c : s)
    if (uint8_t(c) < 0x20 || c == 0x7F) c = '?';
  if (text.size() > 40) s += "...";
  return s;
}

// "5." or "5..." for the move about to be played in pos.
std::string move_label(const Position& pos) {
  return std::to_string(pos.fullmove_number()) + (pos.side_to_move() == chess::WHITE ? "." : "...");
}

// Deeper nesting than this is refused (it bounds the memory a hostile file can make us use).
constexpr size_t kMaxDepth = 200;

// One open line of play: the main game or a variation. Its position is game.positions[cur].
struct Level {
  NodeIndex cur = 0;          // node of the current position
  bool has_move = false;      // a move was played at this level (cur is its node)
  uint16_t vars_closed = 0;   // variations closed since that move
};

class Parser {
 public:
  void run(std::string_view text, const GameLocation& where, Game& game, const ParseOptions& options);

 private:
  void error(uint32_t line, uint32_t col, std::string message, Severity sev = Severity::Error) {
    game_->errors.push_back({game_->number, line, col, sev, std::move(message)});
    if (sev == Severity::Error) game_->status = GameStatus::Error;
  }
  // Parses the tag section; false after a fatal error.
  bool parse_tags(Lexer& lex);
  // Parses one "[Name "Value"]" starting at lex.pos() == '['; false after a fatal error.
  bool parse_tag(Lexer& lex);
  // Applies Variant and FEN; false if the movetext must not be read.
  bool apply_setup();
  void parse_movetext(Lexer& lex);
  // Lexes the movetext up to its game-termination marker (tags_only: no move replayed).
  void read_result_marker(Lexer& lex);
  // Skips tokens up to the ')' closing the current variation; false if the game ended first.
  bool skip_variation(Lexer& lex, Token* last);
  NodeIndex add_node(Level& lv, Move m, const Token& t);
  void add_comment(Level& lv, std::string_view text, CommentKind kind);
  void add_nag(Level& lv, uint32_t value);
  void finish_annotations();
  void settle_pending(const Level& lv);
  void set_result(std::string_view token) {
    game_->result_token = token;
    game_->result = token == "1-0"   ? Result::WhiteWins
                    : token == "0-1" ? Result::BlackWins
                    : token == "*"   ? Result::Unknown
                                     : Result::Draw;
  }

  Game* game_ = nullptr;
  const ParseOptions* options_ = nullptr;
  std::vector<Level> levels_;
  std::vector<NodeIndex> last_child_;  // by node: its last child (appending a variation is O(1))
  const char* tag_line_end_ = nullptr;  // end of the line of the last tag read (several tags per line)
  size_t pending_comments_ = 0;  // comments [pending_comments_, end) wait for the next move (Before)
  size_t pending_nags_ = 0;      // likewise NAGs written before a move
  NodeIndex max_nag_node_ = 0, max_comment_node_ = 0;
  bool nags_sorted_ = true, comments_sorted_ = true;
  uint32_t variant_line_ = 0, variant_col_ = 0, fen_line_ = 0, fen_col_ = 0;
  std::string_view fen_;
};

void Parser::run(std::string_view text, const GameLocation& where, Game& game, const ParseOptions& options) {
  game.clear();
  game.number = where.number;
  game.offset = where.offset;
  game.length = text.size();
  game.first_line = where.first_line;
  game.first_col = where.first_col;
  game_ = &game;
  options_ = &options;
  pending_comments_ = pending_nags_ = 0;
  max_nag_node_ = max_comment_node_ = 0;
  nags_sorted_ = comments_sorted_ = true;
  variant_line_ = fen_line_ = 0;
  fen_ = {};
  last_child_.assign(1, kNoNode);
  tag_line_end_ = nullptr;

  Lexer lex(text, where.first_line, where.first_col);
  if (!parse_tags(lex) || !apply_setup()) {
    game.start_known = false;
    levels_.assign(1, Level{});  // comments read before the failure go on the root
    settle_pending(levels_[0]);
    finish_annotations();
    return;
  }
  if (options.tags_only) {
    game.positions.assign(1, game.start);
    if (!game.tag("Result")) read_result_marker(lex);  // lexing the movetext costs as much as the tags
    return;
  }
  parse_movetext(lex);
  finish_annotations();
}

void Parser::read_result_marker(Lexer& lex) {
  for (;;) {
    const Token t = lex.next();
    if (t.kind == TokenKind::Result) return set_result(t.text);
    if (t.kind == TokenKind::End || t.kind == TokenKind::TagOpen || t.kind == TokenKind::Unterminated) return;
  }
}

bool Parser::parse_tags(Lexer& lex) {
  while (lex.skip_space()) {
    const char c = *lex.pos();
    if (c == '[') {
      if (!parse_tag(lex)) return false;
    } else if ((c == '{' || c == ';') && game_->tags.empty()) {
      // Comments before the first tag: kept, they go before the first move (or on the root).
      Token t = lex.next();
      if (t.kind == TokenKind::Unterminated) {
        error(t.line, t.col, "unterminated comment (no closing '}')");
        return false;
      }
      Comment cm;
      cm.text = t.text;
      cm.node = kNoNode;
      cm.kind = t.kind == TokenKind::Comment ? CommentKind::Brace : CommentKind::Semicolon;
      cm.place = CommentPlace::Before;
      if (!options_->mainline_only && !options_->tags_only) game_->comments.push_back(cm);
    } else {
      break;
    }
  }
  return true;
}

bool Parser::parse_tag(Lexer& lex) {
  const char* p = lex.pos();
  const char* end = lex.end();
  const char* eol = p < tag_line_end_ ? tag_line_end_ : p;  // same line as the previous tag: known end
  while (eol < end && *eol != '\n' && *eol != '\r') ++eol;
  tag_line_end_ = eol;
  const uint32_t line = lex.line();
  auto col = [&](const char* q) { return lex.col_of(q); };
  auto fail = [&](const char* q, const char* what) {
    error(line, col(q), what);
    lex.set_pos(eol);
    return false;
  };

  const char* q = p + 1;
  while (q < eol && (*q == ' ' || *q == '\t')) ++q;
  const char* name_begin = q;
  while (q < eol && (std::isalnum(uint8_t(*q)) || *q == '_')) ++q;
  if (q == name_begin) return fail(name_begin, "missing or invalid tag name");
  std::string_view name(name_begin, size_t(q - name_begin));
  while (q < eol && (*q == ' ' || *q == '\t')) ++q;
  if (q == eol || *q != '"') return fail(q, "missing tag value (expected '\"')");
  const char* open = q;
  const char* v = q + 1;
  bool escaped = false;
  for (q = v; q < eol && *q != '"'; ++q)
    if (*q == '\\' && q + 1 < eol) {
      escaped = true;
      ++q;
    }
  if (q == eol) {
    // `[Annotator "C:\"]`: a backslash before the closing quote, meant literally. Take the value up to the
    // last '"' if the line ends with `"]`, and warn.
    const char* e = eol;
    while (e > v && (e[-1] == ' ' || e[-1] == '\t')) --e;
    if (e - v >= 2 && e[-1] == ']' && e[-2] == '"') {
      q = e - 2;
      error(line, col(q), "'\\\"' before the end of the value of tag " + std::string(name) +
                              " read as a backslash and the closing quote",
            Severity::Warning);
    } else {
      return fail(open, "unterminated tag value (no closing '\"' on the line)");
    }
  }
  const char* close = q;
  const char* r = close + 1;
  while (r < eol && (*r == ' ' || *r == '\t')) ++r;
  const char* after;  // just past ']'
  if (r < eol && *r == ']') {
    after = r + 1;
  } else {
    // Unescaped quotes inside the value (`[White ""Socrates Expert""]`): take the value up to the last '"'
    // before the last ']' on the line, and warn.
    const char* rb = eol;
    while (rb > r && rb[-1] != ']') --rb;
    if (rb == r) return fail(r, "missing or invalid end of tag pair (expected ']')");
    const char* lq = rb - 1;
    while (lq > close && *lq != '"') --lq;
    const char* between = lq + 1;
    while (between < rb - 1 && (*between == ' ' || *between == '\t')) ++between;
    if (lq == close || between != rb - 1) return fail(r, "missing or invalid end of tag pair (expected ']')");
    error(line, col(close), "unescaped '\"' in the value of tag " + std::string(name) + "; value read up to the last '\"'",
          Severity::Warning);
    close = lq;
    after = rb;
    escaped = std::find(v, close, '\\') != close;
  }
  std::string_view raw(v, size_t(close - v));
  Tag tag{name, raw, raw};
  if (escaped) {
    std::string s;
    s.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '\\' && i + 1 < raw.size() && (raw[i + 1] == '"' || raw[i + 1] == '\\')) ++i;
      s += raw[i];
    }
    tag.value = game_->keep(std::move(s));
  }
  if (name == "Variant") {
    variant_line_ = line;
    variant_col_ = col(p);
  } else if (name == "FEN") {
    fen_line_ = line;
    fen_col_ = col(p);
    fen_ = tag.value;
  }
  game_->tags.push_back(tag);
  lex.set_pos(after);
  return true;
}

bool Parser::apply_setup() {
  Game& g = *game_;
  if (variant_line_) {
    std::string_view v = *g.tag("Variant");
    bool c960 = false;
    if (!is_standard_variant(v, &c960)) {
      g.status = GameStatus::SkippedVariant;
      g.variant = v;
      error(variant_line_, variant_col_, "chess variant '" + excerpt(v) + "' is not supported", Severity::Skipped);
      return false;
    }
    g.chess960 = c960;
  }
  if (fen_line_) {
    std::string why;
    auto pos = Position::from_fen(trim(fen_), &why);
    if (!pos) {
      error(fen_line_, fen_col_, "invalid FEN tag: " + why);
      return false;
    }
    g.start = *pos;
    g.custom_start = true;
  }
  return true;
}

NodeIndex Parser::add_node(Level& lv, Move m, const Token& t) {
  std::vector<Node>& nodes = game_->nodes;
  const NodeIndex idx = NodeIndex(nodes.size());
  const NodeIndex parent = lv.cur;
  Node n;
  n.move = m;
  n.parent = parent;
  n.ply = nodes[parent].ply + 1;
  n.line = t.line;
  n.col = t.col;
  nodes.push_back(n);
  Node& par = nodes[parent];
  if (par.first_child == kNoNode)
    par.first_child = idx;
  else
    nodes[last_child_[parent]].next_sibling = idx;
  last_child_[parent] = idx;
  last_child_.push_back(kNoNode);
  // Comments waiting for this move.
  std::vector<Comment>& cs = game_->comments;
  for (size_t i = pending_comments_; i < cs.size(); ++i) {
    cs[i].node = idx;
    cs[i].place = CommentPlace::Before;
  }
  if (pending_comments_ < cs.size()) {
    if (idx < max_comment_node_) comments_sorted_ = false;
    max_comment_node_ = idx;
  }
  pending_comments_ = cs.size();
  std::vector<Nag>& ns = game_->nags;
  if (pending_nags_ < ns.size()) {
    for (size_t i = pending_nags_; i < ns.size(); ++i) ns[i].node = idx;
    if (idx < max_nag_node_) nags_sorted_ = false;
    max_nag_node_ = idx;
    pending_nags_ = ns.size();
  }
  lv.cur = idx;
  lv.has_move = true;
  lv.vars_closed = 0;
  return idx;
}

void Parser::add_comment(Level& lv, std::string_view text, CommentKind kind) {
  Comment c;
  c.text = text;
  c.kind = kind;
  if (lv.has_move) {
    c.node = lv.cur;
    c.place = CommentPlace::After;
    c.variations_before = lv.vars_closed;
    if (c.node < max_comment_node_) comments_sorted_ = false;
    max_comment_node_ = c.node;
    game_->comments.push_back(c);
    pending_comments_ = game_->comments.size();
  } else {
    c.node = kNoNode;  // resolved by the next move (or by the end of the line of play)
    c.place = CommentPlace::Before;
    game_->comments.push_back(c);
  }
}

void Parser::add_nag(Level& lv, uint32_t value) {
  if (!lv.has_move) {  // before the first move of a variation (or game): resolved by the next move
    game_->nags.push_back({kNoNode, uint8_t(value), true});
    return;
  }
  NodeIndex node = lv.cur;
  if (node < max_nag_node_) nags_sorted_ = false;
  max_nag_node_ = node;
  game_->nags.push_back({node, uint8_t(value), false});
  pending_nags_ = game_->nags.size();
}

// Comments and NAGs still waiting for a move when a line of play ends go after its current node.
void Parser::settle_pending(const Level& lv) {
  std::vector<Comment>& cs = game_->comments;
  if (pending_comments_ < cs.size()) {
    for (size_t i = pending_comments_; i < cs.size(); ++i) {
      cs[i].node = lv.cur;
      cs[i].place = CommentPlace::After;
      cs[i].variations_before = lv.vars_closed;
    }
    if (lv.cur < max_comment_node_) comments_sorted_ = false;
    max_comment_node_ = std::max(max_comment_node_, lv.cur);
    pending_comments_ = cs.size();
  }
  std::vector<Nag>& ns = game_->nags;
  if (pending_nags_ < ns.size()) {
    for (size_t i = pending_nags_; i < ns.size(); ++i) {
      ns[i].node = lv.cur;
      ns[i].before_move = false;
    }
    if (lv.cur < max_nag_node_) nags_sorted_ = false;
    max_nag_node_ = std::max(max_nag_node_, lv.cur);
    pending_nags_ = ns.size();
  }
}

bool Parser::skip_variation(Lexer& lex, Token* last) {
  int depth = 1;
  for (;;) {
    Token t = lex.next();
    *last = t;
    switch (t.kind) {
      case TokenKind::OpenVariation: ++depth; break;
      case TokenKind::CloseVariation:
        if (--depth == 0) return true;
        break;
      case TokenKind::End:
      case TokenKind::Result:
      case TokenKind::Unterminated:
      case TokenKind::TagOpen:
        return false;
      default: break;
    }
  }
}

void Parser::parse_movetext(Lexer& lex) {
  Game& g = *game_;
  const bool full = !options_->mainline_only;
  levels_.resize(1);
  Level* lv = &levels_[0];
  lv->cur = 0;
  lv->has_move = false;
  lv->vars_closed = 0;
  g.positions.assign(1, g.start);
  size_t depth = 0;

  for (;;) {
    Token t = lex.next();
    switch (t.kind) {
      case TokenKind::Move: {
        chess::SanError why = chess::SanError::None;
        const Position& pos = g.positions[lv->cur];
        Move m = chess::parse_move(pos, t.text, &why);
        if (m.is_null() && pos.in_check()) {
          m = Move::none();
          why = chess::SanError::Illegal;
        }
        if (m.is_none() && why == chess::SanError::Syntax) {
          if (uint32_t nag = text_nag(t.text)) {
            if (full) add_nag(*lv, nag);
            break;
          }
        }
        if (m.is_none()) {
          const char* kind = why == chess::SanError::Illegal     ? "illegal move"
                             : why == chess::SanError::Ambiguous ? "ambiguous move"
                                                                 : "unrecognized move";
          error(t.line, t.col,
                 std::string(kind) + " '" + excerpt(t.text) + "' at " + move_label(pos) +
                    (depth ? " in a variation" : ""));
          if (depth == 0) goto done;
          // Drop the rest of this variation, keep the game.
          Token last;
          if (!skip_variation(lex, &last)) {
            if (last.kind == TokenKind::Result) set_result(last.text);
            goto done;
          }
          settle_pending(*lv);
          --depth;
          levels_.pop_back();
          lv = &levels_.back();
          if (lv->vars_closed < UINT16_MAX) ++lv->vars_closed;
          break;
        }
        g.positions.push_back(pos);  // (push_back copes with an argument inside the vector)
        g.positions.back().do_move(m);
        add_node(*lv, m, t);
        break;
      }
      case TokenKind::MoveNumber:
      case TokenKind::Dots:
      case TokenKind::EnPassant:
        break;
      case TokenKind::Nag:
        if (full) {
          if (t.value > 255)
            error(t.line, t.col, "NAG " + excerpt(t.text) + " out of range (0-255), ignored", Severity::Warning);
          else
            add_nag(*lv, t.value);
        }
        break;
      case TokenKind::Comment:
        if (full) add_comment(*lv, t.text, CommentKind::Brace);
        break;
      case TokenKind::LineComment:
        if (full) add_comment(*lv, t.text, CommentKind::Semicolon);
        break;
      case TokenKind::OpenVariation: {
        if (!lv->has_move) {
          error(t.line, t.col, "unexpected '(': a variation must follow a move");
          goto done;
        }
        if (!full) {
          Token last;
          if (!skip_variation(lex, &last)) {
            error(last.line, last.col, "unterminated variation");
            goto done;
          }
          break;
        }
        if (depth >= kMaxDepth) {
          error(t.line, t.col, "variations nested deeper than " + std::to_string(kMaxDepth));
          goto done;
        }
        settle_pending(*lv);
        Level next;
        next.cur = g.nodes[lv->cur].parent;
        levels_.push_back(next);
        lv = &levels_.back();
        ++depth;
        break;
      }
      case TokenKind::CloseVariation:
        if (depth == 0) {
          error(t.line, t.col, "unexpected ')' outside a variation");
          goto done;
        }
        settle_pending(*lv);
        --depth;
        levels_.pop_back();
        lv = &levels_.back();
        if (lv->vars_closed < UINT16_MAX) ++lv->vars_closed;
        break;
      case TokenKind::Result: {
        set_result(t.text);
        if (depth) {
          error(t.line, t.col, "game ends inside an unterminated variation");
          goto done;
        }
        // Only comments may follow the marker.
        for (;;) {
          Token r = lex.next();
          if (r.kind == TokenKind::End) break;
          if (r.kind == TokenKind::Comment || r.kind == TokenKind::LineComment) {
            if (full) add_comment(*lv, r.text, r.kind == TokenKind::Comment ? CommentKind::Brace
                                                                              : CommentKind::Semicolon);
            continue;
          }
          error(r.line, r.col, "unexpected text after the game-termination marker");
          break;
        }
        goto done;
      }
      case TokenKind::End:
        if (depth) error(lex.line(), lex.col_of(lex.pos()), "game ends inside an unterminated variation");
        goto done;
      case TokenKind::TagOpen:
        error(t.line, t.col, "unexpected tag pair inside the movetext");
        goto done;
      case TokenKind::Unterminated:
        error(t.line, t.col, "unterminated comment (no closing '}')");
        goto done;
      case TokenKind::Unknown:
        error(t.line, t.col, "unrecognized text '" + excerpt(t.text) + "' at " + move_label(g.positions[lv->cur]) +
                                 (depth ? " in a variation" : ""));
        goto done;
    }
  }
done:
  // Comments still waiting for a move belong to the end of their line of play.
  settle_pending(levels_.back());
}

void Parser::finish_annotations() {
  Game& g = *game_;
  if (!nags_sorted_)
    std::stable_sort(g.nags.begin(), g.nags.end(), [](const Nag& a, const Nag& b) { return a.node < b.node; });
  if (!comments_sorted_)
    std::stable_sort(g.comments.begin(), g.comments.end(),
                     [](const Comment& a, const Comment& b) { return a.node < b.node; });
  for (uint32_t i = 0; i < g.nags.size(); ++i) {
    Node& n = g.nodes[g.nags[i].node];
    if (n.nag_count == 0) n.first_nag = i;
    ++n.nag_count;
  }
  for (uint32_t i = 0; i < g.comments.size(); ++i) {
    Node& n = g.nodes[g.comments[i].node];
    if (n.comment_count == 0) n.first_comment = i;
    ++n.comment_count;
  }
}

}  // namespace

void parse_game(std::string_view text, const GameLocation& where, Game& game, const ParseOptions& options) {
  thread_local Parser parser;
  parser.run(text, where, game, options);
}

}  // namespace cqlindex::pgn
