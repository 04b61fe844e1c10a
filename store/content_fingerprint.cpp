// XXH3-64 over a file prefix, read in large blocks (the whole PGN of a 68 MB index takes ~10 ms).
#include "store/content_fingerprint.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

#include <xxhash.h>

namespace cqlindex::store {

std::optional<uint64_t> fingerprint_file_prefix(const std::string& path, uint64_t length, std::string* error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (error) *error = path + ": " + std::strerror(errno);
    return std::nullopt;
  }
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  std::vector<char> buffer(1 << 20);
  uint64_t left = length;
  bool ok = true;
  while (left > 0) {
    ssize_t n = ::read(fd, buffer.data(), static_cast<size_t>(std::min<uint64_t>(left, buffer.size())));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ok = false;
      if (error) *error = path + (n < 0 ? ": " + std::string(std::strerror(errno)) : ": shorter than expected");
      break;
    }
    XXH3_64bits_update(state, buffer.data(), static_cast<size_t>(n));
    left -= static_cast<uint64_t>(n);
  }
  uint64_t hash = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  ::close(fd);
  if (!ok) return std::nullopt;
  return hash;
}

}  // namespace cqlindex::store
