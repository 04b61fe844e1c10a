#pragma once
// The option parsing every sub-command shares (Boost.Program_options): its options, one positional argument,
// --help, and the usage error message.
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace cqlindex::cli {

// The most threads a command may be given. Each thread costs its stack and parse buffers (tens of MB of
// address space), and no machine cqlindex runs on has more cores than this; beyond, threads only queue.
constexpr int kMaxThreads = 256;

// "the number of threads must be [0 (all cores) or ]1 to kMaxThreads".
std::string thread_count_range(bool zero_allowed);

// The message for a thread count outside [0, kMaxThreads] (0 = all cores, where `zero_allowed`), or empty.
std::string thread_count_error(long long threads, bool zero_allowed = true);

// Parses `argv` for `command` ("check", "build", ...) with the options `visible` plus one positional argument
// stored as `positional`. Returns nullopt to go on, or the exit code to stop with: --help printed (0), or a
// usage error printed as `cqlindex COMMAND: message` followed by the usage (1), e.g. when the positional
// argument is `required` and missing. An option "threads" (declared as int) is checked by
// thread_count_error. With `many` the positional argument may be repeated (a std::vector<std::string>).
std::optional<int> parse_command_line(const char* command, int argc, char** argv,
                                      const boost::program_options::options_description& visible,
                                      const char* positional, bool required,
                                      boost::program_options::variables_map& vm, bool many = false);

// The repository's files as named: the positional `positional` arguments, then each `-i`/`--input` (build and
// info take both; one list either way).
std::vector<std::string> named_inputs(const boost::program_options::variables_map& vm, const char* positional);

}  // namespace cqlindex::cli
