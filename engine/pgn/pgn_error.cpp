// Formatting of reader errors as "file:line:col: game N: message".
#include "engine/pgn/pgn_error.h"

namespace cqlindex::pgn {

std::string format_error(std::string_view file, const PgnError& e) {
  std::string s;
  s.reserve(file.size() + e.message.size() + 48);
  s.append(file);
  s += ':' + std::to_string(e.line) + ':' + std::to_string(e.col) + ": game " + std::to_string(e.game) + ": ";
  if (e.severity == Severity::Warning) s += "warning: ";
  if (e.severity == Severity::Skipped) s += "skipped: ";
  s += e.message;
  return s;
}

}  // namespace cqlindex::pgn
