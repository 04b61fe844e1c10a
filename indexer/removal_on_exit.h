#pragma once
// What a command is writing that must not outlive it: a build's workspace, an output's temporary file. While
// one is registered, SIGINT, SIGTERM and SIGHUP (unless the process ignores them, as under nohup) are taken by a
// handler that only wakes a watcher thread; the watcher removes everything registered, then lets the signal
// take its course (by default: end the process). The handler runs in whatever thread the signal meets, so
// threads started before the registration (RocksDB's, the worker pool's) need no signal mask. A process that
// must end at once on a fatal error (a mapped input truncated under it, out of memory) calls exit_removing_files,
// which removes the registered files (unlink is safe in a signal handler; a folder is left for the next build,
// which removes a killed build's workspace). The one home of this for the build (indexer/build_workspace.h) and
// the output files (exec/output_file.h).
#include <functional>
#include <mutex>
#include <string>

namespace cqlindex::indexer {

class RemovalOnExit {
 public:
  // Registers the file `path`: removed when a signal or exit_removing_files ends the process. Without a path,
  // the signals are taken at once and the file named later (name_file): a file created under hold() and named
  // before the lock is released is never left by a signal, however soon it comes.
  static RemovalOnExit file(const std::string& path = "");
  // Names the file of a registration made without one.
  void name_file(const std::string& path);
  // Registers `remove` (a folder's removal): run on the watcher thread when a signal ends the process.
  static RemovalOnExit action(std::function<void()> remove);
  // Unregisters (removes nothing: the owner has removed or published what it wrote).
  ~RemovalOnExit();
  RemovalOnExit(RemovalOnExit&& other) noexcept;
  RemovalOnExit& operator=(RemovalOnExit&&) = delete;
  RemovalOnExit(const RemovalOnExit&) = delete;
  RemovalOnExit& operator=(const RemovalOnExit&) = delete;

  // Returns a lock that holds the removal off while the owner moves what it wrote into place: a signal that
  // comes meanwhile removes only what is left once it is released. Unregister (destroy) under it once moved.
  static std::unique_lock<std::recursive_mutex> hold();

 private:
  explicit RemovalOnExit(int slot) : slot_(slot) {}
  int slot_;  // -1: moved from, or no slot was free (nothing is removed then)
};

// Removes every registered file (not an action). Safe in a signal handler.
void remove_registered_files();

// Removes every registered file, then ends the process with `code` at once (_exit). Safe in a signal handler.
[[noreturn]] void exit_removing_files(int code);

}  // namespace cqlindex::indexer
