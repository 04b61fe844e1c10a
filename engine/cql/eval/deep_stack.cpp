#include "engine/cql/eval/deep_stack.h"

#include <pthread.h>

#include <algorithm>
#include <exception>
#include <string>

#include "engine/cql/error.h"

namespace cqlindex::cql::eval {
namespace {

// The room left below stack_floor(): what one filter evaluated at a position may need (a nested search's own
// first levels, a move generation, a comment's text).
constexpr size_t kStackReserve = size_t{512} << 10;

struct Call {
  const std::function<void()>* f;
  std::exception_ptr error;
};

void* run_call(void* arg) {
  Call& call = *static_cast<Call*>(arg);
  try {
    (*call.f)();
  } catch (...) {
    call.error = std::current_exception();
  }
  return nullptr;
}

// Starts f on a thread with a stack of `bytes`; false when the system refuses it.
bool start_thread(size_t bytes, Call& call, pthread_t& thread) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return false;
  bool ok = pthread_attr_setstacksize(&attr, bytes) == 0 && pthread_create(&thread, &attr, run_call, &call) == 0;
  pthread_attr_destroy(&attr);
  return ok;
}

}  // namespace

void run_with_stack_for(size_t nodes, uint64_t game_number, const std::function<void()>& f) {
  constexpr size_t kMiB = size_t{1} << 20;
  size_t bytes = std::min<size_t>(8 * kMiB + nodes * kStackBytesPerNode, 1024 * kMiB);
  Call call{&f, nullptr};
  pthread_t thread;
  while (!start_thread(bytes, call, thread)) {
    if (bytes <= 64 * kMiB)
      throw CqlError("game number " + std::to_string(game_number) + " has " + std::to_string(nodes) +
                         " positions: the system gives no thread with a stack of " + std::to_string(bytes / kMiB) +
                         " MiB to evaluate the query on them (an address-space limit?)",
                     0, 0);
    bytes /= 2;
  }
  pthread_join(thread, nullptr);
  if (call.error) std::rethrow_exception(call.error);
}

const char* stack_floor() {
  thread_local const char* floor = [] {
    pthread_attr_t attr;
    void* low = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &low, &size);
      pthread_attr_destroy(&attr);
    }
    // unknown: no floor (as before); else the stack's lowest address plus the reserve
    return low && size > 2 * kStackReserve ? static_cast<const char*>(low) + kStackReserve : nullptr;
  }();
  return floor;
}

}  // namespace cqlindex::cql::eval
