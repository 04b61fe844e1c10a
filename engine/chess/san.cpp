#include "engine/chess/san.h"

namespace cqlindex::chess {

const char* san_error_name(SanError e) {
  switch (e) {
    case SanError::None: return "none";
    case SanError::Syntax: return "syntax";
    case SanError::Illegal: return "illegal";
    case SanError::Ambiguous: return "ambiguous";
  }
  return "?";
}

}  // namespace cqlindex::chess
