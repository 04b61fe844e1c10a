#pragma once
// Options of `cqlindex run`: CQL 6.2's command line (one or two dashes, case-insensitive) plus ours.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cqlindex::cli {

struct RunOptions {
  std::string query_file;                 // QUERY.cql
  std::string input, output;              // -i / -o (empty: header or default)
  std::string index_dir;                  // --index DIR
  bool no_index = false;                  // --no-index
  bool parse_only = false;                // -parse: print the bound tree and exit
  bool lex_only = false;                  // -lex: print the tokens and exit
  std::vector<std::string> preamble;      // CQL text ANDed in front of the body (-cql, -fen, -wtm, ...)
  std::vector<std::string> transforms;    // -flipcolor ... wrap the body, first given = outermost
  std::optional<std::pair<long, long>> gamenumber, matchcount, year;
  std::string player;                     // -player regex
  std::optional<std::string> matchstring;
  bool variations = false, mainline = false, silent = false, quiet = false, noheader = false;
  bool alwayscomment = false, nouniquecomments = false, nosortcomments = false, noremovecomment = false;
  bool nosettag = false, showmatches = false;
  int threads = 0;                        // 0 = default
};

// Parses argv (argv[0] = "run"); returns an error message on a bad command line.
std::optional<std::string> parse_run_options(int argc, char** argv, RunOptions& out);

}  // namespace cqlindex::cli
