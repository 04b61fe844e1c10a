// String filters: regex groups (\1, \-1), s[i] and s[i:j] (and assignment to them), indexof, uppercase /
// lowercase, int, ascii, str(...), readfile / writefile, message, settag, typename / piecename.
#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>

#include "engine/chess/position.h"
#include "engine/cql/error.h"
#include "engine/cql/eval/context.h"
#include "engine/cql/eval/evaluator.h"

namespace cqlindex::cql::eval {
namespace {

// The text of the arguments as comment writes them (an argument without a value as "<false>").
void args_text(const Op& op, Ctx& ctx, std::string& text) {
  for (const auto& k : op.kids) {
    Value x;
    bool ok = evaluate_argument(*k, ctx, x);
    text += value_text(*k, ctx, x, ok);
  }
}

// The range [from, to) that s[i] or s[i:j] names in a string of length n; false when s[i] is outside it. As in
// CQL 6.2 a negative index counts from the end, and a range is clamped to the string (empty when j <= i).
bool index_range(const Op& op, Ctx& ctx, size_t n, size_t& from, size_t& to) {
  const int64_t len = int64_t(n);
  Value a, b;
  int64_t i = 0, j = len;
  if (op.kids[1]) {
    if (!evaluate(*op.kids[1], ctx, a)) return false;
    i = a.num < 0 ? a.num + len : a.num;
  }
  if (!op.flag) {
    if (i < 0 || i >= len) return false;
    from = size_t(i);
    to = from + 1;
    return true;
  }
  if (op.kids[2]) {
    if (!evaluate(*op.kids[2], ctx, b)) return false;
    j = b.num < 0 ? b.num + len : b.num;
  }
  i = std::clamp<int64_t>(i, 0, len);
  j = std::clamp<int64_t>(j, i, len);
  from = size_t(i);
  to = size_t(j);
  return true;
}

}  // namespace

void set_captures(Ctx& ctx, std::string_view subject, const std::vector<text::RegexGroup>& groups) {
  ctx.captures.resize(groups.size());
  ctx.capture_at.resize(groups.size());
  for (size_t i = 0; i < groups.size(); ++i) {
    const text::RegexGroup& g = groups[i];
    ctx.captures[i] = g.matched() ? std::string(subject.substr(size_t(g.begin), size_t(g.end - g.begin))) : std::string();
    ctx.capture_at[i] = g.matched() ? int64_t(g.begin) : -1;
  }
}

bool regex_search_at(const Op& op, std::string_view subject, std::vector<text::RegexGroup>& groups) {
  try {
    return op.regex->search(subject, &groups);
  } catch (const text::RegexTooCostly& e) {
    throw CqlError(e.what(), op.line, op.column);
  }
}

bool eval_string(const Op& op, Ctx& ctx, Value& v) {
  Value x, y;
  switch (op.code) {
    case OpCode::GroupRef: {
      const size_t g = size_t(op.a);
      if (g >= ctx.captures.size() || ctx.capture_at[g] < 0) return false;
      if (op.flag) v.num = ctx.capture_at[g];
      else v.str = ctx.captures[g];
      return true;
    }
    case OpCode::Substring: {
      if (!evaluate(*op.kids[0], ctx, x)) return false;
      size_t from, to;
      if (!index_range(op, ctx, x.str.size(), from, to)) return false;
      v.str = x.str.substr(from, to - from);
      return true;
    }
    case OpCode::SubstringAssign: {
      const Op& target = *op.kids[0];
      if (!evaluate(target, ctx, x) || !evaluate(*op.kids[3], ctx, y)) return false;
      size_t from, to;
      if (!index_range(op, ctx, x.str.size(), from, to)) return false;
      Value& var = ctx.vars[size_t(target.var)];
      var.str = x.str.substr(0, from) + y.str + x.str.substr(to);
      return true;
    }
    case OpCode::IndexOf: {  // indexof(a b): where a first occurs in b
      if (!evaluate(*op.kids[0], ctx, x) || !evaluate(*op.kids[1], ctx, y)) return false;
      size_t at = y.str.find(x.str);
      if (at == std::string::npos) return false;
      v.num = int64_t(at);
      return true;
    }
    case OpCode::CaseConvert:
      if (!evaluate(*op.kids[0], ctx, x)) return false;
      v.str = x.str;
      for (char& c : v.str) c = char(op.flag ? std::toupper((unsigned char)c) : std::tolower((unsigned char)c));
      // used as a filter (mark_case_filters), CQL 6.2 matches only a string the conversion leaves unchanged
      return op.b == 0 || v.str == x.str;
    case OpCode::StringToInt: {  // the whole string must be a decimal integer
      if (!evaluate(*op.kids[0], ctx, x) || x.str.empty()) return false;
      const char* end = x.str.data() + x.str.size();
      auto r = std::from_chars(x.str.data(), end, v.num);
      return r.ec == std::errc() && r.ptr == end;
    }
    case OpCode::Ascii:
      if (!evaluate(*op.kids[0], ctx, x)) return false;
      if (op.kids[0]->type == ValueType::String) {  // the code of a one-character string
        if (x.str.size() != 1) return false;
        v.num = (unsigned char)x.str[0];
        return true;
      }
      if (x.num < 0 || x.num > 255) return false;
      v.str = std::string(1, char(x.num));
      return true;
    case OpCode::ToString:
      v.str.clear();  // v may hold the value of an earlier evaluation (sort evaluates into one Value per position)
      args_text(op, ctx, v.str);
      return true;
    case OpCode::ReadFile: {  // CQL 6.2 stops the run on a name of another extension or a file it cannot open
      if (!evaluate(*op.kids[0], ctx, x)) return false;
      std::string extension = x.str.size() >= 4 ? x.str.substr(x.str.size() - 4) : "";
      for (char& c : extension) c = char(std::tolower((unsigned char)c));
      if (extension != ".cqo" && extension != ".pgn" && extension != ".cql")
        throw CqlError("Invalid filename for 'readfile'. Filename must have extension '.cqo', '.pgn', or '.cql' but "
                       "got filename: " + x.str, op.line, op.column);
      std::ifstream in(x.str, std::ios::binary);
      if (!in) throw CqlError("Unable to open file: " + x.str, op.line, op.column);
      std::ostringstream text;
      text << in.rdbuf();
      v.str = text.str();
      return true;
    }
    case OpCode::WriteFile: {  // the first write of a run creates the file afresh, later ones append
      if (!evaluate(*op.kids[0], ctx, x) || !evaluate(*op.kids[1], ctx, y)) return false;
      auto& written = ctx.state->written_files;
      const bool first = std::find(written.begin(), written.end(), x.str) == written.end();
      std::ofstream out(x.str, std::ios::binary | (first ? std::ios::trunc : std::ios::app));
      if (!out) return false;
      out << y.str;
      if (first) written.push_back(x.str);
      return bool(out);
    }
    case OpCode::Message: {
      std::string text;
      args_text(op, ctx, text);
      // CQL 6.2's prefix "Game: N move M(wtm): "; off the main line it names the position "[N]" and labels it
      // "id:N" in the game (set-A q00201)
      if (!op.flag)
        text = "Game: " + std::to_string(ctx.game_number) + " " + position_reference(ctx, ctx.cur) + ": " + text;
      ctx.messages.push_back(std::move(text));
      return true;
    }
    case OpCode::SetTag:  // settag("Name" value): the tag is set in the game as written to the output
      if (!evaluate(*op.kids[0], ctx, x)) return false;
      if (!ctx.prog->options.nosettag) ctx.set_tags.emplace_back(op.text, x.str);
      return true;
    default: return false;
  }
}

void mark_case_filters(Op& op) {
  const bool filters = op.code == OpCode::Compound || op.code == OpCode::And || op.code == OpCode::Or ||
                       op.code == OpCode::Not;
  for (size_t i = 0; i < op.kids.size(); ++i) {
    Op* k = op.kids[i].get();
    if (!k) continue;
    if (k->code == OpCode::CaseConvert && (filters || (op.code == OpCode::If && i == 0))) k->b = 1;
    mark_case_filters(*k);
  }
}

}  // namespace cqlindex::cql::eval
