// cqlindex serve REPO.pgn [...]: runs the server executable built beside this one (cli/main/cqlindex_serve.cpp
// says why it is a separate program) with the same arguments, and malloc's per-thread caches turned off in its
// environment (glibc reads its tunables only when a program starts; serve/flat_memory.h says why).
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
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
  // GLIBC_TUNABLES gains the server's tunable (serve/flat_memory.h: kMallocTunable), unless it sets it already.
  constexpr const char* kTunable = "glibc.malloc.tcache_count=0";
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::string wanted = tunables ? tunables : "";
  if (wanted.find("glibc.malloc.tcache_count=") == std::string::npos)
    wanted += (wanted.empty() ? "" : ":") + std::string(kTunable);
  ::setenv("GLIBC_TUNABLES", wanted.c_str(), 1);
  std::cout.flush();
  ::execv(server.c_str(), args.data());
  std::cerr << "cqlindex serve: cannot run " << server << ": " << std::strerror(errno)
            << " (cqlindex-serve is built and installed beside cqlindex)\n";
  return kExitInput;
}

}  // namespace cqlindex::cli
