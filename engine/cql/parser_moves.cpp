// Moves and sequences: move, the dash (-- ―― [x] ×), legal/pseudolegal dashes, countmoves, line, path.
#include <algorithm>

#include "engine/cql/move_parameters.h"
#include "engine/cql/parser.h"

namespace cqlindex::cql {

NodePtr Parser::move() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::Move, ValueType::Logical, start);
  int index = 0;
  const char* first = nullptr;
  bool legal = false, pseudolegal = false, previous = false, count = false;
  auto set_param = [&](Role role, const char* message) {
    if (n->child(role)) error(std::string("'") + role_name(role) + "' apparently used twice in 'move'");
    NodePtr s = match_setparameter();
    if (!s) error(message);
    n->add(role, std::move(s));
  };
  while (++index > 0) {
    if (!is_move_parameter_word(cur().text)) break;  // the one list of them, shared with the printer
    if (keyword("capture") || keyword("captures")) {
      // CQL 6.2 (move-parse.cpp) takes a second `capture` and keeps the last one
      for (auto it = n->kids.begin(); it != n->kids.end(); ++it)
        if (it->role == Role::Capture) {
          n->kids.erase(it);
          break;
        }
      set_param(Role::Capture, "missing set filter following 'capture'");
      if (index == 1) first = "capture";
    } else if (cur().is_keyword("o-o") || cur().is_keyword("o-o-o") || cur().is_keyword("castle")) {
      if (n->has(Option::OO) || n->has(Option::OOO) || n->has(Option::Castle)) error("multiple castling specifications in 'move'");
      n->options.push_back(option_named(cur().text).value());  // castle, o-o or o-o-o
      forward();
    } else if (keyword("count")) {
      count = true;
    } else if (keyword("enpassant")) {
      if (n->has(Option::EnPassant) || n->child(Role::EnPassantSquare)) error("multiple enpassant expressions in 'move'");
      n->options.push_back(Option::EnPassant);
    } else if (keyword("enpassantsquare")) {
      if (n->has(Option::EnPassant) || n->child(Role::EnPassantSquare)) error("multiple enpassant/enpassantsquare expressions in 'move'");
      set_param(Role::EnPassantSquare, "missing set filter following 'enpassantsquare'");
    } else if (keyword("from")) {
      set_param(Role::From, "Expected a set filter following 'from' in move filter");
      if (index == 1) first = "from";
    } else if (keyword("legal")) {
      legal = true;
    } else if (keyword("null")) {
      n->options.push_back(Option::Null);
    } else if (keyword("previous")) {
      previous = true;
    } else if (keyword("primary")) {
      n->options.push_back(Option::Primary);
    } else if (keyword("promote")) {
      if (n->child(Role::Promote)) error("multiple 'promote' designators in 'move'");
      if (cur().kind != TokenKind::Piece) error("missing piece designator following 'promote'");
      if (cur().pieces == 0 || cur().squares != ~uint64_t{0})
        error("The promoted piece must be just a piece or set of pieces without square designators, e.g. 'promote R' or 'promote [RN]' ");
      n->add(Role::Promote, piece_designator());
    } else if (keyword("pseudolegal")) {
      pseudolegal = true;
    } else if (keyword("secondary")) {
      n->options.push_back(Option::Secondary);
    } else if (keyword("to")) {
      set_param(Role::To, "Expected a set filter following 'to' in move filter");
      if (index == 1) first = "to";
    } else {
      break;
    }
  }
  if (!legal && !pseudolegal && cur().is_keyword("comment")) n->add(Role::Comment, string_converter());
  if (legal) n->options.push_back(Option::Legal);
  if (pseudolegal) n->options.push_back(Option::PseudoLegal);
  if (previous) n->options.push_back(Option::Previous);
  if (count) n->options.push_back(Option::Count);
  if (count && !legal && !pseudolegal)
    error("the 'count' keyword in 'move' can only be used when 'legal' or 'pseudolegal' are also specified");
  if ((legal || pseudolegal) + previous > 1 || (legal && pseudolegal))
    error("After 'move' cannot specify both 'legal' or 'pseudolegal' and 'previous'");
  bool special_kind = n->has(Option::Null) || n->has(Option::Primary) || n->has(Option::Secondary) || n->child(Role::Promote);
  if ((legal || pseudolegal) && special_kind)
    error("cannot use the following keywords with 'move legal' or 'move pseudolegal': 'null', 'primary', 'secondary', or 'promote'");
  if (n->has(Option::Null) && (n->child(Role::Promote) || n->has(Option::EnPassant) || n->child(Role::EnPassantSquare) || legal || pseudolegal))
    error("cannot use null with 'from', 'to', 'promote', 'legal', 'pseudolegal', or 'enpassant'");
  if ((n->has(Option::EnPassant) || n->child(Role::EnPassantSquare)) && n->child(Role::Promote))
    error("cannot have a move that is both an en passant capture and a promotion");
  if (n->child(Role::Capture) && (legal || pseudolegal))
    error("the 'capture' keyword is not currently supported in conjunction with 'legal' or 'pseudolegal'");
  // the value is the set named by the first keyword when it is from, to or capture; else logical
  if (first) {
    n->type = ValueType::Set;
    n->text = first;
  }
  if (count) n->type = ValueType::Numeric;
  return n;
}

