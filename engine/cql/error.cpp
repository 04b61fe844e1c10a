// Error formatting: "FILE:LINE:COL: message", the offending line and a caret under the column.
#include "engine/cql/error.h"

namespace cqlindex::cql {

std::string format_error(const CqlError& e, const std::string& file, const std::string& source) {
  if (e.line <= 0) return file + ": " + e.what() + "\n";
  std::string out = file + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.what() + "\n";
  size_t start = 0;
  for (int l = 1; l < e.line && start != std::string::npos; ++l) {
    start = source.find('\n', start);
    if (start != std::string::npos) ++start;
  }
  if (start == std::string::npos || start > source.size()) return out;
  size_t end = source.find('\n', start);
  std::string text = source.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (!text.empty() && text.back() == '\r') text.pop_back();
  out += text + "\n";
  // caret: keep tabs so it lines up, count code points
  std::string pad;
  int col = 1;
  for (size_t i = 0; i < text.size() && col < e.column; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;
    pad += c == '\t' ? '\t' : ' ';
    ++col;
  }
  while (col++ < e.column) pad += ' ';
  return out + pad + "^\n";
}

}  // namespace cqlindex::cql
