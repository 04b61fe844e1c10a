#include "cli/summary_lines.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace cqlindex::cli {

void print_similar_summary(const exec::SimilarSummary& summary) {
  std::ostringstream line;
  line.precision(3);
  line << summary.matches << " matches of " << summary.games << " games in " << summary.seconds << " seconds using "
       << summary.threads << (summary.threads == 1 ? " thread" : " threads") << " to " << summary.output;
  std::cout << line.str() << std::endl;
}

void print_run_summary(const exec::RunSummary& s) {
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.3f", s.seconds);
  std::cout << s.matches << " matches of " << s.games_reported << " games in " << secs << " seconds using " << s.threads
            << (s.threads == 1 ? " thread" : " threads") << " to " << s.output << "\n";
  for (const std::string& line : s.persistent) std::cout << line << "\n";
  std::cerr << "cqlindex run: " << s.games << " games, " << s.considered << " evaluated: " << s.matches << " matched, "
            << s.unmatched << " unmatched after a replay, " << s.ruled_out << " ruled out by the index, "
            << s.unreadable << " unreadable (" << s.with_errors
            << " games with errors, replayed up to the last legal move)\n";
}

void print_yacpdb_summary(const exec::YacpdbSummary& s) {
  char summary[160];
  std::snprintf(summary, sizeof summary, "%zu matches of %zu entries in %.2f seconds", s.matches, s.entries,
                s.seconds);
  std::ostream& report = s.entries_on_stdout ? std::cerr : std::cout;
  report << summary;
  if (s.undetermined) report << " (" << s.undetermined << " entries not analysed for the query's predicates)";
  report << "\n";
}

}  // namespace cqlindex::cli
