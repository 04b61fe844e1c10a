#pragma once
// A game's evaluation on a stack sized to the game. line and path search a game as CQL 6.2 does, by a
// backtracking recursion one level a position deep: a 20,000-ply line needs far more than a thread's usual
// 8 MiB. A long game is evaluated on a thread of its own whose stack holds that many levels (reserved, and
// committed by the system only as deep as the search goes); a search that would still reach the end of its
// stack (a very long game under many nested repetitions) stops with a query error instead (stack_floor).
#include <cstddef>
#include <cstdint>
#include <functional>

namespace cqlindex::cql::eval {

// Games of up to this many positions are evaluated on the caller's stack.
inline constexpr size_t kNodesOnCallerStack = 2000;
// The stack a position of a long game is given: a line or path of a repetition takes about 1 KiB a position,
// each repetition nested in it more.
inline constexpr size_t kStackBytesPerNode = 4096;

// Calls f on a thread whose stack has room for `nodes` positions (up to 1 GiB; less when the system refuses
// that much; f's exceptions are rethrown here). Throws CqlError naming the game when the system gives no thread
// with a stack of at least 64 MiB (an address-space limit).
void run_with_stack_for(size_t nodes, uint64_t game_number, const std::function<void()>& f);

// The lowest address the calling thread's stack may reach with room to spare for a filter's own evaluation:
// the recursive searches stop with an error below it rather than overflow the stack.
const char* stack_floor();

}  // namespace cqlindex::cql::eval
