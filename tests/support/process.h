#pragma once
// Test support: runs a shell command and captures what it prints.
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace cqlindex::test {

struct ProcessResult {
  int exit_code = -1;
  std::string out;  // standard output (standard error too when the command redirects it)
};

// Returns the exit code and standard output of `command` run by /bin/sh.
inline ProcessResult run_process(const std::string& command) {
  ProcessResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  char buffer[1 << 16];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

// Returns `s` quoted for /bin/sh.
inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace cqlindex::test