NodePtr Parser::dash_from(NodePtr left, const Token& dash, bool in_path) {
  NodePtr n = mk(NodeKind::Dash, ValueType::Logical, dash);
  n->text = dash.text;
  if (left) n->add(Role::Left, std::move(left));
  // right tie: a set written directly after the dash
  if (!eof() && !cur().space_before && cur().kind != TokenKind::Dash && !at_special("(") && !at_special("=")) {
    size_t x = save();
    // the same tokens may have been tried already as a filter of their own (`A--path` in a dash's targets,
    // refused there as a dash and read again as a dash constituent)
    NodePtr r = take_reparse(false);
    if (!r) r = attackarrow_x();
    if (r && r->type == ValueType::Set) {
      n->add(Role::Right, std::move(r));
    } else {
      // the same tokens are read next: in a path as the dash's first target (path_dash), elsewhere as the
      // next filter (`A--path ...`): keep them parsed
      if (r) keep_reparse(std::move(r), x, false);
      restore(x);
    }
  }
  if (!eof() && at_special("=") && !cur().space_before) {
    const Token& eq = cur();
    forward();
    n->add(Role::Promote, dash_promotion(eq));
  }
  // in a path only `--(...)` right after the dash holds its targets (random-differential A11-1:
  // `g2--(castle)?` repeats the whole dash constituent)
  const bool bare = !n->child(Role::Right) && !n->child(Role::Promote);
  // CQL 6.2 reads `-- (` as targets written with a space, and refuses them; in a path too when the dash has no
  // right side (`a2-8-- (...)`; after `Q--[Aa] (...)` the parentheses hold a target filter, path_dash)
  if ((!in_path || bare) && at_special("(") && cur().space_before)
    error("There must be no whitespace between the '--' filter and the '(' which begins the target specification");
  if ((!in_path || bare) && at_special("(") && !cur().space_before) {
    forward();
    if (at_special(")")) error("expected a filter inside the targets '--(...)' of the dash");
    while (!special(")")) {
      NodePtr t = node();
      if (!t) error("expected a filter or ')' in the targets of '--(...)'");
      n->add(Role::Target, std::move(t));
    }
    if (!in_path) n->type = n->kids.back().node->type;  // a dash with targets has the value of its last target
  }
  // outside a path CQL 6.2 refuses a '(' after the targets, spaced or not: it may be a target meant for the dash
  if (!in_path && at_special("("))
    error("There is a '(' character immediately following a -- filter. This might not be an error, but it might "
          "indicate that it begins a target specification for the -- filter, and whitespace was inadvertently "
          "included between the end of the -- filter and the beginning of the intended target filter.");
  return n;
}

// The promotion of a dash after its `=`: any filter, as in CQL 6.2 (dash-parse.cpp), that is a piece designator
// of piece types only (`=Q`, `=(R)`, `=[RB]`), `.` (any promotion: the empty string), or a string filter (its
// letters name the types, read in the position before the move: `=T` with T = typename ...).
NodePtr Parser::dash_promotion(const Token& eq) {
  NodePtr p = node();
  if (p && p->kind == NodeKind::PieceSet) {
    if (p->pieces == 0 || p->squares != ~uint64_t{0})
      error_at(eq, "The promoted piece type, if it is a piece designator, must be a piece name or a set of piecenames, "
                   "e.g. '(R)' or '([RB])'");
    return p;
  }
  if (p && p->kind == NodeKind::AllSquares) return mk(NodeKind::StringLiteral, ValueType::String, eq);
  if (!p || p->type != ValueType::String)
    error_at(eq, "expected either a piece designator or a string filter as a promotion type specifier");
  return p;
}

