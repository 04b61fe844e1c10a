#include "exec/query_file.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace cqlindex::exec {

std::optional<std::string> read_query_file(const std::string& command, const std::string& path) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path, ec)) {
    std::cerr << "cqlindex " << command << ": cannot read query file '" << path << "'\n";
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace cqlindex::exec
