#pragma once
// Test support: one `cqlindex run` process and what it answered: exit status, match line, output file bytes.
// Used by the golden and differential harnesses (tests/conformance), which compare these three things.
#include <filesystem>
#include <regex>
#include <string>

#include "support/file_bytes.h"
#include "support/process.h"

namespace cqlindex::test {

struct RunOutcome {
  int exit_code = -1;      // as the shell reports it: 128 + N when killed by signal N
  std::string match_line;  // "N matches of M games"; empty when the run printed none
  std::string output;      // the bytes of the output file; empty when it was not written
  std::string messages;    // standard output and error
  // Returns true when the run was killed by its CPU or wall-clock limit.
  // (timeout's 124, SIGXCPU at the soft CPU limit, SIGKILL at the hard one).
  bool timed_out() const { return exit_code == 124 || exit_code == 128 + 24 || exit_code == 128 + 9; }
  // A refusal, in the README's sense: a non-zero exit or no match line.
  bool rejected() const { return exit_code != 0 || match_line.empty(); }
  // Returns "exit E, 'N matches of M games'" (or "exit E, no match line").
  std::string summary() const {
    return "exit " + std::to_string(exit_code) + (match_line.empty() ? ", no match line" : ", '" + match_line + "'");
  }
};

// Returns the first "N matches of M games" of `text`; empty when there is none.
inline std::string find_match_line(const std::string& text) {
  static const std::regex re("(\\d+) matches of (\\d+) games");
  std::smatch m;
  return std::regex_search(text, m, re) ? m.str(0) : "";
}

// Runs `cqlindex run ARGS -i INPUT -o WORK/TAG.pgn QUERY` in `work` and returns its outcome; the output file
// is removed afterwards. The run gets `cpu_seconds` of CPU (a limit a busy shared machine does not trip) and
// ten times that of wall-clock time.
inline RunOutcome run_cqlindex(const std::filesystem::path& work, const std::string& tag, const std::string& args,
                               const std::string& input, const std::string& query, int cpu_seconds = 30) {
  const std::filesystem::path out = work / (tag + ".pgn");
  std::error_code ec;
  std::filesystem::remove(out, ec);
  ProcessResult r = run_process("cd " + shell_quote(work.string()) + " && ulimit -t " + std::to_string(cpu_seconds) +
                                " && timeout " + std::to_string(10 * cpu_seconds) + " " +
                                shell_quote(CQLINDEX_BINARY) + " run " + args + " -i " + shell_quote(input) + " -o " +
                                shell_quote(out.string()) + " " + shell_quote(query) + " 2>&1");
  RunOutcome o;
  o.exit_code = r.exit_code;
  o.messages = r.out;
  o.match_line = find_match_line(r.out);
  o.output = file_bytes(out);
  std::filesystem::remove(out, ec);
  return o;
}

// Returns "" when `a` and `b` answered the same (exit, match line, output bytes), else what differs.
inline std::string same_answer(const RunOutcome& a, const RunOutcome& b) {
  if (a.exit_code != b.exit_code || a.match_line != b.match_line) return a.summary() + " vs " + b.summary();
  if (a.output != b.output)
    return "output differs (" + std::to_string(a.output.size()) + " vs " + std::to_string(b.output.size()) + " bytes)";
  return "";
}

}  // namespace cqlindex::test