// What CQL 6.2 (dash-legal-parse.cpp) allows in a dash after legal or pseudolegal: no capture dash, no promotion,
// and at most one target, which is o-o, o-o-o, castle or enpassant (what a move not played can be asked).
void Parser::check_legal_dash(const Node& dash, const Token& at) const {
  if (is_capture_dash(dash))
    error_at(at, "'legal' and 'pseudolegal' are not supported with capturing dashnodes '[x]'. Use normal -- instead "
                 "if possible.");
  size_t targets = 0;
  const Node* target = nullptr;
  for (const Child& k : dash.kids)
    if (k.role == Role::Target) {
      ++targets;
      target = k.node.get();
    }
  if (dash.child(Role::Promote) || targets > 1 || (target && target->kind != NodeKind::PastMove))
    error_at(at, "The target, if any, following 'legal --' must be one of o-o, o-o-o, castle, or enpassant. Either "
                 "promotion was specified in the -- filter, or an unsupported target filter type was used with "
                 "'legal/pseudolegal'");
  if (target && target->text != "o-o" && target->text != "o-o-o" && target->text != "castle" &&
      target->text != "enpassant")
    error_at(at, "Invalid target type for 'legal' or 'pseudolegal'. The only allowed targets after "
                 "'legal --- (target)' are at most one of 'o-o', 'o-o-o', 'castle', and 'enpassant'");
}

NodePtr Parser::legal_dash() {
  const Token& start = cur();
  forward();
  NodePtr d = mulop_x();
  if (!d || d->kind != NodeKind::Dash) error_at(start, "expected a dash filter (S--T) following '" + start.text + "'");
  check_legal_dash(*d, start);
  NodePtr n = mk(NodeKind::LegalDash, ValueType::Set, start);
  n->text = start.text;
  n->add(Role::Dash, std::move(d));
  return n;
}

NodePtr Parser::count_moves() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::CountMoves, ValueType::Numeric, start);
  const Token& legal = cur();
  if (keyword("legal")) n->options.push_back(Option::Legal);
  else if (keyword("pseudolegal")) n->options.push_back(Option::PseudoLegal);
  NodePtr d = mulop_x();
  if (!d || d->kind != NodeKind::Dash) error("expected a dash filter following 'countmoves'");
  if (!n->options.empty()) check_legal_dash(*d, legal);
  n->add(Role::Dash, std::move(d));
  return n;
}

NodePtr Parser::previous_dash() {
  const Token& start = cur();
  forward();
  NodePtr d = mulop_x();
  if (!d || d->kind != NodeKind::Dash) error_at(start, "expected a dash filter following '" + start.text + "'");
  NodePtr n = mk(NodeKind::PreviousDash, ValueType::Logical, start);
  n->text = start.text;
  n->add(Role::Dash, std::move(d));
  return n;
}

// ---------------------------------------------------------------- line

NodePtr Parser::line() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::Line, ValueType::Numeric, start);
  bool ranged = false;
  auto flag = [&](Option w, const char* message) {
    if (n->has(w)) error(message);
    n->options.push_back(w);
  };
  while (true) {
    if (keyword("singlecolor")) flag(Option::SingleColor, "multiple 'singlecolor' in 'line'");
    else if (keyword("primary")) {
      if (n->has(Option::Primary) || n->has(Option::Secondary)) error("multiple primary/secondary specifiers in line");
      n->options.push_back(Option::Primary);
    } else if (keyword("secondary")) {
      if (n->has(Option::Primary) || n->has(Option::Secondary)) error("multiple primary or secondary specifiers in line");
      n->options.push_back(Option::Secondary);
    } else if (keyword("quiet")) flag(Option::Quiet, "multiple 'quiet' specifiers in 'line'");
    else if (keyword("nestban")) flag(Option::NestBan, "multiple nestbans in 'line'");
    else if (keyword("firstmatch")) flag(Option::FirstMatch, "multiple 'firstmatch' keywords in line");
    else if (keyword("lastposition")) n->options.push_back(Option::LastPosition);
    else if (!ranged && match_range(*n)) ranged = true;
    else break;
  }
  const char* dir;
  if (special("-->")) dir = "-->";
  else if (special("<--")) dir = "<--";
  else error("Missing <-- or --> following line. Legal line syntaxes for example: line --> check*");
  n->text = dir;
  if (n->has(Option::NestBan) && std::string(dir) == "<--")
    error("The 'nestban' parameter may not be used with backward line 'line <--'");
  std::vector<NodePtr> cons;
  seq_constituents(dir, cons);
  if (cons.empty()) error("Could not get arguments to 'line'");
  if ((n->has(Option::Primary) || n->has(Option::Secondary)) && std::string(dir) == "<--")
    error("'primary' and 'secondary' cannot be used with 'line<--'");
  for (NodePtr& c : cons) n->add(Role::Arg, std::move(c));
  if (n->has(Option::LastPosition)) n->type = ValueType::Position;
  return n;
}

