// libFuzzer target: the PGN reader (splitter + parser + replay) and the writer on arbitrary bytes.
// Every game must parse without a crash, hang or sanitizer report, and the writer must accept what the
// reader produced.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/pgn/reader.h"
#include "engine/pgn/writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  cqlindex::pgn::GameReader reader(text);
  cqlindex::pgn::Game game;
  std::string out;
  while (reader.next(game)) {
    out.clear();
    cqlindex::pgn::write_game(game, {}, {}, out);
  }
  cqlindex::pgn::ParseOptions mainline;
  mainline.mainline_only = true;
  cqlindex::pgn::GameReader fast(text, mainline);
  while (fast.next(game)) {
  }
  return 0;
}
