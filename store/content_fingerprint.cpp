// XXH3-64 over a file prefix, or over a few sampled blocks of it. Both read with pread into a small buffer: a
// mapping of a 6 GB PGN would count its pages in the process's memory and turn a file truncated meanwhile into
// SIGBUS, while a read only reports a short file.
#include "store/content_fingerprint.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

namespace cqlindex::store {
namespace {

constexpr uint64_t kEdgeBlock = 64 * 1024;  // the first and last bytes of a prefix: where appends and headers meet
constexpr uint64_t kInnerBlock = 4 * 1024;  // one page per inner sample
constexpr uint64_t kInnerBlocks = 14;

// A file opened for reading, closed on every path.
class ReadFile {
 public:
  ReadFile(const std::string& path, uint64_t length, std::string* error) : path_(path), error_(error) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      fail(std::strerror(errno));
      return;
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || uint64_t(st.st_size) < length) fail("shorter than expected");
  }
  ~ReadFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  ReadFile(const ReadFile&) = delete;
  ReadFile& operator=(const ReadFile&) = delete;

  bool ok() const { return ok_; }
  // Feeds bytes [offset, offset + length) into `state`; false (with the error) when they cannot all be read.
  bool hash_range(XXH3_state_t* state, uint64_t offset, uint64_t length, std::vector<char>& buffer) {
    while (ok_ && length > 0) {
      const size_t want = size_t(std::min<uint64_t>(length, buffer.size()));
      const ssize_t got = ::pread(fd_, buffer.data(), want, off_t(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return fail(std::strerror(errno));
      if (got == 0) return fail("shorter than expected");
      XXH3_64bits_update(state, buffer.data(), size_t(got));
      offset += uint64_t(got);
      length -= uint64_t(got);
    }
    return ok_;
  }
  void advise_sequential() { ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL); }

 private:
  bool fail(const std::string& why) {
    ok_ = false;
    if (error_) *error_ = path_ + ": " + why;
    return false;
  }
  std::string path_;
  std::string* error_;
  int fd_ = -1;
  bool ok_ = true;
};

// Returns the hash of `ranges` of the file at `path` (whose size must be at least `length`), or nullopt.
std::optional<uint64_t> hash_ranges(const std::string& path, uint64_t length,
                                    const std::vector<std::pair<uint64_t, uint64_t>>& ranges, size_t buffer_size,
                                    bool sequential, std::string* error) {
  ReadFile file(path, length, error);
  if (!file.ok()) return std::nullopt;
  if (sequential) file.advise_sequential();
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  std::vector<char> buffer(buffer_size);
  bool ok = true;
  for (const auto& [offset, size] : ranges)
    if (!(ok = file.hash_range(state, offset, size, buffer))) break;
  const uint64_t hash = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  if (!ok) return std::nullopt;
  return hash;
}

}  // namespace

std::optional<uint64_t> fingerprint_file_prefix(const std::string& path, uint64_t length, std::string* error) {
  return hash_ranges(path, length, {{0, length}}, 1 << 20, true, error);
}

std::vector<std::pair<uint64_t, uint64_t>> sampled_ranges(uint64_t length) {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  ranges.emplace_back(0, std::min(length, kEdgeBlock));
  for (uint64_t k = 1; k <= kInnerBlocks; ++k) {
    const uint64_t offset = length / (kInnerBlocks + 1) * k;
    ranges.emplace_back(offset, std::min(kInnerBlock, length - offset));
  }
  const uint64_t tail = std::min(length, kEdgeBlock);
  ranges.emplace_back(length - tail, tail);
  return ranges;
}

std::optional<uint64_t> fingerprint_file_samples(const std::string& path, uint64_t length, std::string* error) {
  return hash_ranges(path, length, sampled_ranges(length), kEdgeBlock, false, error);
}

}  // namespace cqlindex::store
