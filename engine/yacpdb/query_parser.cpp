#include "engine/yacpdb/query_parser.h"

#include <algorithm>
#include <cctype>

#include "engine/text/regex.h"
#include "engine/yacpdb/piece_list.h"

namespace cqlindex::yacpdb {

QueryError::QueryError(int column, const std::string& message)
    : std::runtime_error("column " + std::to_string(column) + ": " + message), column_(column), message_(message) {}

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool iequals(std::string_view a, std::string_view b) { return a.size() == b.size() && lower(a) == lower(b); }

// Largest INT a query may hold; counts never come near it.
constexpr int64_t kMaxInt = 1'000'000'000;

// "STRING", "PIECE (e.g. wR)", ... for messages.
std::string expected_domain(Domain d) {
  switch (d) {
    case Domain::Boolean: return "BOOLEAN (true or false)";
    case Domain::Color: return "COLOR (w, b or n)";
    case Domain::Date: return "DATE (YYYY, YYYY-MM or YYYY-MM-DD)";
    case Domain::Integer: return "INTEGER (a non-negative whole number)";
    case Domain::RefType: return "REFTYPE (author, judge, source, reprint, tourney or keyword)";
    case Domain::Transformations: return "TRANSFORMATIONS (All, Mirror or None)";
    case Domain::Piece: return "PIECE (colour w/b/n and a Popeye code, e.g. wR or bS)";
    case Domain::String: return "STRING";
  }
  return "?";
}

std::string signature(const PredicateInfo& p) {
  std::string s(p.name);
  if (p.params.empty()) return s;
  s += '(';
  for (size_t i = 0; i < p.params.size(); ++i) {
    if (i) s += ", ";
    s += domain_name(p.params[i]);
  }
  return s + ')';
}

bool valid_date(int y, int m, int d) {
  if (m < 1 || m > 12 || d < 1) return false;
  static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (d > days[m - 1]) return false;
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return !(m == 2 && d == 29 && !leap);
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Query parse() {
    Query q;
    q.root = parse_or();
    skip_blanks();
    if (pos_ < s_.size())
      fail(pos_, "expected AND, OR or the end of the query but found " + describe(pos_) + hint_after_expression());
    return q;
  }

 private:
  std::string_view s_;
  size_t pos_ = 0;

  // NOT and '(' nest the tree, which the evaluator and the printer walk recursively. A query is typed by
  // hand into a search box: a few levels are all it ever needs, and 200 keep every walk far from the stack's end.
  static constexpr int kMaxNesting = 200;
  int nesting_ = 0;
  // Counts one more level of nesting at byte `at` (the NOT or '('); fails beyond kMaxNesting.
  void nest(size_t at) {
    if (++nesting_ > kMaxNesting)
      fail(at, "NOT and '(' are nested more than " + std::to_string(kMaxNesting) + " deep");
  }

  // Where column() last counted to: queries are read left to right, so counting on from there keeps the
  // columns of all nodes linear in the query's length.
  mutable size_t counted_at_ = 0;
  mutable int counted_col_ = 1;

  // 1-based column (in code points) of byte offset `at`.
  int column(size_t at) const {
    at = std::min(at, s_.size());
    if (at < counted_at_) counted_at_ = 0, counted_col_ = 1;
    for (size_t i = counted_at_; i < at; ++i)
      if ((static_cast<unsigned char>(s_[i]) & 0xC0) != 0x80) ++counted_col_;
    counted_at_ = at;
    return counted_col_;
  }

  [[noreturn]] void fail(size_t at, const std::string& message) const { throw QueryError(column(at), message); }

  void skip_blanks() {
    while (pos_ < s_.size() && is_blank(s_[pos_])) ++pos_;
  }

  // The word (letters, digits, '_') starting at `at`, empty if none.
  std::string_view word_at(size_t at) const {
    size_t end = at;
    while (end < s_.size() && is_word_char(s_[end])) ++end;
    return s_.substr(at, end - at);
  }

  // What stands at `at`, for messages: 'AND', '>', or "the end of the query".
  std::string describe(size_t at) const {
    if (at >= s_.size()) return "the end of the query";
    std::string_view w = word_at(at);
    if (!w.empty()) return "'" + std::string(w) + "'";
    size_t len = 1;
    while (at + len < s_.size() && (static_cast<unsigned char>(s_[at + len]) & 0xC0) == 0x80) ++len;
    return "'" + std::string(s_.substr(at, len)) + "'";
  }

  std::string hint_after_expression() const {
    if (pos_ < s_.size() && (s_[pos_] == '>' || s_[pos_] == '<' || s_[pos_] == '='))
      return " (a comparison can only follow a predicate, not a parenthesised expression)";
    return "";
  }

  // True (and consumes it) when the next word is the keyword kw, in any case.
  bool accept_keyword(std::string_view kw) {
    skip_blanks();
    std::string_view w = word_at(pos_);
    if (!iequals(w, kw)) return false;
    pos_ += w.size();
    return true;
  }

  bool is_keyword(std::string_view w) const { return iequals(w, "AND") || iequals(w, "OR") || iequals(w, "NOT"); }

  static std::unique_ptr<Expr> combine(Expr::Kind kind, std::unique_ptr<Expr> left, std::unique_ptr<Expr> right) {
    if (left->kind == kind) {
      if (right->kind == kind)
        for (auto& c : right->children) left->children.push_back(std::move(c));
      else
        left->children.push_back(std::move(right));
      return left;
    }
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->column = left->column;
    e->children.push_back(std::move(left));
    if (right->kind == kind)
      for (auto& c : right->children) e->children.push_back(std::move(c));
    else
      e->children.push_back(std::move(right));
    return e;
  }

  std::unique_ptr<Expr> parse_or() {
    auto left = parse_and();
    while (accept_keyword("OR")) left = combine(Expr::Kind::Or, std::move(left), parse_and());
    return left;
  }

  std::unique_ptr<Expr> parse_and() {
    auto left = parse_not();
    while (accept_keyword("AND")) left = combine(Expr::Kind::And, std::move(left), parse_not());
    return left;
  }

  std::unique_ptr<Expr> parse_not() {
    skip_blanks();
    size_t at = pos_;
    if (accept_keyword("NOT")) {
      auto e = std::make_unique<Expr>();
      e->kind = Expr::Kind::Not;
      e->column = column(at);
      nest(at);
      e->children.push_back(parse_not());
      --nesting_;
      return e;
    }
    return parse_primary();
  }

  std::unique_ptr<Expr> parse_primary() {
    skip_blanks();
    if (pos_ >= s_.size()) fail(pos_, "expected a predicate, NOT or '(' but found the end of the query");
    if (s_[pos_] == '(') {
      size_t open = pos_++;
      nest(open);
      auto e = parse_or();
      --nesting_;
      skip_blanks();
      if (pos_ >= s_.size() || s_[pos_] != ')')
        fail(pos_, "expected AND, OR or ')' to close the '(' at column " + std::to_string(column(open)) +
                       " but found " + describe(pos_));
      ++pos_;
      return e;
    }
    std::string_view w = word_at(pos_);
    if (w.empty() || is_keyword(w) || !std::isalpha(static_cast<unsigned char>(w[0])))
      fail(pos_, "expected a predicate, NOT or '(' but found " + describe(pos_));
    return parse_comparison();
  }

  std::unique_ptr<Expr> parse_comparison() {
    auto e = std::make_unique<Expr>();
    e->kind = Expr::Kind::Compare;
    e->column = column(pos_);
    e->call = parse_call();
    skip_blanks();
    if (pos_ < s_.size() && (s_[pos_] == '>' || s_[pos_] == '<' || s_[pos_] == '=')) {
      char op = s_[pos_++];
      e->cmp = op == '>' ? Cmp::Greater : op == '<' ? Cmp::Less : Cmp::Equal;
      skip_blanks();
      size_t start = pos_;
      while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
      if (start == pos_) {
        std::string extra = (pos_ < s_.size() && (s_[pos_] == '=' || s_[pos_] == '>' || s_[pos_] == '<'))
                                ? " (the comparisons are >, < and = only)"
                                : "";
        fail(start,
             std::string("expected a non-negative integer after '") + op + "' but found " + describe(start) + extra);
      }
      if (pos_ < s_.size() && is_word_char(s_[pos_]))
        fail(start, "expected a non-negative integer after '" + std::string(1, op) + "' but found " + describe(start));
      e->value = parse_int(start, s_.substr(start, pos_ - start));
    }
    return e;
  }

  int64_t parse_int(size_t at, std::string_view digits) const {
    int64_t v = 0;
    for (char c : digits) {
      v = v * 10 + (c - '0');
      if (v > kMaxInt) fail(at, "the integer " + std::string(digits) + " is too large");
    }
    return v;
  }

  PredicateCall parse_call() {
    size_t at = pos_;
    std::string_view name = word_at(pos_);
    pos_ += name.size();
    PredicateCall call;
    call.column = column(at);
    call.info = find_predicate(name);
    if (!call.info) {
      for (const PredicateInfo& p : all_predicates())
        if (iequals(p.name, name))
          fail(at, "unknown predicate '" + std::string(name) + "' (names are case-sensitive: did you mean '" +
                       std::string(p.name) + "'?)");
      fail(at, "unknown predicate '" + std::string(name) + "'");
    }
    const PredicateInfo& info = *call.info;
    skip_blanks();
    bool has_list = pos_ < s_.size() && s_[pos_] == '(';
    if (info.params.empty()) {
      if (has_list)
        fail(pos_, "'" + std::string(info.name) + "' takes no parameters: write '" + std::string(info.name) +
                       "' without '()'");
      return call;
    }
    if (!has_list) fail(pos_, "expected '(' and the parameters of " + signature(info) + " but found " + describe(pos_));
    ++pos_;
    for (;;) {
      skip_blanks();
      size_t param_at = pos_;
      if (call.params.size() == info.params.size())
        fail(param_at, "too many parameters: " + signature(info) + " takes " + std::to_string(info.params.size()));
      call.params.push_back(parse_param(info.params[call.params.size()]));
      skip_blanks();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ')') {
        if (call.params.size() < info.params.size())
          fail(pos_, "expected ',' and " + expected_domain(info.params[call.params.size()]) + ": " + signature(info) +
                         " takes " + std::to_string(info.params.size()) + " parameters");
        ++pos_;
        return call;
      }
      fail(pos_, "expected ',' or ')' but found " + describe(pos_));
    }
  }

