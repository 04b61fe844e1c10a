// RangeReader: one descriptor, pread per range.
#include "engine/pgn/range_reader.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace cqlindex::pgn {

std::unique_ptr<RangeReader> RangeReader::open(const std::string& path, std::string* error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (error) *error = path + ": cannot open: " + std::strerror(errno);
    return nullptr;
  }
  std::unique_ptr<RangeReader> r(new RangeReader());
  r->path_ = path;
  r->fd_ = fd;
  return r;
}

RangeReader::~RangeReader() {
  if (fd_ >= 0) ::close(fd_);
}

bool RangeReader::read(uint64_t offset, uint64_t length, std::string& out, std::string* error) const {
  out.resize(length);
  for (uint64_t done = 0; done < length;) {
    const ssize_t n = ::pread(fd_, out.data() + done, length - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (error)
        *error = path_ + ": cannot read bytes " + std::to_string(offset) + " to " + std::to_string(offset + length) +
                 (n == 0 ? ": the file is shorter (changed since it was indexed?)" : std::string(": ") + std::strerror(errno));
      return false;
    }
    done += uint64_t(n);
  }
  return true;
}

}  // namespace cqlindex::pgn
