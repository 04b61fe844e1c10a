// One malloc arena per core.
#include "serve/flat_memory.h"

#include <malloc.h>

#include <algorithm>
#include <thread>

namespace cqlindex::serve {

void limit_malloc_arenas() { mallopt(M_ARENA_MAX, int(std::max(1u, std::thread::hardware_concurrency()))); }

}  // namespace cqlindex::serve