NodePtr Parser::seq_constituents(const char* direction, std::vector<NodePtr>& out) {
  NodePtr c = seq_constituent(direction);
  if (!c) return nullptr;
  out.push_back(std::move(c));
  while (at_special("-->") || at_special("<--")) {
    if (cur().text != direction) error("arrow wrong direction in --> or <-- filter");
    forward();
    NodePtr next = seq_constituent(direction);
    if (!next) error("Could not get filter following arrow in --> or <-- filter");
    out.push_back(std::move(next));
  }
  return nullptr;
}

static bool matches_empty(const Node& n) {
  if (n.kind != NodeKind::SeqRepeat) return false;
  return n.a == 0;
}

NodePtr Parser::seq_constituent(const char* direction) {
  NodePtr cur_con;
  const Token& start = cur();
  if (at_special("(")) {
    forward();
    std::vector<NodePtr> args;
    seq_constituents(direction, args);
    if (args.empty()) error("In --> or <-- filter: could not parse constituents of apparent vector constituent");
    if (!special(")")) error("malformed expression inside --> or <-- filter: expected ')'");
    cur_con = mk(NodeKind::SeqChain, ValueType::Logical, start);  // kept even for one constituent
    for (NodePtr& a : args) cur_con->add(Role::Arg, std::move(a));
  } else {
    NodePtr f = node();
    if (!f) return nullptr;
    if (f->kind == NodeKind::Number)
      error("Attempt to create a line constituent from a single number: " + std::to_string(f->a) +
            ". This is likely an error (perhaps the number was intended to part of a range). Try enclosing the desired filter in braces");
    if (f->kind == NodeKind::Variable && f->type == ValueType::Numeric)
      error("Attempt to create a line constituent from a single numeric variable: " + f->text);
    if (f->kind == NodeKind::Arithmetic)
      error("Attempt to create a line constituent from a binary arithmetic operation named: " + f->text +
            ". Make sure that what you intended to be a wildcard character is not being parsed as an arithmetic operator; you can use '{*}' and '{+}'");
    cur_con = mk(NodeKind::SeqFilter, ValueType::Logical, start);
    cur_con->add(Role::Arg, std::move(f));
  }
  // suffixes
  while (true) {
    const Token& w = cur();
    // a path's wildcard (a line written at the top level of a path) is not the line's: CQL 6.2 refuses it there
    bool star = !w.path_wildcard && ((w.is_special("*") && wildcard_after()) || w.is_special("{*}"));
    bool plus = !w.path_wildcard && ((w.is_special("+") && wildcard_after()) || w.is_special("{+}"));
    if (star || plus || w.is_special("?")) {
      if (matches_empty(*cur_con))
        error("The '" + std::string(star ? "*" : plus ? "+" : "?") + "' wildcard character cannot be used to apply to the requested expression, because that expression could match an empty sequence of positions");
      if (plus && cur_con->kind == NodeKind::SeqRepeat && cur_con->text == "+")
        error("The '+' wildcard character cannot be used to apply to another '+' wildcard expression");
      forward();
      NodePtr r = mk(NodeKind::SeqRepeat, ValueType::Logical, w);
      r->text = star ? "*" : plus ? "+" : "?";
      r->a = plus ? 1 : 0;
      r->b = star || plus ? -1 : 1;
      r->add(Role::Arg, std::move(cur_con));
      cur_con = std::move(r);
    } else if (w.kind == TokenKind::BraceRep) {
      if (matches_empty(*cur_con) || (cur_con->kind == NodeKind::SeqRepeat && cur_con->text == "+"))
        error("The {...} wildcard cannot be applied to an expression that matches an empty sequence of positions or to a '+' wildcard expression");
      forward();
      NodePtr r = mk(NodeKind::SeqRepeat, ValueType::Logical, w);
      r->text = "{}";
      r->a = w.number;
      r->b = w.number2;
      r->add(Role::Arg, std::move(cur_con));
      cur_con = std::move(r);
    } else {
      break;
    }
  }
  return cur_con;
}