  // One parameter: 'quoted', "quoted", or a bare run up to ',' or ')' with surrounding blanks trimmed.
  Param parse_param(Domain domain) {
    Param p;
    p.domain = domain;
    size_t at = pos_;
    p.column = column(at);
    std::string value;
    if (pos_ >= s_.size()) fail(pos_, "expected " + expected_domain(domain) + " but found the end of the query");
    char c = s_[pos_];
    if (c == '\'' || c == '"') {
      size_t close = s_.find(c, pos_ + 1);
      if (close == std::string_view::npos) fail(at, std::string("unterminated string: no closing ") + c);
      value = std::string(s_.substr(pos_ + 1, close - pos_ - 1));
      pos_ = close + 1;
    } else {
      size_t end = pos_;
      while (end < s_.size() && s_[end] != ',' && s_[end] != ')') {
        if (s_[end] == '(' || s_[end] == '\'' || s_[end] == '"')
          fail(end, "unexpected " + describe(end) + " in an unquoted parameter: put the value in quotes");
        ++end;
      }
      size_t last = end;
      while (last > pos_ && is_blank(s_[last - 1])) --last;
      value = std::string(s_.substr(pos_, last - pos_));
      pos_ = end;
      if (value.empty()) fail(at, "expected " + expected_domain(domain) + " but found " + describe(at));
    }
    if (value == "*") {
      p.wildcard = true;
      return p;
    }
    validate(p, value, at);
    return p;
  }

