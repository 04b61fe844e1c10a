// libFuzzer target: lex + parse + bind arbitrary bytes as a CQL file, then print the tree both ways and
// re-parse the printed CQL (it must parse to the same tree). Seeds: the 406 corpus queries.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/cql/error.h"
#include "engine/cql/printer.h"
#include "engine/cql/query.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 20000) return 0;  // keep runs fast; real queries are a few KB
  std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace cqlindex::cql;
  Query q;
  try {
    q = parse_query(text);
  } catch (const CqlError&) {
    return 0;  // a clean rejection is fine
  }
  std::string canonical = print_canonical(q);
  std::string printed = print_cql(q);
  try {
    Query again = parse_query(printed);
    if (print_canonical(again) != canonical) std::abort();  // round trip must be exact
  } catch (const CqlError&) {
    std::abort();  // printed CQL must parse
  }
  return 0;
}
