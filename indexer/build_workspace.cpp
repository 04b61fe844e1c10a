// A build's temporary folder: lock file, stale-workspace removal, removal on signals, atomic publication.
#include "indexer/build_workspace.h"

#include "indexer/removal_on_exit.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cqlindex::indexer {
namespace fs = std::filesystem;
namespace {

constexpr const char* kWorkspaceInfix = ".cqlindex-build-";
constexpr const char* kLockName = "CQLINDEX-BUILD-LOCK";

bool fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

// Returns the index folder without a trailing separator, and its parent (never empty).
std::pair<fs::path, fs::path> split_dir(const std::string& dir) {
  fs::path p = fs::path(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  fs::path parent = p.parent_path();
  return {p, parent.empty() ? fs::path(".") : parent};
}

// Removes `root` even while other threads of this build still add files to it (a few passes).
void remove_tree(const std::string& root) {
  std::error_code ec;
  for (int pass = 0; pass < 3; ++pass) {
    // The lock file goes last: a removal cut short (kill -9) leaves a workspace the next build still knows as
    // a build's, and removes.
    for (const auto& entry : fs::directory_iterator(root, ec))
      if (entry.path().filename() != kLockName) fs::remove_all(entry.path(), ec);
    fs::remove_all(root, ec);
    if (!fs::exists(fs::symlink_status(root, ec))) return;
  }
}

}  // namespace

int remove_stale_workspaces(const std::string& dir) {
  const auto [index, parent] = split_dir(dir);
  const std::string prefix = index.filename().string() + kWorkspaceInfix;
  int removed = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || !entry.is_directory(ec) || entry.is_symlink(ec)) continue;
    // Ours only when it holds our lock file; stale only when no running build holds that lock. A build killed
    // before its lock file got its name left the file under its first name (".new") or, killed before that,
    // an empty folder: those are removed once a minute old (a running build leaves that state within
    // microseconds; rmdir removes nothing but an empty folder).
    struct stat st {};
    const bool minute_old = ::stat(entry.path().c_str(), &st) == 0 && st.st_mtime + 60 < ::time(nullptr);
    std::string lock = (entry.path() / kLockName).string();
    int fd = ::open(lock.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0 && minute_old) {
      lock += ".new";
      fd = ::open(lock.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
      if (fd < 0 && ::rmdir(entry.path().c_str()) == 0) ++removed;
    }
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      remove_tree(entry.path().string());
      ++removed;
    }
    ::close(fd);
  }
  return removed;
}

BuildWorkspace::BuildWorkspace(std::string dir, std::string root, int lock_fd)
    : dir_(std::move(dir)), root_(std::move(root)), lock_fd_(lock_fd),
      removal_(std::make_unique<RemovalOnExit>(RemovalOnExit::action([root = root_] { remove_tree(root); }))) {}

std::unique_ptr<BuildWorkspace> BuildWorkspace::create(const std::string& dir, std::string* error) {
  const auto [index, parent] = split_dir(dir);
  remove_stale_workspaces(dir);
  std::string root = (parent / (index.filename().string() + kWorkspaceInfix + "XXXXXX")).string();
  if (!::mkdtemp(root.data())) {
    fail(error, "cannot create a temporary folder beside " + dir + ": " + std::strerror(errno));
    return nullptr;
  }
  // Locked under another name, then renamed: a build cleaning up never finds the lock file unlocked.
  const std::string lock = root + "/" + kLockName;
  const std::string unlocked = lock + ".new";
  const int fd = ::open(unlocked.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0 || ::flock(fd, LOCK_EX) != 0 || ::rename(unlocked.c_str(), lock.c_str()) != 0) {
    fail(error, "cannot create " + lock + ": " + std::strerror(errno));
    if (fd >= 0) ::close(fd);
    remove_tree(root);
    return nullptr;
  }
  std::error_code ec;
  fs::create_directory(root + "/runs", ec);
  auto workspace = std::unique_ptr<BuildWorkspace>(new BuildWorkspace(index.string(), root, fd));
  if (ec) {
    fail(error, "cannot create " + root + "/runs: " + ec.message());
    return nullptr;
  }
  return workspace;
}

BuildWorkspace::~BuildWorkspace() {
  removal_.reset();
  remove_tree(root_);
  ::close(lock_fd_);
}

bool BuildWorkspace::publish(std::string* error) {
  const auto lock = RemovalOnExit::hold();
  const std::string fresh = index_dir();
  std::error_code ec;
  const bool had_old = fs::exists(fs::symlink_status(dir_, ec));
  // Exchange: the path never lacks an index, and a reader holds either generation whole.
  if (::renameat2(AT_FDCWD, fresh.c_str(), AT_FDCWD, dir_.c_str(), had_old ? RENAME_EXCHANGE : RENAME_NOREPLACE) == 0)
    return true;
  if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
    return fail(error, "cannot move the new index into " + dir_ + ": " + std::strerror(errno));
  // A file system without renameat2's flags: two renames (a reader may briefly find no index).
  if (had_old) fs::rename(dir_, root_ + "/old", ec);
  if (!ec) fs::rename(fresh, dir_, ec);
  if (ec) return fail(error, "cannot move the new index into " + dir_ + ": " + ec.message());
  return true;
}

}  // namespace cqlindex::indexer
