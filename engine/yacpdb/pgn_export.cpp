#include "engine/yacpdb/pgn_export.h"

#include "engine/chess/san.h"

namespace cqlindex::yacpdb {

namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n' || c == '\r') c = ' ';
    out += c;
  }
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : "; ") + s;
  return out;
}

std::string pgn_date(const EntryDate& d) {
  std::string out = "????.??.??";
  auto put = [&](size_t at, int value, int width) {
    for (int i = width - 1; i >= 0; --i, value /= 10) out[at + i] = static_cast<char>('0' + value % 10);
  };
  if (d.year > 0 && d.year < 10000) put(0, d.year, 4);
  if (d.month > 0 && d.month < 100) put(5, d.month, 2);
  if (d.day > 0 && d.day < 100) put(8, d.day, 2);
  return out;
}

// Comments may not hold '}'.
std::string comment(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '}' ? ')' : c;
  return "{" + out + "}";
}

class MovetextWriter {
 public:
  explicit MovetextWriter(const SolutionTree& t) : t_(t) {}

  // The movetext under node `from` (whose position is the start).
  std::string write(int32_t from) {
    out_.clear();
    need_number_ = true;
    line(from);
    return out_;
  }

 private:
  const SolutionTree& t_;
  std::string out_;
  bool need_number_ = true;

  void token(const std::string& s) {
    if (!out_.empty() && out_.back() != '(' && out_.back() != ' ') out_ += ' ';
    out_ += s;
  }

  void move(int32_t parent, int32_t child) {
    const chess::Position& pos = t_.nodes[parent].position;
    std::string num = std::to_string(pos.fullmove_number());
    if (pos.side_to_move() == chess::WHITE)
      token(num + ".");
    else if (need_number_)
      token(num + "...");
    token(chess::to_san(pos, t_.nodes[child].move));
    need_number_ = false;
  }

  // The main continuation under `n`, its alternatives as variations.
  void line(int32_t n) {
    while (!t_.nodes[n].children.empty()) {
      const auto& kids = t_.nodes[n].children;
      move(n, kids[0]);
      for (size_t i = 1; i < kids.size(); ++i) {
        token("(");
        need_number_ = true;
        move(n, kids[i]);
        line(kids[i]);
        out_ += ")";
        need_number_ = true;
      }
      n = kids[0];
    }
  }
};

}  // namespace

std::string problem_to_pgn(const Problem& p) {
  const Entry& e = p.entry;
  if (e.format == Entry::Format::Pgn) {  // PGN entries keep their bytes
    std::string t = e.text;
    while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' ')) t.pop_back();
    return t + "\n\n";
  }
  std::string out;
  const SolutionTree& t = p.tree;
  std::vector<int32_t> twins = t.nodes.empty() ? std::vector<int32_t>{} : t.root().children;
  if (twins.empty()) twins.push_back(0);
  for (int32_t twin : twins) {
    const TreeNode& tw = t.nodes.empty() ? TreeNode{} : t.nodes[twin];
    std::string tags;
    auto tag = [&](const char* name, const std::string& value) {
      tags += '[';
      tags += name;
      tags += " \"";
      tags += escape(value);
      tags += "\"]\n";
    };
    tag("Event", e.source.empty() ? "?" : e.source);
    tag("Site", "?");
    tag("Date", pgn_date(e.date));
    tag("Round", "?");
    tag("White", e.authors.empty() ? "?" : join(e.authors));
    tag("Black", "?");
    tag("Result", "*");
    if (!e.authors.empty()) tag("Composer", join(e.authors));
    if (!e.source.empty()) tag("Source", e.source);
    if (!e.stipulation.empty()) tag("Stipulation", e.stipulation);
    if (!e.options.empty()) tag("Options", join(e.options));
    if (!e.keywords.empty()) tag("Keywords", join(e.keywords));
    if (!e.distinction.empty()) tag("Award", e.distinction);
    if (!e.source_id.empty()) tag("SourceId", e.source_id);
    if (!e.issue_id.empty()) tag("IssueId", e.issue_id);
    if (e.id) tag("YacpdbId", std::to_string(*e.id));
    if (twins.size() > 1) tag("Twin", tw.label);
    std::string body;
    if (t.complete) {
      tag("SetUp", "1");
      tag("FEN", tw.position.fen());
      body = MovetextWriter(t).write(twin);
    } else {
      body = comment("solution not replayed: " + t.error + (e.solution.empty() ? "" : "; " + e.solution));
    }
    out += tags + "\n" + (body.empty() ? "" : body + " ") + "*\n\n";
  }
  return out;
}

}  // namespace cqlindex::yacpdb
