// String filters: comment, message, str, ///, uppercase, lowercase, int, readfile, ascii, indexof, writefile.
#include <utility>

#include "engine/cql/parser.h"

namespace cqlindex::cql {

// comment, message, str, uppercase, lowercase, int, readfile, ascii, indexof, writefile; nullptr (not moving) for
// another word.
NodePtr Parser::string_filter() {
  const Token& t = cur();
  const std::string& w = t.text;
  NodePtr n;
  if (w == "comment" || w == "message" || w == "str") return string_converter();
  if (w == "uppercase" || w == "lowercase" || w == "int" || w == "readfile") {
    forward();
    NodePtr a = w == "int" ? match_string() : match_string();
    if (!a) error("expected a string filter following '" + w + "'");
    NodeKind k = w == "int" ? NodeKind::StringToInt : w == "readfile" ? NodeKind::ReadFile : NodeKind::CaseConvert;
    n = mk(k, w == "int" ? ValueType::Numeric : ValueType::String, t);
    n->text = w;
    n->add(Role::Arg, std::move(a));
    if (k == NodeKind::ReadFile) q_.needs_single_thread = true;
    return n;
  }
  if (w == "ascii") {
    forward();
    NodePtr a = match_sortable();
    if (!a) error("expected a string filter or numeric filter following 'ascii'");
    n = mk(NodeKind::Ascii, a->type == ValueType::String ? ValueType::Numeric : ValueType::String, t);
    n->add(Role::Arg, std::move(a));
    return n;
  }
  if (w == "indexof" || w == "writefile") {
    forward();
    if (!special("(")) error("expecting '(' following '" + w + "'");
    NodePtr a = match_string();
    if (!a) error("could not get first argument to '" + w + "', which must be a string");
    NodePtr b = match_string();
    if (!b) error("could not get second argument to '" + w + "', which must be a string");
    if (!special(")")) error("expected ')' after the arguments of '" + w + "'");
    n = mk(w == "indexof" ? NodeKind::IndexOf : NodeKind::WriteFile,
           w == "indexof" ? ValueType::Numeric : ValueType::Logical, t);
    n->add(Role::Left, std::move(a));
    n->add(Role::Right, std::move(b));
    if (w == "writefile") q_.needs_single_thread = true;
    return n;
  }
  return nullptr;
}

// comment(...) message(...) str(...) and the line form ///
NodePtr Parser::string_converter() {
  const Token& start = cur();
  forward();
  NodeKind kind = start.text == "str" ? NodeKind::ToString : start.text == "message" ? NodeKind::Message : NodeKind::Comment;
  NodePtr n = mk(kind, kind == NodeKind::ToString ? ValueType::String : ValueType::Logical, start);
  if (start.text == "///") {
    while (!eof() && cur().line == start.line) {
      NodePtr a = node();
      if (!a) break;
      n->add(Role::Arg, std::move(a));
    }
    if (n->kids.empty()) error("expected filters following '///'");
    return n;
  }
  if (kind == NodeKind::Message && keyword("quiet")) n->options.push_back(Option::Quiet);
  if (special("(")) {
    while (!special(")")) {
      if (cur().is_keyword("fen") && peek().kind == TokenKind::String) {
        // CQL 6.2 reads `comment(fen "x")` as the position's FEN, then the string: two arguments
        n->add(Role::Arg, mk(NodeKind::Fen, ValueType::String, cur()));
        forward();
        continue;
      }
      NodePtr a;
      {
        struct Restore {  // also when a parse error or a backtrack leaves node()
          bool& flag;
          bool outer;
          ~Restore() { flag = outer; }
        } restore{string_arguments_, std::exchange(string_arguments_, true)};
        a = node();
      }
      if (!a) error("expected a filter or ')' in '" + start.text + "(...)'");
      n->add(Role::Arg, std::move(a));
    }
  } else {
    n->add(Role::Arg, require(substring_x(), "expected '(' or a filter following '" + start.text + "'"));
  }
  return n;
}

}  // namespace cqlindex::cql
