// A chess problem as the YACPDB predicates see it: the diagram, the metadata and the solution (as text for
// YACPDB entries, as a move tree for PGN games). Field meanings follow yacpdb-entry.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cqlindex::yacpdb {

// A diagram piece: colour 'w', 'b' or 'n', its Popeye code in upper case ("S" = knight, "N" = nightrider),
// fairy specs written before it ("Royal"), and its square 0..63 (a1 = 0).
struct DiagramPiece {
  char color = 'w';
  std::string code;
  std::string specs;
  int square = 0;
};

// YYYY[-MM[-DD]]; 0 where unknown.
struct EntryDate {
  int year = 0, month = 0, day = 0;
};

struct Entry {
  // where it comes from
  enum class Format { Yaml, Pgn } format = Format::Yaml;
  std::string file;
  int number = 0;  // 1-based position in its file
  int line = 0;    // 1-based line where it starts

  // diagram
  std::vector<DiagramPiece> pieces;
  std::optional<std::string> fen;  // PGN entries: the FEN tag as written

  // metadata
  std::string stipulation;
  std::vector<std::string> authors, judges, options, keywords, comments;
  std::string source, source_id, issue_id, tourney, distinction;
  std::vector<std::string> reprints;       // names of the reprint sources
  std::vector<std::string> reprint_types;  // source types of the reprints (PGN tag ReprintType)
  EntryDate date;
  std::vector<std::pair<std::string, std::string>> twins;  // {"b", "Move b4 f3"}, in file order
  std::string intended_solutions;
  std::optional<int64_t> id;  // YACPDB id when known

  // solution
  std::string solution;  // Popeye solution text (YAML entries)
  std::string text;      // the entry's text as stored (YAML document or PGN game), for Text()

  // what could not be read, as "line:col: message" (line relative to the file); the entry is kept
  std::vector<std::string> problems;
};

}  // namespace cqlindex::yacpdb
