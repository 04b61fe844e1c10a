#pragma once
// What a server (`cqlindex serve`) checks before it runs a text it was sent: a CQL query that parses and touches
// no file of the server's machine, or FENs that make submissions for the similar pipeline.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cqlindex::exec {

// Why a query cannot be served, at its line and column (0 when the text as a whole is wrong).
struct QueryRefusal {
  int line = 0, column = 0;
  std::string message;
};

// Returns why the query `text` cannot be served: it does not parse (CQL's message and position), or it would read or
// write a file of the server's machine (readfile, writefile, similarposition's submissions file); nullopt
// when it may run. The header's input and output are not refusals: a served run reads the served repository
// and writes no file.
std::optional<QueryRefusal> served_query_refusal(std::string_view text);

// Returns a one-game PGN whose start is `fen` (a submission for the similar pipeline), or nullopt (with
// `error`) when `fen` is not a legal position.
std::optional<std::string> submission_of_fen(std::string_view fen, std::string* error);

// Where a study typed by a person goes wrong: its line and byte column in the text (1-based), why, and for a
// FEN the field at fault (chess::fen_field_name).
struct StudyRefusal {
  uint32_t line = 0, column = 0;
  std::string message, field;
};

// FENs typed one a line, made into submissions for the similar pipeline.
struct FenSubmissions {
  std::string pgn;                // one game a FEN, starting there, in the order of the lines
  std::vector<std::string> fens;  // each FEN as read, written back whole
};

// Returns whether the study `text` is FENs, one a line, rather than PGN: its first non-blank line is meant as a
// FEN, right or wrong (chess::looks_like_fen). Such a text is never read as PGN, whose reader would take it
// for movetext it cannot read, or for a game from the initial position.
bool study_is_fens(std::string_view text);

// Returns the submissions of the FENs of `text`, one a line (blank lines skipped), each saying who moves; or
// nullopt with `refusal` at the first line that is not such a FEN (or when there is none).
std::optional<FenSubmissions> submissions_of_fens(std::string_view text, StudyRefusal* refusal);

}  // namespace cqlindex::exec
