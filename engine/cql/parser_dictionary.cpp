// Dictionaries: declaration (local, persistent), D[k] read and assigned, the type of their keys, iteration
// over their keys (k∊D F, `string k in D F`), and the lexer's bracketed tokens split into an index.
#include <set>

#include "engine/cql/lexer.h"
#include "engine/cql/parser.h"

namespace cqlindex::cql {

// dictionary, local dictionary, persistent dictionary, `string k in D F`; nullptr (not moving) for another word.
NodePtr Parser::dictionary_filter() {
  const Token& t = cur();
  if (t.text == "dictionary") return dictionary();
  // CQL 6.1's dictionary iteration `string k in D F`, still read by 6.2: D must have string keys
  if (t.text == "string" && peek().kind == TokenKind::Identifier && peek(2).is_keyword("in") &&
      peek(3).kind == TokenKind::Identifier) {
    const int d = find_variable(peek(3).text);
    if (d >= 0 && q_.variables[d].kind == VariableKind::Dictionary) {
      const Token& var = peek();
      forward();
      forward();
      forward();
      if (q_.variables[d].key_type != ValueType::Logical && q_.variables[d].key_type != ValueType::String)
        error("type of dictionary must be string here for 'string x in D'");
      return dictionary_iteration(t, var, d);
    }
  }
  if (t.text == "local" && peek().is_keyword("dictionary")) {
    forward();
    return dictionary(true);
  }
  if (t.text == "persistent" && peek().is_keyword("dictionary")) {  // the default kind, said explicitly
    forward();
    return dictionary();
  }
  return nullptr;
}

NodePtr Parser::dictionary(bool local) {
  const Token& start = cur();
  if (start.is_keyword("dictionary")) {
    // CQL 6.2 writes the kind before the keyword (`local dictionary D`, `persistent dictionary D`); what
    // follows `dictionary` is the name
    forward();
    if (cur().kind != TokenKind::Identifier) error("expected name after keyword 'dictionary'");
    const Token& name = cur();
    forward();
    int v = declare(name.text, VariableKind::Dictionary, ValueType::Dictionary, name);
    var_assigned_[v] = true;
    if (!local) {
      q_.variables[v].persistent = true;
      q_.needs_single_thread = true;
    }
    NodePtr n = mk(NodeKind::DictionaryDecl, ValueType::Logical, start);
    n->var = v;
    n->text = name.text;
    if (local) n->options.push_back(Option::Local);
    return n;
  }
  if (start.kind != TokenKind::Identifier || !peek().is_special("[")) return nullptr;
  int v = find_variable(start.text);
  if (v < 0 || q_.variables[v].kind != VariableKind::Dictionary) return nullptr;
  forward();
  forward();
  NodePtr key = require(node(), "expected a key inside '[...]' of dictionary " + start.text);
  if (!special("]")) error("expected ']' after the dictionary key");
  const bool assign = at_special("=");
  dictionary_key(v, *key, start, assign ? KeyUse::Assign : KeyUse::Read);
  if (special("=")) {
    NodePtr value = require(relop_x(), "expected a value following '" + start.text + "[...]='");
    Variable& dv = q_.variables[v];
    if (value->type == ValueType::Position && dv.persistent)
      error_at(start, "Attempt to insert a position value into a dictionary that is not a local dictionary");
    if (dv.value_type == ValueType::Logical) dv.value_type = value->type;
    else if (dv.value_type != value->type) error_at(start, "dictionary " + start.text + " holds values of another type");
    NodePtr n = mk(NodeKind::Assign, value->type, start);
    n->text = "=";
    n->var = v;
    n->options.push_back(Option::Dictionary);
    n->add(Role::Target, variable_node(v, start));
    n->add(Role::Key, std::move(key));
    n->add(Role::Value, std::move(value));
    return n;
  }
  ValueType vt = q_.variables[v].value_type == ValueType::Logical ? ValueType::String : q_.variables[v].value_type;
  NodePtr n = mk(NodeKind::DictionaryGet, vt, start);
  n->var = v;
  n->add(Role::Dictionary, variable_node(v, start));
  n->add(Role::Key, std::move(key));
  // the value type is fixed by the first assignment (we only know strings and numbers statically)
  return n;
}

// k∊D F (and CQL 6.1's `string k in D F`): F for each key of D, k bound to it. The cursor is on D.
NodePtr Parser::dictionary_iteration(const Token& start, const Token& var, int d) {
  const Token& dt = cur();
  forward();
  // the key variable takes the type of the keys, known from an assignment earlier in the text (CQL 6.2)
  const Variable& dv = q_.variables[d];
  if (dv.key_type == ValueType::Logical || dv.value_type == ValueType::Logical)
    error_at(dt, "type of dictionary is not yet set. You must first assign to a dictionary before using "
                 "'varname \u220A dictionaryname body'");
  const ValueType kt = dv.key_type;
  const VariableKind kk = kt == ValueType::Numeric ? VariableKind::Numeric
                          : kt == ValueType::Set ? VariableKind::Set
                          : kt == ValueType::Position ? VariableKind::Position
                          : VariableKind::String;
  const int known = find_variable(var.text);
  if (known >= 0 && q_.variables[known].type != kt)
    error_at(var, std::string("type of variable in dictionary iteration ") + type_name(q_.variables[known].type) +
                      " does not match that of the key of the dictionary " + type_name(kt));
  int k = declare(var.text, kk, kt, var);
  var_assigned_[k] = true;
  NodePtr body = require(node(), "expected a filter following the dictionary iteration");
  NodePtr n = mk(NodeKind::DictionaryIterate, ValueType::Logical, start);
  n->var = k;
  n->text = var.text;
  n->add(Role::Dictionary, variable_node(d, dt));
  n->add(Role::Body, std::move(body));
  return n;
}

// The lexer reads `[e1]`, `[x]` and `[Kk]` as a square list, a capture and a piece set; right after the name
// of a dictionary (declared earlier in the text, no space between) they are an index: '[' key ']', the key
// lexed again from the bracketed text. A square list keeps its squares as one key (`D[e1,h8]`).
void Parser::split_dictionary_keys() {
  std::set<std::string> dicts;
  for (const Variable& v : q_.variables)
    if (v.kind == VariableKind::Dictionary) dicts.insert(v.name);
  std::vector<Token> out;
  out.reserve(toks_.size() + 8);
  size_t declared = SIZE_MAX;  // index of the name in `dictionary NAME`: not an access
  for (size_t i = 0; i < toks_.size(); ++i) {
    const Token& t = toks_[i];
    out.push_back(t);
    if (t.is_keyword("dictionary")) {
      size_t j = i + 1;
      if (j < toks_.size() && (toks_[j].is_keyword("local") || toks_[j].is_keyword("persistent"))) ++j;
      if (j < toks_.size() && toks_[j].kind == TokenKind::Identifier) {
        dicts.insert(toks_[j].text);
        declared = j;
      }
      continue;
    }
    if (i == declared || t.kind != TokenKind::Identifier || !dicts.count(t.text) || i + 1 >= toks_.size()) continue;
    const Token& b = toks_[i + 1];
    if (b.space_before || b.kind == TokenKind::Special || b.end < b.offset + 3 || source_[b.offset] != '[' ||
        source_[b.end - 1] != ']')
      continue;
    // CQL 6.2's lexer reads `[K]` as a piece list, not a subscript (`D[K] = 1` is refused, repro-2 R14)
    if (b.kind == TokenKind::Piece && b.pieces != 0) continue;
    Token open = b, close = b;
    open.kind = close.kind = TokenKind::Special;
    open.text = "[";
    close.text = "]";
    open.end = open.offset + 1;
    close.offset = b.end - 1;
    close.column = b.column + int(b.end - b.offset) - 1;  // the bracketed text is ASCII
    close.space_before = false;
    out.push_back(open);
    std::string_view inner = source_.substr(b.offset + 1, b.end - b.offset - 2);
    if (b.kind == TokenKind::Piece && b.pieces == 0) {  // a square list: its set is the key
      Token key = b;
      key.offset += 1;
      key.end -= 1;
      key.column += 1;
      key.space_before = false;
      if (inner.find(',') == std::string_view::npos) key.spelling = std::string(inner);
      out.push_back(key);
    } else {
      std::vector<Token> keys;
      try {
        keys = lex(inner);
      } catch (const CqlError& e) {
        throw CqlError(e.what(), b.line, b.column + e.column);
      }
      for (Token& k : keys) {
        if (k.kind == TokenKind::End) continue;
        k.line = b.line;
        k.column += b.column;
        k.offset += b.offset + 1;
        k.end += b.offset + 1;
        out.push_back(std::move(k));
      }
    }
    out.push_back(close);
    ++i;
  }
  toks_ = std::move(out);
}

// The keys of a dictionary all have one type, fixed by its first assignment (as in CQL 6.2), so that the
// variable of an iteration over the keys has that type too (and D[k] finds the entry again).
void Parser::dictionary_key(int dict, const Node& key, const Token& at, KeyUse use) {
  Variable& dv = q_.variables[dict];
  if (key.type == ValueType::Logical || key.type == ValueType::Dictionary)
    error_at(at, "The type of the key in " + dv.name + "[key] must be set, number, position, or string");
  if (key.type == ValueType::Position && dv.persistent)
    error_at(at, "Attempt to use a position-valued key for a dictionary that is not a local dictionary");
  if (use == KeyUse::Unbind && dv.key_type == ValueType::Logical)
    error_at(at, "'unbind " + dv.name + "[key]': no entry was assigned to " + dv.name + " before");
  if (dv.key_type != ValueType::Logical && dv.key_type != key.type)
    error_at(at, "dictionary " + dv.name + " has " + type_name(dv.key_type) + " keys, not " + type_name(key.type));
  if (use == KeyUse::Assign) dv.key_type = key.type;
}

}  // namespace cqlindex::cql
