// Spill chunks: the lists of a chunk serialised one after the other; their offsets stay in memory.
#include "indexer/bitmap_spill.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <unistd.h>

namespace cqlindex::indexer {
namespace {

bool fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

}  // namespace

BitmapSpill::~BitmapSpill() {
  if (fd_ >= 0) ::close(fd_);
}

BitmapSpill::BitmapSpill(BitmapSpill&& other) noexcept
    : path_(std::move(other.path_)), fd_(other.fd_), end_(other.end_), chunks_(std::move(other.chunks_)) {
  other.fd_ = -1;
}

bool BitmapSpill::spill(std::vector<Roaring*> lists, std::string* error) {
  if (fd_ < 0) fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd_ < 0) return fail(error, path_ + ": cannot create: " + std::strerror(errno));
  std::vector<std::pair<uint64_t, uint32_t>> chunk;
  std::string bytes;
  for (Roaring* list : lists) {
    list->runOptimize();
    const size_t size = list->getSizeInBytes(true);
    const size_t at = bytes.size();
    bytes.resize(at + size);
    list->write(bytes.data() + at, true);
    chunk.emplace_back(end_ + at, static_cast<uint32_t>(size));
    *list = Roaring();
  }
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, off_t(end_ + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail(error, path_ + ": cannot write (disk full?): " + std::strerror(errno));
    done += size_t(n);
  }
  end_ += bytes.size();
  chunks_.push_back(std::move(chunk));
  return true;
}

bool BitmapSpill::union_into(size_t i, Roaring& into, std::string* error) const {
  std::string bytes;
  for (const auto& chunk : chunks_) {
    const auto [offset, size] = chunk[i];
    bytes.resize(size);
    for (size_t done = 0; done < size;) {
      const ssize_t n = ::pread(fd_, bytes.data() + done, size - done, off_t(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return fail(error, path_ + ": cannot read back: " + std::strerror(errno));
      done += size_t(n);
    }
    try {
      into |= Roaring::readSafe(bytes.data(), bytes.size());
    } catch (const std::exception& e) {  // the file changed under the build
      return fail(error, path_ + ": damaged spill chunk: " + e.what());
    }
  }
  return true;
}

}  // namespace cqlindex::indexer
