#include "engine/yacpdb/yaml_entries.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <fstream>
#include <sstream>

namespace cqlindex::yacpdb {

namespace {

struct Document {
  std::string text;
  int first_line = 1;  // 1-based line of the document's first line in the file
};

bool is_marker(std::string_view line, std::string_view marker) {
  if (line.substr(0, marker.size()) != marker) return false;
  return line.size() == marker.size() || line[marker.size()] == ' ' || line[marker.size()] == '\t' ||
         line[marker.size()] == '\r';
}

// Splits a multi-document stream at its "---" / "..." lines (they can only stand at column 0 outside scalars).
std::vector<Document> split_documents(std::string_view text) {
  std::vector<Document> docs;
  Document cur;
  bool has_content = false;
  int line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view line = text.substr(pos, end - pos);
    ++line_no;
    std::string_view bare = line;
    while (!bare.empty() && (bare.back() == '\n' || bare.back() == '\r')) bare.remove_suffix(1);
    if (is_marker(bare, "---") || is_marker(bare, "...")) {
      if (has_content) docs.push_back(std::move(cur));
      cur = Document{};
      cur.first_line = line_no + 1;
      has_content = false;
      // "--- value" keeps the rest of the line as content
      if (bare.size() > 3 && bare[0] == '-') {
        cur.text = std::string(bare.substr(4)) + "\n";
        cur.first_line = line_no;
        has_content = bare.find_first_not_of(" \t", 4) != std::string_view::npos;
      }
    } else {
      if (!has_content && cur.text.empty()) cur.first_line = line_no;
      cur.text += line;
      if (bare.find_first_not_of(" \t") != std::string_view::npos && bare[bare.find_first_not_of(" \t")] != '#')
        has_content = true;
    }
    pos = end;
  }
  if (has_content) docs.push_back(std::move(cur));
  return docs;
}

std::string scalar(const YAML::Node& n) {
  if (!n || !n.IsScalar()) return {};
  return n.Scalar();
}

std::vector<std::string> scalar_list(const YAML::Node& n) {
  std::vector<std::string> out;
  if (!n) return out;
  if (n.IsScalar()) {
    out.push_back(n.Scalar());
  } else if (n.IsSequence()) {
    for (const auto& item : n)
      if (item.IsScalar()) out.push_back(item.Scalar());
  }
  return out;
}

std::string where(const Entry& e, const YAML::Node& n, int doc_line) {
  YAML::Mark m = n ? n.Mark() : YAML::Mark::null_mark();
  int line = m.line >= 0 ? doc_line + m.line : doc_line;
  int col = m.column >= 0 ? m.column + 1 : 1;
  (void)e;
  return std::to_string(line) + ":" + std::to_string(col);
}

int to_int(const std::string& s) {
  if (s.empty() || s.size() > 6) return 0;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
  return std::stoi(s);
}

// "2007", "2007-05-05", "1965-1967" (a span: its first year).
EntryDate parse_date_text(const std::string& s) {
  EntryDate d;
  d.year = to_int(s.substr(0, 4));
  if (s.size() >= 7 && s[4] == '-' && s.size() != 9) d.month = to_int(s.substr(5, 2));
  if (s.size() >= 10 && s[7] == '-') d.day = to_int(s.substr(8, 2));
  return d;
}

void read_source(Entry& e, const YAML::Node& doc) {
  YAML::Node src = doc["source"];
  if (src && src.IsMap()) {
    e.source = scalar(src["name"]);
    e.issue_id = scalar(src["issue"]);
    e.source_id = scalar(src["problemid"]);
    YAML::Node date = src["date"];
    if (date && date.IsMap()) {
      e.date.year = to_int(scalar(date["year"]).substr(0, 4));
      e.date.month = to_int(scalar(date["month"]));
      e.date.day = to_int(scalar(date["day"]));
    }
  } else if (src && src.IsScalar()) {  // entry format 1.0: source, date and source-id side by side
    e.source = src.Scalar();
  }
  if (e.source_id.empty()) e.source_id = scalar(doc["source-id"]);
  if (!e.date.year && doc["date"] && doc["date"].IsScalar()) e.date = parse_date_text(doc["date"].Scalar());
}

void read_award(Entry& e, const YAML::Node& doc) {
  YAML::Node award = doc["award"];
  if (award && award.IsMap()) {
    YAML::Node tourney = award["tourney"];
    if (tourney && tourney.IsMap())
      e.tourney = scalar(tourney["name"]);
    else
      e.tourney = scalar(tourney);
    e.distinction = scalar(award["distinction"]);
    e.judges = scalar_list(award["judges"]);
  }
  if (e.distinction.empty()) e.distinction = scalar(doc["distinction"]);
}

void read_algebraic(Entry& e, const YAML::Node& doc, int doc_line) {
  YAML::Node alg = doc["algebraic"];
  if (!alg || !alg.IsMap()) {
    e.problems.push_back(where(e, alg ? alg : doc, doc_line) + ": no 'algebraic' mapping (the diagram)");
    return;
  }
  for (const auto& kv : alg) {
    std::string side = scalar(kv.first);
    char color = side == "white" ? 'w' : side == "black" ? 'b' : side == "neutral" ? 'n' : 0;
    if (!color) {
      e.problems.push_back(where(e, kv.first, doc_line) + ": unknown side '" + side + "' in 'algebraic'");
      continue;
    }
    if (!kv.second.IsSequence()) continue;
    for (const auto& item : kv.second) {
      DiagramPiece p;
      if (item.IsScalar() && parse_algebraic_piece(item.Scalar(), color, p))
        e.pieces.push_back(p);
      else
        e.problems.push_back(where(e, item, doc_line) + ": cannot read piece '" + scalar(item) + "'");
    }
  }
}

void read_document(const Document& doc_text, const std::string& file, YamlReadResult& out) {
  YAML::Node doc;
  try {
    doc = YAML::Load(doc_text.text);
  } catch (const YAML::Exception& ex) {
    int line = doc_text.first_line + (ex.mark.line >= 0 ? ex.mark.line : 0);
    int col = ex.mark.column >= 0 ? ex.mark.column + 1 : 1;
    out.errors.push_back(file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + ex.msg);
    return;
  }
  if (!doc.IsMap()) {
    out.errors.push_back(file + ":" + std::to_string(doc_text.first_line) + ":1: not a YACPDB entry (a mapping)");
    return;
  }
  Entry e;
  e.file = file;
  e.number = static_cast<int>(out.entries.size()) + 1;
  e.line = doc_text.first_line;
  e.text = doc_text.text;
  try {
    read_algebraic(e, doc, doc_text.first_line);
    e.stipulation = scalar(doc["stipulation"]);
    if (e.stipulation.empty()) e.problems.push_back(where(e, doc, doc_text.first_line) + ": no 'stipulation'");
    e.authors = scalar_list(doc["authors"]);
    e.options = scalar_list(doc["options"]);
    e.keywords = scalar_list(doc["keywords"]);
    e.comments = scalar_list(doc["comments"]);
    e.intended_solutions = scalar(doc["intended-solutions"]);
    e.solution = scalar(doc["solution"]);
    read_source(e, doc);
    read_award(e, doc);
    if (YAML::Node reprints = doc["reprints"]; reprints && reprints.IsSequence())
      for (const auto& r : reprints) {
        std::string name = r.IsMap() ? scalar(r["name"]) : scalar(r);
        if (!name.empty()) e.reprints.push_back(name);
      }
    YAML::Node twins = doc["twins"];
    if (twins && twins.IsMap())
      for (const auto& kv : twins) e.twins.emplace_back(scalar(kv.first), scalar(kv.second));
    if (YAML::Node id = doc["id"]; id && id.IsScalar() && to_int(id.Scalar())) e.id = std::stoll(id.Scalar());
  } catch (const YAML::Exception& ex) {  // a field of an unexpected shape: keep what was read
    e.problems.push_back(std::to_string(doc_text.first_line) + ":1: " + ex.msg);
  }
  out.entries.push_back(std::move(e));
}

}  // namespace

