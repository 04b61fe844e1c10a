// Manifest lines: `NAME<TAB>SIZE<TAB>XXH3-64 in hex`, sorted by name.
#include "store/checksum_manifest.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "store/content_fingerprint.h"

namespace cqlindex::store {
namespace fs = std::filesystem;

bool write_checksum_manifest(const std::string& dir, std::string* error) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().filename() != kChecksumManifestName)
      names.push_back(entry.path().filename().string());
  if (ec) {
    if (error) *error = dir + ": " + ec.message();
    return false;
  }
  std::sort(names.begin(), names.end());
  std::ostringstream text;
  for (const std::string& name : names) {
    std::string path = dir + "/" + name;
    uint64_t size = fs::file_size(path, ec);
    if (ec) {
      if (error) *error = path + ": " + ec.message();
      return false;
    }
    auto hash = fingerprint_file_prefix(path, size, error);
    if (!hash) return false;
    text << name << '\t' << size << '\t' << std::hex << *hash << std::dec << '\n';
  }
  std::string tmp = dir + "/" + kChecksumManifestName + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text.str();
    out.flush();
    if (!out) {
      if (error) *error = tmp + ": cannot write";
      return false;
    }
  }
  fs::rename(tmp, dir + "/" + kChecksumManifestName, ec);
  if (ec && error) *error = dir + ": " + ec.message();
  return !ec;
}

bool check_checksum_manifest(const std::string& dir, bool contents, ManifestCheck& check, std::string* error) {
  check = ManifestCheck{};
  errno = 0;
  std::ifstream in(dir + "/" + kChecksumManifestName, std::ios::binary);
  if (!in) {
    const int why = errno;
    if (error)
      *error = why && why != ENOENT ? "cannot read " + std::string(kChecksumManifestName) + ": " + std::strerror(why)
                                    : "no " + std::string(kChecksumManifestName) + " (the build did not finish)";
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string name;
    uint64_t size = 0, hash = 0;
    if (!std::getline(row, name, '\t') || !(row >> size) || !(row >> std::hex >> hash)) {
      if (error) *error = std::string(kChecksumManifestName) + " is damaged";
      return false;
    }
    ++check.files;
    check.bytes += size;
    const std::string path = dir + "/" + name;
    std::error_code ec;
    const uint64_t actual_size = fs::file_size(path, ec);
    if (ec || actual_size != size) {
      check.problems.push_back(name + (ec ? " is missing" : " has changed size (truncated or altered)"));
      continue;
    }
    if (!contents) continue;
    std::string why;
    auto actual = fingerprint_file_prefix(path, size, &why);
    if (!actual) check.problems.push_back(name + " is unreadable: " + why);
    else if (*actual != hash) check.problems.push_back(name + " has changed (checksum mismatch)");
  }
  if (check.files == 0) {
    if (error) *error = std::string(kChecksumManifestName) + " lists no files";
    return false;
  }
  return true;
}

}  // namespace cqlindex::store
