// Shared sub-command option parsing.
#include "cli/command_line.h"

#include <iostream>
#include <vector>

#include "cli/exit_codes.h"

namespace cqlindex::cli {

namespace po = boost::program_options;

std::string thread_count_range(bool zero_allowed) {
  return "the number of threads must be " + std::string(zero_allowed ? "0 (all cores) or " : "") + "1 to " +
         std::to_string(kMaxThreads);
}

std::string thread_count_error(long long threads, bool zero_allowed) {
  if (threads >= (zero_allowed ? 0 : 1) && threads <= kMaxThreads) return "";
  return thread_count_range(zero_allowed) + ", not " + std::to_string(threads);
}

std::optional<int> parse_command_line(const char* command, int argc, char** argv, const po::options_description& visible,
                                      const char* positional, bool required, po::variables_map& vm, bool many) {
  po::options_description all;
  if (many) all.add(visible).add_options()(positional, po::value<std::vector<std::string>>());
  else all.add(visible).add_options()(positional, po::value<std::string>());
  po::positional_options_description pos;
  pos.add(positional, many ? -1 : 1);
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::invalid_option_value& e) {
    // (a count past the range of an int, 4294967295, gets the same message as any other count out of range)
    if (e.get_option_name() == "--threads") {
      std::cerr << "cqlindex " << command << ": --threads: " << thread_count_range(true) << " (" << e.what() << ")\n";
      return kExitUsage;
    }
    std::cerr << "cqlindex " << command << ": " << e.what() << "\n" << visible;
    return kExitUsage;
  } catch (const po::error& e) {
    std::cerr << "cqlindex " << command << ": " << e.what() << "\n" << visible;
    return kExitUsage;
  }
  if (vm.count("threads")) {
    const std::string why = thread_count_error(vm["threads"].as<int>());
    if (!why.empty()) {
      std::cerr << "cqlindex " << command << ": --threads: " << why << "\n";
      return kExitUsage;
    }
  }
  if (vm.count("help")) {
    std::cout << visible;
    return kExitOk;
  }
  if (required && !vm.count(positional)) {
    std::cerr << "cqlindex " << command << ": missing " << positional << "\n" << visible;
    return kExitUsage;
  }
  return std::nullopt;
}

std::vector<std::string> named_inputs(const po::variables_map& vm, const char* positional) {
  std::vector<std::string> named;
  if (vm.count(positional)) named = vm[positional].as<std::vector<std::string>>();
  if (vm.count("input"))
    for (const std::string& input : vm["input"].as<std::vector<std::string>>()) named.push_back(input);
  return named;
}

}  // namespace cqlindex::cli
