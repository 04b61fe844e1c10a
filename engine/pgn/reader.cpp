// PgnFile (mmap or read), the sequential GameReader, and run statistics.
#include "engine/pgn/reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>

namespace cqlindex::pgn {

std::unique_ptr<PgnFile> PgnFile::open(const std::string& path, std::string* error) {
  auto fail = [&](const std::string& what) {
    if (error) *error = path + ": " + what + ": " + std::strerror(errno);
    return nullptr;
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail("cannot open");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return fail("cannot stat");
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    errno = EISDIR;
    return fail("cannot read");
  }
  std::unique_ptr<PgnFile> f(new PgnFile());
  f->path_ = path;
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    void* m = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED) {
      ::madvise(m, size_t(st.st_size), MADV_SEQUENTIAL);
      ::close(fd);
      f->data_ = static_cast<const char*>(m);
      f->size_ = size_t(st.st_size);
      f->mapped_ = true;
      return f;
    }
  }
  // Pipes, character devices, empty files, or mmap refused: read everything.
  char buf[1 << 16];
  for (;;) {
    ssize_t k = ::read(fd, buf, sizeof buf);
    if (k < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      return fail("cannot read");
    }
    if (k == 0) break;
    f->buffer_.append(buf, size_t(k));
  }
  ::close(fd);
  f->data_ = f->buffer_.data();
  f->size_ = f->buffer_.size();
  return f;
}

PgnFile::~PgnFile() {
  if (mapped_) ::munmap(const_cast<char*>(data_), size_);
}

void PgnFile::release_before(uint64_t offset) {
  if (!mapped_) return;
  const uint64_t page = uint64_t(::sysconf(_SC_PAGESIZE));
  const uint64_t end = std::min<uint64_t>(offset, size_) / page * page;
  if (end > released_) {
    ::madvise(const_cast<char*>(data_) + released_, size_t(end - released_), MADV_DONTNEED);
    released_ = end;
  }
}

bool GameReader::next(Game& game) {
  GameSpan s;
  if (!splitter_.next(s)) return false;
  parse_game(text_.substr(s.offset, s.length), GameLocation{s.number, s.offset, s.first_line, s.first_col}, game,
             options_);
  return true;
}

void ReadStats::add(const GameInfo& g) {
  ++games;
  plies += g.plies;
  if (g.status == GameStatus::SkippedVariant) ++skipped;
  for (const PgnError& e : g.errors) {
    if (e.severity == Severity::Error) ++errors;
    if (e.severity == Severity::Warning) ++warnings;
  }
}

unsigned resolve_threads(unsigned threads) {
  if (threads) return threads;
  unsigned hw = std::thread::hardware_concurrency();
  return hw ? hw : 1;
}

}  // namespace cqlindex::pgn
