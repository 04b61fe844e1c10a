#include "exec/repository.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace cqlindex::exec {
namespace {

namespace fs = std::filesystem;

// Returns `s` without its leading and trailing blanks (and a CR a list written on Windows leaves).
std::string trimmed(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

// Appends the files the list at `list` names to `files`; false with `error` (naming list:line:col) at the
// first line that names no readable regular file.
bool read_list(const std::string& list, std::vector<std::string>& files, std::string* error) {
  std::error_code ec;
  if (fs::is_directory(list, ec)) {
    *error = "cannot read the repository list '" + list + "': it is a folder";
    return false;
  }
  errno = 0;
  std::ifstream in(list, std::ios::binary);
  if (!in) {
    const int why = errno;
    *error = "cannot read the repository list '" + list + "'" + (why ? std::string(": ") + std::strerror(why) : "");
    return false;
  }
  const fs::path folder = fs::path(list).parent_path();
  std::string line;
  for (uint32_t number = 1; std::getline(in, line); ++number) {
    const std::string name = trimmed(line);
    if (name.empty() || name[0] == '#') continue;
    const std::string where = list + ":" + std::to_string(number) + ":" + std::to_string(line.find(name) + 1) + ": ";
    if (is_repository_list(name)) {
      *error = where + "'" + name + "' is a repository list: a list names PGN files only";
      return false;
    }
    const fs::path path = fs::path(name).is_absolute() || folder.empty() ? fs::path(name) : folder / name;
    const auto status = fs::status(path, ec);
    if (ec || !fs::is_regular_file(status)) {
      *error = where + "cannot read '" + path.string() + "'" +
               (ec ? ": " + ec.message() : fs::is_directory(status) ? ": it is a folder" : ": not a regular file");
      return false;
    }
    files.push_back(path.string());
  }
  if (in.bad()) {
    *error = "cannot read the repository list '" + list + "'";
    return false;
  }
  return true;
}

}  // namespace

bool is_repository_list(const std::string& path) { return fs::path(path).extension() == kRepositoryListExtension; }

std::optional<Repository> Repository::resolve(const std::vector<std::string>& inputs, std::string* error) {
  Repository repository;
  for (const std::string& input : inputs) {
    if (!is_repository_list(input)) {
      repository.files_.push_back(input);
    } else if (!read_list(input, repository.files_, error)) {
      return std::nullopt;
    } else {
      repository.lists_.push_back(input);
    }
  }
  return repository;
}

std::vector<std::string> Repository::read_paths() const {
  std::vector<std::string> paths = files_;
  paths.insert(paths.end(), lists_.begin(), lists_.end());
  return paths;
}

}  // namespace cqlindex::exec