bool parse_algebraic_piece(std::string_view text, char color, DiagramPiece& out) {
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  size_t space = text.rfind(' ');
  std::string_view specs = space == std::string_view::npos ? std::string_view() : text.substr(0, space);
  std::string_view item = space == std::string_view::npos ? text : text.substr(space + 1);
  if (item.size() < 3 || item.size() > 4) return false;
  char f = static_cast<char>(std::tolower(static_cast<unsigned char>(item[item.size() - 2])));
  char r = item.back();
  if (f < 'a' || f > 'h' || r < '1' || r > '8') return false;
  std::string code;
  for (char c : item.substr(0, item.size() - 2)) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
    code += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  if (!std::isalpha(static_cast<unsigned char>(code[0]))) return false;
  out.color = color;
  out.code = code;
  out.specs = std::string(specs);
  out.square = (r - '1') * 8 + (f - 'a');
  return true;
}

YamlReadResult read_yaml_entries(std::string_view text, const std::string& file) {
  YamlReadResult out;
  for (const Document& d : split_documents(text)) read_document(d, file, out);
  return out;
}

YamlReadResult read_yaml_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    YamlReadResult out;
    out.errors.push_back(path + ": cannot open the file");
    return out;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return read_yaml_entries(ss.str(), path);
}

}  // namespace cqlindex::yacpdb
