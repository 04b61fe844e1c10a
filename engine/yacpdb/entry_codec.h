// The metadata of an entry as bytes, for the index (yacpdb family): what the metadata predicates read (diagram,
// stipulation, people, sources, dates, options, keywords, id, the entry's text), never the solution.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "engine/yacpdb/entry.h"

namespace cqlindex::yacpdb {

// Returns the metadata fields of `e` as bytes (varint lengths and numbers, in a fixed order); its text only
// `with_text` (else written as empty: the index keeps texts apart, only Text() reads them).
std::string encode_entry_metadata(const Entry& e, bool with_text = true);

// Returns the entry encode_entry_metadata() wrote (solution, twins and read problems left empty), or nullopt when
// the bytes are not one. Without `with_text` the entry's text (only Text() reads it, and it is most of the
// bytes), without `with_pieces` its diagram pieces (only the diagram predicates read them, and they are most of
// the memory) are checked but left empty.
std::optional<Entry> decode_entry_metadata(std::string_view bytes, bool with_text = true, bool with_pieces = true);

}  // namespace cqlindex::yacpdb