  void validate(Param& p, const std::string& v, size_t at) const {
    auto bad = [&]() { fail(at, "expected " + expected_domain(p.domain) + " but found '" + v + "'"); };
    switch (p.domain) {
      case Domain::String: {
        p.text = v;
        return;
      }
      case Domain::Integer: {
        if (v.empty()) bad();
        for (char c : v)
          if (!is_digit(c)) bad();
        p.integer = parse_int(at, v);
        return;
      }
      case Domain::Boolean: {
        if (iequals(v, "true"))
          p.boolean = true;
        else if (iequals(v, "false"))
          p.boolean = false;
        else
          bad();
        return;
      }
      case Domain::Color: {
        std::string l = lower(v);
        if (l != "w" && l != "b" && l != "n") bad();
        p.color = l[0];
        return;
      }
      case Domain::Piece: {
        auto piece = parse_piece(v);
        if (!piece) bad();
        p.piece = *piece;
        return;
      }
      case Domain::RefType: {
        std::string l = lower(v);
        static const char* kinds[] = {"author", "judge", "source", "reprint", "tourney", "keyword"};
        for (const char* k : kinds)
          if (l == k) {
            p.text = l;
            return;
          }
        bad();
        return;
      }
      case Domain::Transformations: {
        static const char* kinds[] = {"All", "Mirror", "None"};
        for (const char* k : kinds)
          if (iequals(v, k)) {
            p.text = k;
            return;
          }
        bad();
        return;
      }
      case Domain::Date: {
        static const text::Regex re("([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?");
        std::vector<text::RegexGroup> m;
        if (!re.match_whole(v, &m)) bad();
        auto number = [&](size_t i) { return m[i].matched() ? std::stoi(std::string(m[i].in(v))) : 0; };
        p.date.year = number(1);
        p.date.month = number(2);
        p.date.day = number(3);
        if (p.date.month && !valid_date(p.date.year, p.date.month, p.date.day ? p.date.day : 1))
          fail(at, "'" + v + "' is not a valid date");
        return;
      }
    }
  }
};

