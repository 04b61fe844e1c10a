// PgnFile (mmap or read), the sequential GameReader, and run statistics.
#include "engine/pgn/reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <new>

namespace cqlindex::pgn {
namespace {

// A mapped file that another process truncates faults (SIGBUS) on the pages past its new end. The handler
// names the file and ends the run with exit 2 (the input cannot be used as it is); in a process that must
// outlive one read (a server: PgnFile::survive_shrinking), it maps zero pages over the rest of the mapping
// instead, marks it shrunk and lets the read go on, and the reader's owner checks shrunk(). A signal handler
// reaches only static storage: this table of the live mappings is the one piece of global mutable state, each
// slot claimed with an atomic flag, its path written before its base is published.
struct MappedSlot {
  std::atomic<bool> claimed{false};
  std::atomic<const char*> base{nullptr};
  std::atomic<size_t> size{0};
  std::atomic<bool> shrunk{false};
  char path[1024] = {};
};
MappedSlot g_mapped[256];  // a server maps a file per query under way
std::atomic<bool> g_survive_shrinking{false};
size_t g_page_size = 4096;  // sysconf is not for a signal handler: read when the handler is installed

void write_stderr(const char* text) {
  size_t n = std::strlen(text);
  while (n > 0) {
    ssize_t k = ::write(2, text, n);
    if (k <= 0) return;
    text += k;
    n -= size_t(k);
  }
}

std::atomic<void (*)(int)> g_fault_exit{::_exit};

void on_sigbus(int, siginfo_t* info, void*) {
  const char* at = static_cast<const char*>(info->si_addr);
  for (MappedSlot& slot : g_mapped) {
    const char* base = slot.base.load();
    if (base && at >= base && at < base + slot.size.load()) {
      if (g_survive_shrinking.load()) {
        // the pages from the fault's to the mapping's end read as zeros from now on (no longer the file's)
        const uintptr_t page = reinterpret_cast<uintptr_t>(at) / g_page_size * g_page_size;
        const uintptr_t end = reinterpret_cast<uintptr_t>(base) + slot.size.load();
        void* zeros = ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros != MAP_FAILED) {
          slot.shrunk.store(true);
          return;
        }
      }
      write_stderr("\ncqlindex: ");
      write_stderr(slot.path);
      write_stderr(" changed while it was read (it is now shorter than when it was opened): run again once "
                   "nothing writes to it\n");
      g_fault_exit.load()(2);
      ::_exit(2);
    }
  }
  ::signal(SIGBUS, SIG_DFL);  // not a mapped input: the fault happens again and ends the process as before
}

// Registers a mapping for the SIGBUS handler (installed at the first call); the slot index, or -1 if full.
int register_mapping(const char* base, size_t size, const std::string& path) {
  static const bool installed = [] {
    struct sigaction sa {};
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (const long page = ::sysconf(_SC_PAGESIZE); page > 0) g_page_size = size_t(page);
    return ::sigaction(SIGBUS, &sa, nullptr) == 0;
  }();
  if (!installed) return -1;
  for (int i = 0; i < int(std::size(g_mapped)); ++i) {
    MappedSlot& slot = g_mapped[i];
    if (slot.claimed.exchange(true)) continue;
    const size_t n = std::min(path.size(), sizeof slot.path - 1);
    std::memcpy(slot.path, path.data(), n);
    slot.path[n] = '\0';
    slot.size.store(size);
    slot.shrunk.store(false);
    slot.base.store(base);
    return i;
  }
  return -1;
}

void unregister_mapping(int slot) {
  if (slot < 0) return;
  g_mapped[slot].base.store(nullptr);
  g_mapped[slot].claimed.store(false);
}

// The most bytes read into memory from a pipe or device (an endless one, /dev/urandom, would otherwise take
// all memory): half the physical memory.
uint64_t stream_limit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return uint64_t(1) << 32;
  return uint64_t(pages) * uint64_t(page) / 2;
}

}  // namespace

void set_input_fault_exit(void (*exit_now)(int code)) { g_fault_exit.store(exit_now); }

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
      f->data_ = static_cast<const char*>(m);
      f->size_ = size_t(st.st_size);
      f->mapped_ = true;
      f->slot_ = register_mapping(f->data_, f->size_, path);
      ::close(fd);
      // Test hook: another process truncates the file named by the variable between its opening and reading.
      const char* shrink = std::getenv("CQLINDEX_TEST_SHRINK_AFTER_OPEN");
      if (shrink && path == shrink && ::truncate(path.c_str(), st.st_size / 2) != 0)
        return fail("cannot truncate (test hook)");
      return f;
    }
  }
  // Pipes, character devices, empty files, or mmap refused: read everything (as far as memory allows).
  char buf[1 << 16];
  const uint64_t limit = stream_limit();
  for (;;) {
    ssize_t k = ::read(fd, buf, sizeof buf);
    if (k < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      return fail("cannot read");
    }
    if (k == 0) break;
    const bool fits = f->buffer_.size() + size_t(k) <= limit && [&] {
      try {
        f->buffer_.append(buf, size_t(k));
        return true;
      } catch (const std::bad_alloc&) {
        return false;
      }
    }();
    if (!fits) {
      ::close(fd);
      if (error)
        *error = path + ": too large to hold in memory (more than " + std::to_string(f->buffer_.size() >> 20) +
                 " MB read from a pipe or device): save it to a file first";
      return nullptr;
    }
  }
  ::close(fd);
  f->data_ = f->buffer_.data();
  f->size_ = f->buffer_.size();
  return f;
}

void PgnFile::survive_shrinking() { g_survive_shrinking.store(true); }

bool PgnFile::shrunk() const { return slot_ >= 0 && g_mapped[slot_].shrunk.load(); }

PgnFile::~PgnFile() {
  if (!mapped_) return;
  unregister_mapping(slot_);
  ::munmap(const_cast<char*>(data_), size_);
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
