#include "popeye_output.h"

#include <regex>
#include <sstream>

namespace cqlindex::yacpdb::testing {

namespace {

const std::string kBorder = "+---a---b---c---d---e---f---g---h---+";

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// Reads the 8 rank lines of a board; false when a square holds something we cannot read.
bool read_board(const std::vector<std::string>& lines, size_t top, Entry& e, bool& orthodox) {
  for (int row = 0; row < 8; ++row) {
    size_t i = top + 2 + 2 * row;
    if (i >= lines.size()) return false;
    const std::string& line = lines[i];
    int rank = 7 - row;
    if (line.empty() || line[0] != char('1' + rank)) return false;
    for (int file = 0; file < 8; ++file) {
      size_t end = 4 * (file + 1);  // the piece code ends at this column
      if (end >= line.size()) return false;
      std::string cell = line.substr(end - 3, 4);
      std::string t = trim(cell);
      if (t == ".") continue;
      char color = 'w';
      if (t[0] == '-')
        color = 'b', t = t.substr(1);
      else if (t[0] == '=')
        color = 'n', t = t.substr(1);
      if (t.empty()) return false;
      e.pieces.push_back(DiagramPiece{color, t, {}, rank * 8 + file});
      if (color == 'n' || t.size() != 1 || std::string("KQRBSP").find(t[0]) == std::string::npos) orthodox = false;
    }
    // the line under each rank shows piece attributes (royal, hunters, ...): must be empty
    const std::string& under = lines[i + 1];
    if (trim(under) != "|                                   |" && trim(under) != "|") orthodox = false;
  }
  return true;
}

}  // namespace

std::vector<PopeyeProblem> read_popeye_output(const std::string& text, const std::string& file) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  static const std::regex plain_stip("(ser-)?(h|s|r|hs)?[#=][0-9]+(\\.5)?");
  static const std::regex stat_line("\\s*[A-Za-z_ ]+:\\s+[0-9]+\\s*");
  static const std::regex trace_line("\\s*[0-9]+(:[0-9]+)*\\s+\\(.*\\)\\s*");  // option movenum
  std::vector<PopeyeProblem> out;
  size_t i = 0;
  while (i < lines.size()) {
    // a block: top border, 8 ranks, bottom border, stipulation line, conditions, blank, solution
    if (trim(lines[i]) != kBorder) {
      ++i;
      continue;
    }
    size_t top = i;
    size_t bottom = top + 18;
    if (bottom >= lines.size() || trim(lines[bottom]) != kBorder) {
      ++i;
      continue;
    }
    PopeyeProblem p;
    p.orthodox = true;
    p.entry.file = file;
    p.entry.line = static_cast<int>(top + 1);
    if (!read_board(lines, top, p.entry, p.orthodox)) p.orthodox = false;
    size_t j = bottom + 1;
    std::istringstream stip_line(j < lines.size() ? lines[j] : "");
    std::string stip, count_white, plus, count_black, more;
    stip_line >> stip >> count_white >> plus >> count_black >> more;
    p.entry.stipulation = stip;
    // "2 + 3" only: a third count ("+ 4 TI") means neutral or invisible pieces
    if (!std::regex_match(stip, plain_stip) || plus != "+" || count_black.empty() || !more.empty()) p.orthodox = false;
    int kings = 0;
    for (const DiagramPiece& d : p.entry.pieces) kings += d.code == "K";
    if (kings != 2) p.orthodox = false;
    for (++j; j < lines.size() && !trim(lines[j]).empty(); ++j) p.conditions.push_back(trim(lines[j]));
    if (!p.conditions.empty()) p.orthodox = false;
    std::string solution;
    for (; j < lines.size() && trim(lines[j]) != "solution finished." && trim(lines[j]) != "Partial solution" &&
           trim(lines[j]) != kBorder;
         ++j) {
      // solver statistics, progress and trace lines are not solution text
      if (std::regex_match(lines[j], stat_line) || std::regex_match(lines[j], trace_line)) continue;
      if (lines[j].find("potential positions in") != std::string::npos) continue;
      if (lines[j].find("the side to play can capture the king") != std::string::npos) {
        p.orthodox = false;  // an illegal diagram: Popeye solves nothing
        continue;
      }
      solution += lines[j] + "\n";
    }
    p.entry.solution = solution;
    out.push_back(std::move(p));
    i = j;
  }
  return out;
}

}  // namespace cqlindex::yacpdb::testing
