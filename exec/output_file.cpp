// Output files: checked writes through a file descriptor, a temporary file renamed into place.
#include "exec/output_file.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <streambuf>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "indexer/index_location.h"
#include "indexer/removal_on_exit.h"

namespace cqlindex::exec {
namespace fs = std::filesystem;
namespace {

// A stream buffer over a file descriptor that keeps the first write error (errno).
class FdBuffer : public std::streambuf {
 public:
  // `early_writeback`: the file will be synced (a temporary file): its pages are sent to the disk as they are
  // written, so that the sync at the end waits for the last few only.
  FdBuffer(int fd, bool early_writeback)
      : fd_(fd), buffer_(1 << 16), early_writeback_(early_writeback) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  // Returns the errno of the first failed write, or 0.
  int error() const { return error_; }
  // Writes what is buffered; false on failure.
  bool drain() {
    const char* p = pbase();
    while (p < pptr() && !error_) {
      const ssize_t n = ::write(fd_, p, size_t(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) error_ = n < 0 ? errno : EIO;
      else p += n, written_ += uint64_t(n);
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    if (early_writeback_ && written_ - sent_ >= kWritebackBytes) {
      // starts the writeback of what was written since the last call and returns at once (a hint: a failure
      // here shows in the sync, which is checked)
      ::sync_file_range(fd_, off_t(sent_), off_t(written_ - sent_), SYNC_FILE_RANGE_WRITE);
      sent_ = written_;
    }
    return !error_;
  }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  static constexpr uint64_t kWritebackBytes = 4 << 20;
  int fd_;
  std::vector<char> buffer_;
  int error_ = 0;
  const bool early_writeback_;
  uint64_t written_ = 0, sent_ = 0;  // bytes written, and those whose writeback was started
};

std::string os_error(const std::string& path, int err) { return "cannot write " + path + ": " + std::strerror(err); }

// True for the names of the process's own descriptors (standard output and error among them).
bool names_a_descriptor(const std::string& path) {
  for (const char* prefix : {"/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/"})
    if (path.rfind(prefix, 0) == 0) return true;
  return false;
}

// Removes the temporary files that killed commands left beside `target` (their lock is free; a running
// command holds the lock of its own).
void remove_stale_temporaries(const fs::path& folder, const std::string& prefix) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || !entry.is_regular_file(ec) || entry.is_symlink(ec)) continue;
    const int fd = ::open(entry.path().c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) ::unlink(entry.path().c_str());
    ::close(fd);
  }
}

// Returns the index folder that holds `path` (its folder or one above), or an empty string: a file written there
// would be taken for one of the index's, or replace one.
std::string enclosing_index_folder(const std::string& path) {
  std::error_code ec;
  fs::path folder = fs::weakly_canonical(fs::absolute(path, ec), ec).parent_path();
  for (; !folder.empty(); folder = folder.parent_path()) {
    if (indexer::is_index_folder(folder.string())) return folder.string();
    if (folder == folder.root_path()) break;
  }
  return "";
}

// Returns the permission bits a new file gets (0666 less the umask).
mode_t new_file_mode() {
  const mode_t mask = ::umask(0);  // read by setting it: the commands open their output before any thread starts
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

struct OutputFile::Impl {
  std::string path;       // as the user named it (messages)
  std::string target;     // where the file goes (symlinks followed)
  std::string temporary;  // empty: written directly
  int fd = -1;
  FdBuffer buffer;
  std::ostream out;
  bool committed = false;
  std::optional<indexer::RemovalOnExit> removal;  // the temporary file, removed if a signal ends the process
  Impl(std::string p, std::string t, std::string tmp, int descriptor)
      : path(std::move(p)), target(std::move(t)), temporary(std::move(tmp)), fd(descriptor),
        buffer(descriptor, !temporary.empty()), out(&buffer) {}
};

OutputFile::OutputFile(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

std::unique_ptr<OutputFile> OutputFile::open(const std::string& path, const std::vector<std::string>& inputs,
                                             std::string* error, bool* same_as_input) {
  auto fail = [&](const std::string& message) {
    if (error) *error = message;
    return nullptr;
  };
  struct stat target_stat{};
  const bool exists = ::stat(path.c_str(), &target_stat) == 0;
  // The output is an input when both are the same inode, whatever names, links or symlinks lead there.
  if (exists)
    for (const std::string& input : inputs) {
      struct stat in{};
      if (::stat(input.c_str(), &in) == 0 && in.st_dev == target_stat.st_dev && in.st_ino == target_stat.st_ino) {
        if (same_as_input) *same_as_input = true;
        return fail("the output " + path + " is the input " + input + ": refusing to overwrite it");
      }
    }
  if (exists && S_ISDIR(target_stat.st_mode)) return fail("cannot write " + path + ": it is a folder");
  if (const std::string index = enclosing_index_folder(path); !index.empty()) {
    if (same_as_input) *same_as_input = true;
    return fail("cannot write " + path + ": it is inside the index folder " + index +
                " (an index's files are its own: writing there would damage it)");
  }

  if (exists && (!S_ISREG(target_stat.st_mode) || names_a_descriptor(path))) {  // a device, FIFO, or fd 1/2
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return fail(os_error(path, errno));
    return std::unique_ptr<OutputFile>(new OutputFile(std::make_unique<Impl>(path, path, "", fd)));
  }
  std::error_code ec;
  std::string target = path;
  if (fs::is_symlink(path, ec)) target = fs::weakly_canonical(path, ec).string();  // the link stays a link
  const fs::path folder = fs::path(target).parent_path();
  std::string prefix = ".";  // hidden; built step by step (GCC 12 warns wrongly on "." + string, bug 105329)
  prefix += fs::path(target).filename().string();
  prefix += ".cqlindex-tmp-";
  const fs::path where = folder.empty() ? fs::path(".") : folder;
  remove_stale_temporaries(where, prefix);
  std::string temporary = (where / (prefix + "XXXXXX")).string();
  // taken for removal on a signal as it is made: a signal that comes now waits for its name
  indexer::RemovalOnExit removal = indexer::RemovalOnExit::file();
  auto naming = indexer::RemovalOnExit::hold();
  const int fd = ::mkstemp(temporary.data());
  if (fd >= 0) removal.name_file(temporary);
  naming.unlock();
  if (fd < 0) {
    const int err = errno;
    // A folder we may not add to, holding a file we may write: written in place (not atomic, still checked).
    if (exists && ::access(target.c_str(), W_OK) == 0) {
      const int direct = ::open(target.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
      if (direct < 0) return fail(os_error(path, errno));
      return std::unique_ptr<OutputFile>(new OutputFile(std::make_unique<Impl>(path, target, "", direct)));
    }
    return fail(os_error(path, err));
  }
  ::fchmod(fd, exists ? (target_stat.st_mode & 07777) : new_file_mode());
  ::flock(fd, LOCK_EX);  // while held, no other command takes the file for a killed one's leftover
  auto impl = std::make_unique<Impl>(path, target, temporary, fd);
  impl->removal.emplace(std::move(removal));
  return std::unique_ptr<OutputFile>(new OutputFile(std::move(impl)));
}

OutputFile::~OutputFile() {
  if (impl_->fd >= 0) ::close(impl_->fd);
  if (!impl_->committed && !impl_->temporary.empty()) ::unlink(impl_->temporary.c_str());
  impl_->removal.reset();
}

std::ostream& OutputFile::stream() { return impl_->out; }

bool OutputFile::commit(std::string* error) {
  Impl& f = *impl_;
  auto fail = [&](int err) {
    if (error) *error = os_error(f.path, err);
    return false;
  };
  f.out.flush();
  if (!f.buffer.drain() || !f.out) return fail(f.buffer.error() ? f.buffer.error() : EIO);
  // Devices and pipes cannot be synced (EINVAL): their writes were checked; a file's data must be on disk
  // before the rename makes it the output.
  if (!f.temporary.empty() && ::fsync(f.fd) != 0) return fail(errno);
  const int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0 && errno != EINTR) return fail(errno);
  if (f.temporary.empty()) {
    f.committed = true;
    return true;
  }
  const auto lock = indexer::RemovalOnExit::hold();  // a signal now removes the file renamed or not at all
  if (::rename(f.temporary.c_str(), f.target.c_str()) != 0) return fail(errno);
  f.committed = true;
  f.removal.reset();
  return true;
}

namespace {

// Forwards every write to std::cout's own buffer (the C library's stdout: its buffering and order with stderr
// stay as they were) and keeps the errno of the first one that fails, which the stream itself forgets.
class ErrorKeepingBuffer : public std::streambuf {
 public:
  explicit ErrorKeepingBuffer(std::streambuf* inner) : inner_(inner) {}
  std::streambuf* inner() const { return inner_; }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return sync() == 0 ? traits_type::not_eof(c) : c;
    errno = 0;
    const int_type r = inner_->sputc(traits_type::to_char_type(c));
    if (traits_type::eq_int_type(r, traits_type::eof())) keep(errno);
    return r;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    errno = 0;
    const std::streamsize r = inner_->sputn(s, n);
    if (r < n) keep(errno);
    return r;
  }
  int sync() override {
    errno = 0;
    const int r = inner_->pubsync();
    if (r != 0) keep(errno);
    return r;
  }

 private:
  void keep(int err) {
    if (!error_) error_ = err ? err : EIO;
  }
  std::streambuf* inner_;
  int error_ = 0;
};

}  // namespace

struct StandardOutputWatch::Impl {
  ErrorKeepingBuffer buffer;
  explicit Impl(std::streambuf* inner) : buffer(inner) {}
};

StandardOutputWatch::StandardOutputWatch() : impl_(std::make_unique<Impl>(std::cout.rdbuf())) {
  std::cout.rdbuf(&impl_->buffer);
}

StandardOutputWatch::~StandardOutputWatch() {
  std::cout.flush();
  std::cout.rdbuf(impl_->buffer.inner());
}

void exit_removing_temporary_outputs(int code) { indexer::exit_removing_files(code); }

void fail_writes_past_file_size_limit() { ::signal(SIGXFSZ, SIG_IGN); }

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa{}, sb{};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ec;
  return fs::weakly_canonical(fs::absolute(a, ec), ec) == fs::weakly_canonical(fs::absolute(b, ec), ec);
}

std::optional<std::string> standard_output_error() {
  std::cout.flush();
  const auto* watch = dynamic_cast<const ErrorKeepingBuffer*>(std::cout.rdbuf());
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int err = watch && watch->error() ? watch->error() : (flushed ? 0 : errno);
  if (!err && std::cout && flushed && !std::ferror(stdout)) return std::nullopt;
  return std::string("cannot write standard output") + (err ? std::string(": ") + std::strerror(err) : "");
}

}  // namespace cqlindex::exec
