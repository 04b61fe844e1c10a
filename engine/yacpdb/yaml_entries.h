// Reads YACPDB entries from YAML: one entry, or a multi-document collection (Olive's .olv files).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/yacpdb/entry.h"

namespace cqlindex::yacpdb {

struct YamlReadResult {
  std::vector<Entry> entries;       // every document that is a mapping, in file order
  std::vector<std::string> errors;  // "file:line:col: message" for documents that could not be read at all
};

// Reads every document of `text` (name `file` is used in messages). Never throws: a document that is not
// YAML is reported in errors and skipped; a field that cannot be understood is noted in Entry::problems.
YamlReadResult read_yaml_entries(std::string_view text, const std::string& file);

// Reads a file from disk; a file that cannot be opened is one error.
YamlReadResult read_yaml_file(const std::string& path);

// "Royal Zf3" / "Sd5" -> piece (colour given); false when malformed.
bool parse_algebraic_piece(std::string_view text, char color, DiagramPiece& out);

}  // namespace cqlindex::yacpdb