// Byte offset of code-point column `col` (1-based) in s.
size_t offset_of_column(std::string_view s, int col) {
  int c = 1;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (c == col) return i;
    ++c;
  }
  return s.size();
}

// Column of byte `offset` inside the value of parameter p (after its opening quote, if any).
int value_column(std::string_view query, const Param& p, size_t offset) {
  size_t at = offset_of_column(query, p.column);
  int col = p.column;
  if (at < query.size() && (query[at] == '\'' || query[at] == '"')) {
    ++at;
    ++col;
  }
  for (size_t i = 0; i < offset && at + i < query.size(); ++i)
    if ((static_cast<unsigned char>(query[at + i]) & 0xC0) != 0x80) ++col;
  return col;
}

// Validates the STRING parameters that carry a syntax of their own: piece lists and Stip's regex.
void check_contents(std::string_view query, const Expr& e) {
  for (const auto& c : e.children) check_contents(query, *c);
  if (e.kind != Expr::Kind::Compare || e.call.params.empty()) return;
  const Param& p = e.call.params[0];
  if (p.wildcard) return;
  switch (e.call.info->id) {
    case PredicateId::With: {
      auto list = parse_piece_list(p.text);
      if (list.error) throw QueryError(value_column(query, p, list.error->offset), list.error->message);
      break;
    }
    case PredicateId::Matrix:
    case PredicateId::MatrixExtended: {
      auto list = parse_placement_list(p.text);
      if (list.error) throw QueryError(value_column(query, p, list.error->offset), list.error->message);
      break;
    }
    case PredicateId::Stip: {
      try {
        text::Regex re(p.text, /*ignore_case=*/true);
      } catch (const text::RegexError&) {
        throw QueryError(p.column, "'" + p.text + "' is not a valid regular expression");
      }
      break;
    }
    default: break;
  }
}

std::string quote(const std::string& s) {
  if (s.find('"') == std::string::npos) return '"' + s + '"';
  return '\'' + s + '\'';
}

}  // namespace

Query parse_query(std::string_view text) {
  Query q = Parser(text).parse();
  check_contents(text, *q.root);
  return q;
}

std::string to_string(const Param& p) {
  if (p.wildcard) return "*";
  switch (p.domain) {
    case Domain::String: return quote(p.text);
    case Domain::Integer: return std::to_string(p.integer);
    case Domain::Boolean: return p.boolean ? "true" : "false";
    case Domain::Color: return std::string(1, p.color);
    case Domain::Piece: return to_string(p.piece);
    case Domain::RefType:
    case Domain::Transformations: return p.text;
    case Domain::Date: {
      char buf[32];
      if (p.date.day)
        snprintf(buf, sizeof buf, "%04d-%02d-%02d", p.date.year, p.date.month, p.date.day);
      else if (p.date.month)
        snprintf(buf, sizeof buf, "%04d-%02d", p.date.year, p.date.month);
      else
        snprintf(buf, sizeof buf, "%04d", p.date.year);
      return buf;
    }
  }
  return "?";
}

std::string to_string(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::Compare: {
      std::string s(e.call.info->name);
      if (!e.call.params.empty()) {
        s += '(';
        for (size_t i = 0; i < e.call.params.size(); ++i) {
          if (i) s += ", ";
          s += to_string(e.call.params[i]);
        }
        s += ')';
      }
      if (e.cmp == Cmp::Greater && e.value == 0) return s;
      s += e.cmp == Cmp::Greater ? " > " : e.cmp == Cmp::Less ? " < " : " = ";
      return s + std::to_string(e.value);
    }
    case Expr::Kind::Not: {
      const Expr& c = *e.children[0];
      bool paren = c.kind == Expr::Kind::And || c.kind == Expr::Kind::Or;
      return "NOT " + (paren ? "(" + to_string(c) + ")" : to_string(c));
    }
    case Expr::Kind::And:
    case Expr::Kind::Or: {
      std::string s;
      for (size_t i = 0; i < e.children.size(); ++i) {
        if (i) s += e.kind == Expr::Kind::And ? " AND " : " OR ";
        const Expr& c = *e.children[i];
        bool paren = e.kind == Expr::Kind::And && c.kind == Expr::Kind::Or;
        s += paren ? "(" + to_string(c) + ")" : to_string(c);
      }
      return s;
    }
  }
  return "?";
}

std::string to_string(const Query& q) { return q.root ? to_string(*q.root) : std::string(); }

}  // namespace cqlindex::yacpdb
