#pragma once
// What a server (`cqlindex serve`) checks before it runs a text it was sent: a CQL query that parses and touches
// no file of the server's machine, or a FEN that makes a submission for the similar pipeline.
#include <optional>
#include <string>
#include <string_view>

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

}  // namespace cqlindex::exec
