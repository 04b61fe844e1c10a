// The registry of what must not outlive the process: signal handlers, the watcher thread, the fatal exit.
#include "indexer/removal_on_exit.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iterator>
#include <thread>
#include <unistd.h>

#include "engine/pgn/reader.h"

namespace cqlindex::indexer {
namespace {

enum SlotState : int { kFree = 0, kFile = 1, kAction = 2, kUnnamed = 3 };

// A signal handler reaches only static storage: the files are kept in a fixed table, each path written before
// its state publishes it.
struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX] = {};
  std::function<void()> action;  // kAction: run on the watcher thread only
};
Slot g_slots[64];

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

std::recursive_mutex g_mutex;  // registration, removal, and hold()
int g_registered = 0;          // live slots (under g_mutex)
struct sigaction g_previous[NSIG];
bool g_installed[NSIG] = {};
int g_pipe[2] = {-1, -1};  // the handler's wake-up of the watcher

void on_signal(int sig) {
  const int saved = errno;
  const unsigned char byte = static_cast<unsigned char>(sig);
  [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &byte, 1);
  errno = saved;
}

// Takes `sig` unless the process ignores it (nohup: a hang-up must not end the command).
void install(int sig) {
  struct sigaction previous {};
  if (::sigaction(sig, nullptr, &previous) != 0 || previous.sa_handler == SIG_IGN) return;
  struct sigaction ours {};
  ours.sa_handler = on_signal;
  ours.sa_flags = SA_RESTART;
  sigemptyset(&ours.sa_mask);
  if (::sigaction(sig, &ours, nullptr) != 0) return;
  g_previous[sig] = previous;
  g_installed[sig] = true;
}

void restore(int sig) {
  if (!g_installed[sig]) return;
  ::sigaction(sig, &g_previous[sig], nullptr);
  g_installed[sig] = false;
}

}  // namespace

void remove_registered_files();

namespace {

void watch() {
  for (;;) {
    unsigned char byte = 0;
    const ssize_t n = ::read(g_pipe[0], &byte, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    const int sig = byte;
    std::lock_guard<std::recursive_mutex> lock(g_mutex);
    remove_registered_files();
    for (Slot& slot : g_slots)
      if (slot.state.load() == kAction && slot.action) slot.action();
    // The signal's own disposition (by default: end the process) now applies.
    restore(sig);
    ::raise(sig);
    if (g_registered > 0) install(sig);  // a handler of the program's own returned: watch again
  }
}

void start_watching() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (::pipe2(g_pipe, O_CLOEXEC) != 0) return;
    std::thread(watch).detach();
    pgn::set_input_fault_exit(exit_removing_files);
  });
}

int claim(int state, const std::string& path, std::function<void()> action) {
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  start_watching();
  if (g_pipe[0] < 0) return -1;
  for (int i = 0; i < int(std::size(g_slots)); ++i) {
    Slot& slot = g_slots[i];
    if (slot.state.load() != kFree) continue;
    const size_t n = std::min(path.size(), sizeof slot.path - 1);
    std::memcpy(slot.path, path.data(), n);
    slot.path[n] = '\0';
    slot.action = std::move(action);
    slot.state.store(state, std::memory_order_release);
    if (g_registered++ == 0)
      for (int sig : kSignals) install(sig);
    return i;
  }
  return -1;
}

}  // namespace

namespace {

std::string absolute_path(const std::string& path) {
  std::error_code ec;
  const std::string absolute = std::filesystem::absolute(path, ec).string();
  return ec ? path : absolute;
}

}  // namespace

RemovalOnExit RemovalOnExit::file(const std::string& path) {
  return RemovalOnExit(path.empty() ? claim(kUnnamed, "", nullptr) : claim(kFile, absolute_path(path), nullptr));
}

void RemovalOnExit::name_file(const std::string& path) {
  if (slot_ < 0) return;
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  Slot& slot = g_slots[slot_];
  const std::string absolute = absolute_path(path);
  const size_t n = std::min(absolute.size(), sizeof slot.path - 1);
  std::memcpy(slot.path, absolute.data(), n);
  slot.path[n] = '\0';
  slot.state.store(kFile, std::memory_order_release);
}

RemovalOnExit RemovalOnExit::action(std::function<void()> remove) {
  return RemovalOnExit(claim(kAction, "", std::move(remove)));
}

RemovalOnExit::RemovalOnExit(RemovalOnExit&& other) noexcept : slot_(other.slot_) { other.slot_ = -1; }

RemovalOnExit::~RemovalOnExit() {
  if (slot_ < 0) return;
  std::lock_guard<std::recursive_mutex> lock(g_mutex);
  Slot& slot = g_slots[slot_];
  slot.state.store(kFree, std::memory_order_release);
  slot.action = nullptr;
  if (--g_registered == 0)
    for (int sig : kSignals) restore(sig);
}

std::unique_lock<std::recursive_mutex> RemovalOnExit::hold() { return std::unique_lock<std::recursive_mutex>(g_mutex); }

void remove_registered_files() {
  for (Slot& slot : g_slots)
    if (slot.state.load(std::memory_order_acquire) == kFile) ::unlink(slot.path);
}

void exit_removing_files(int code) {
  remove_registered_files();
  ::_exit(code);
}

}  // namespace cqlindex::indexer
