// cqlindex serve REPO.pgn [...]: runs the server executable built beside this one (cli/main/cqlindex_serve.cpp
// says why it is a separate program) with the same arguments.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "cli/commands.h"
#include "cli/exit_codes.h"

namespace cqlindex::cli {

int command_serve(int argc, char** argv) {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) {
    std::cerr << "cqlindex serve: cannot find this program's folder: " << ec.message() << "\n";
    return kExitInput;
  }
  const std::string server = (self.parent_path() / "cqlindex-serve").string();
  std::vector<char*> args(argv, argv + argc);
  args[0] = const_cast<char*>(server.c_str());
  args.push_back(nullptr);
  std::cout.flush();
  ::execv(server.c_str(), args.data());
  std::cerr << "cqlindex serve: cannot run " << server << ": " << std::strerror(errno)
            << " (cqlindex-serve is built and installed beside cqlindex)\n";
  return kExitInput;
}

}  // namespace cqlindex::cli
