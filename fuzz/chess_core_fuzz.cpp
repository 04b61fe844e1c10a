// libFuzzer target: the chess core. A FEN (first line), then move tokens: every parsed move must print as SAN
// that parses back to itself, keep the Zobrist key consistent, and the final FEN must round-trip; perft 2 runs.
#include <cstdint>
#include <string>
#include <string_view>
#include "engine/chess/movegen.h"
#include "engine/chess/perft.h"
#include "engine/chess/san.h"
using namespace cqlindex::chess;
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  size_t nl = in.find('\n');
  std::string_view fen = in.substr(0, nl);
  std::string_view rest = nl == std::string_view::npos ? std::string_view() : in.substr(nl + 1);
  std::string err;
  auto p = Position::from_fen(fen, &err);
  Position pos = p ? *p : Position::start();
  size_t i = 0;
  while (i < rest.size()) {
    size_t j = rest.find(' ', i);
    if (j == std::string_view::npos) j = rest.size();
    std::string_view tok = rest.substr(i, j - i);
    i = j + 1;
    SanError e;
    Move m = parse_move(pos, tok, &e);
    if (e != SanError::None) continue;
    if (!m.is_null()) {
      std::string san = to_san(pos, m);
      if (parse_move(pos, san) != m) __builtin_trap();
    }
    pos.do_move(m);
    if (pos.key() != pos.compute_key()) __builtin_trap();
  }
  auto again = Position::from_fen(pos.fen());
  if (!again || again->fen() != pos.fen()) __builtin_trap();
  (void)perft(pos, 2);
  return 0;
}