// ---------------------------------------------------------------- path

NodePtr Parser::path() {
  const Token& start = cur();
  forward();
  NodePtr n = mk(NodeKind::Path, ValueType::Numeric, start);
  bool ranged = false;
  auto flag = [&](Option w, const char* message) {
    if (n->has(w)) error(message);
    n->options.push_back(w);
  };
  while (true) {
    if (keyword("singlecolor")) {
      if (n->child(Role::Focus)) error("'singlecolor' cannot be used with 'focus'");
      flag(Option::SingleColor, "multiple 'singlecolor' in 'path'");
    } else if (keyword("max")) {
      if (n->child(Role::Max)) error("multiple 'max' specifications in 'path' specification");
      n->add(Role::Max, require(node(), "missing filter following 'path max'"));
    } else if (keyword("verbose")) flag(Option::Verbose, "multiple 'verbose' paramters in  'path'");
    else if (keyword("title")) {
      if (cur().kind != TokenKind::String || cur().text.empty())
        error("expected nonempty quoted string following 'title' parameter to 'path'");
      n->text = cur().text;
      forward();
    } else if (keyword("keepallbest")) flag(Option::KeepAllBest, "multiple 'keepallbest' parameters in 'path'");
    else if (keyword("focus")) {
      if (n->has(Option::SingleColor)) error("'focus' cannot be used when 'singlecolor' is used");
      if (n->child(Role::Focus)) error("multiple 'focus' parameters in 'path'");
      if (keyword("capture")) n->options.push_back(Option::FocusCapture);
      NodePtr f = match_set();
      if (!f) error("could not parse filter that should follow keyword 'focus' or 'focus capture' in 'path'");
      n->add(Role::Focus, std::move(f));
    } else if (keyword("primary")) flag(Option::Primary, "multiple primary specifiers in path");
    else if (keyword("piecepath")) flag(Option::PiecePath, "multiple piecepath parameters in path");
    else if (keyword("quiet")) flag(Option::Quiet, "multiple 'quiet' specifiers in 'path'");
    else if (keyword("secondary")) error("the 'secondary' keyword is not supported with 'path'");
    else if (keyword("nestban")) flag(Option::NestBan, "multiple nestbans in 'path'");
    else if (keyword("firstmatch")) flag(Option::FirstMatch, "multiple 'firstmatch' keywords in path");
    else if (keyword("lastposition")) n->options.push_back(Option::LastPosition);
    else if (!ranged && match_range(*n)) ranged = true;
    else break;
  }
  // parameters may come in any order: keep one order (options sorted; focus, max, range) so that equal
  // paths give equal trees
  std::sort(n->options.begin(), n->options.end(), option_spelled_before);
  std::stable_sort(n->kids.begin(), n->kids.end(), [](const Child& x, const Child& y) {
    auto rank = [](Role r) { return r == Role::Focus ? 0 : r == Role::Max ? 1 : r == Role::Low ? 2 : 3; };
    return rank(x.role) < rank(y.role);
  });
  if (n->has(Option::PiecePath) && !n->child(Role::Focus))
    error("the 'piecepath' parameter to 'path' can only be used when the 'focus' option specifies a focus");
  if (n->child(Role::Focus) && n->has(Option::Primary))
    error("Although legal, the implementation does not currently support use of the keywords 'focus' and 'primary' as parameters to the same 'path'");
  size_t count = 0;
  bool outer_started = path_started_;
  path_started_ = false;
  while (NodePtr c = path_constituent()) {
    n->add(Role::Arg, std::move(c));
    path_started_ = true;
    ++count;
  }
  path_started_ = outer_started;
  if (!count) error("Could not get arguments to 'path'");
  if (n->has(Option::LastPosition)) n->type = ValueType::Position;
  return n;
}

