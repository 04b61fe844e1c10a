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

// The text of the arguments as comment writes them; false when an argument with a value fails.
bool args_text(const Op& op, Ctx& ctx, std::string& text) {
  for (const auto& k : op.kids) {
    Value x;
    bool ok = evaluate(*k, ctx, x);
    if (!ok && k->type != ValueType::Logical && k->type != ValueType::Set) return false;
    text += value_text(*k, ctx, x, ok);
  }
  return true;
}

// The range [from, to) that s[i] or s[i:j] names in a string of length n; false when outside it.
bool index_range(const Op& op, Ctx& ctx, size_t n, size_t& from, size_t& to) {
  Value a, b;
  int64_t i = 0, j = int64_t(n);
  if (op.kids[1]) {
    if (!evaluate(*op.kids[1], ctx, a)) return false;
    i = a.num;
  }
  if (!op.flag) {
    j = i + 1;
  } else if (op.kids[2]) {
    if (!evaluate(*op.kids[2], ctx, b)) return false;
    j = std::min<int64_t>(b.num, int64_t(n));
  }
  if (i < 0 || i > j || j > int64_t(n) || (!op.flag && i >= int64_t(n))) return false;
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
      return args_text(op, ctx, v.str);
    case OpCode::ReadFile: {
      if (!evaluate(*op.kids[0], ctx, x)) return false;
      std::ifstream in(x.str, std::ios::binary);
      if (!in) return false;
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
      if (!args_text(op, ctx, text)) return false;
      // off the main line CQL 6.2 names the position "[N]" and labels it "id:N" in the game (set-A q00201)
      if (!op.flag)
        text = "Game number " + std::to_string(ctx.game_number) + ", " + position_reference(ctx, ctx.cur) + ": " + text;
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