NodePtr Parser::path_constituent() {
  if (eof()) return nullptr;
  if (cur().blank_line_before && path_started_) return nullptr;  // an empty line ends a path
  const Token& start = cur();
  NodePtr con;
  if (at_special("(")) {
    forward();
    con = mk(NodeKind::SeqChain, ValueType::Logical, start);
    while (NodePtr c = path_constituent()) con->add(Role::Arg, std::move(c));
    if (con->kids.empty()) error("In path filter: could not parse constituents of apparent chain constituent");
    if (!special(")")) error("malformed expression inside path filter: expected ')'");
  } else if ((con = path_dash())) {
  } else {
    size_t x = save();
    NodePtr f = node();  // starts from what path_dash parsed (reparse_)
    if (!f) return nullptr;
    if (f->kind == NodeKind::Dash) { restore(x); return nullptr; }
    if (f->kind == NodeKind::Number)
      error("Attempt to create a path constituent from a single number: " + std::to_string(f->a) +
            ". This is likely an error (perhaps the number was intended to part of a range). Try enclosing the desired filter in braces");
    if (f->kind == NodeKind::Variable && f->type == ValueType::Numeric)
      error("Attempt to create a path constituent from a single numeric variable: " + f->text);
    if (f->kind == NodeKind::Arithmetic)
      error("Attempt to create a path constituent from a binary arithmetic operation named: " + f->text +
            ". Make sure that what you intended to be a wildcard character is not being parsed as an arithmetic operator; you can use '{*}' and '{+}'");
    NodePtr h = mk(NodeKind::SeqFilter, ValueType::Logical, start);
    h->add(Role::Arg, std::move(f));
    return h;  // plain filters take no wildcard
  }
  return wildcard_token(std::move(con));
}

// A dash constituent: [S]--[T][=P] followed by its target filters.
NodePtr Parser::path_dash() {
  size_t x = save();
  NodePtr left;
  if (cur().kind != TokenKind::Dash) {
    left = dash_tie_x();
    if (!left || left->type != ValueType::Set || cur().kind != TokenKind::Dash || cur().space_before) {
      // not a dash constituent: path_constituent reads these tokens as a filter, from what was parsed here
      if (left) keep_reparse(std::move(left), x, true);
      restore(x);
      return nullptr;
    }
  }
  const Token& d = cur();
  forward();
  NodePtr dash = dash_from(std::move(left), d, true);
  while (true) {
    size_t y = save();
    // a '(' here is a parenthesized target filter, as in CQL 6.2 (`Q--[Aa] (r--k A--e7)` is refused: one
    // filter only); a dash inside it still starts a chain constituent (below)
    if (eof() || cur().kind == TokenKind::Dash || cur().blank_line_before) break;
    NodePtr f = node();  // the first starts from the right side dash_from tried (reparse_)
    if (!f) break;
    if (f->kind == NodeKind::Dash) { restore(y); break; }
    dash->add(Role::Target, std::move(f));
  }
  return dash;
}

// Wildcards after a chain or dash constituent of a path: * + ? {m,n} {*} {+} (one at most).
NodePtr Parser::wildcard_token(NodePtr inner) {
  auto is_wild = [&](const Token& t) {
    return t.is_special("*") || t.is_special("+") || t.is_special("?") || t.is_special("{*}") ||
           t.is_special("{+}") || t.kind == TokenKind::BraceRep;
  };
  const Token& w = cur();
  if (!is_wild(w)) return inner;
  forward();
  if (is_wild(cur())) error("Two consecutive wildcards detected: this is not supported at this time.");
  NodePtr r = mk(NodeKind::SeqRepeat, ValueType::Logical, w);
  if (w.kind == TokenKind::BraceRep) {
    r->text = "{}";
    r->a = w.number;
    r->b = w.number2;
  } else {
    std::string s = w.text == "{*}" ? "*" : w.text == "{+}" ? "+" : w.text;
    r->text = s;
    r->a = s == "+" ? 1 : 0;
    r->b = s == "?" ? 1 : -1;
  }
  r->add(Role::Arg, std::move(inner));
  return r;
}

// move, legal, pseudolegal, countmoves, currentmove, previous, line, path; nullptr (not moving) for another word.
NodePtr Parser::move_filter() {
  const std::string& w = cur().text;
  if (w == "move") return move();
  if (w == "legal" || w == "pseudolegal") return legal_dash();
  if (w == "countmoves") return count_moves();
  if (w == "currentmove" || w == "previous") return previous_dash();
  if (w == "line") return line();
  if (w == "path") return path();
  return nullptr;
}

}  // namespace cqlindex::cql
