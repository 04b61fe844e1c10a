#pragma once
// A query run for a server (`cqlindex serve`): the query or the submissions given as text, the index opened
// once by the caller, the matched games and every line kept in memory instead of going to files and the
// terminal, and a flag that stops the run between games. The command line leaves RunSettings::memory and
// SimilarRequest::memory null, and its runs write exactly what they wrote before.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace cqlindex::store {
class IndexStore;
class FamilyKeys;
}
namespace cqlindex::pgn {
class Game;
struct AddedComment;
}

namespace cqlindex::exec {

struct NearFacts;

// A comment the query adds to an output game, at the position reached after `ply` plies.
struct AddedText {
  uint32_t ply = 0;
  bool mainline = true;  // false: at a position inside a variation
  std::string text;      // "CQL" marks a matched position; "Game number N", messages, ...
};

// A game as the output file would receive it.
struct OutputGame {
  uint64_t number = 0;                                    // 1-based, in the repository
  std::string pgn;                                        // the output file's bytes for this game
  std::vector<std::pair<std::string, std::string>> tags;  // as written (settag included), in order
  std::vector<AddedText> comments;                        // what the query added, in the writer's order
};

// Why a served run stopped before its end (its caller's flag, or its time limit), as its diagnostics say.
inline constexpr const char* kCancelled = "stopped: the search was cancelled";

struct MemoryRun {
  // run: the CQL text (RunSettings::query_file only names it in messages); similar: the submissions' PGN
  // (SimilarRequest::submissions only names them).
  std::string text;
  // The fresh index of each file of the repository, in its list order, that the caller opened and keeps open
  // (a server: opened once, not per request); empty: the run opens them as usual.
  std::vector<const store::IndexStore*> indexes;
  // The keys of each of those indexes' tags family, held in memory by the caller (store/family_keys.h), in the
  // same order: a tag test (`player "..."`) then reads only the lists of the names it keeps, not the whole
  // family (the same candidates and output). Empty, or a null entry: the planner reads the family.
  std::vector<const store::FamilyKeys*> tag_keys;
  // Receives each output game, in output order; returning false stops the run there (a result cap).
  std::function<bool(OutputGame&&)> on_game;
  // similar with SimilarRequest::near: receives each near pair (near_facts.h) after the output games, in the
  // order `similar --near` prints them; returning false stops there (the pairs are all counted before).
  std::function<bool(NearFacts&&)> on_near;
  // The output games the caller reads (a page's end: offset + limit). A game found past them, in an unsorted
  // run, is still counted and handed to on_game, but unwritten: number only, no PGN, tags or comments (the
  // total stays exact at the cost of the replay alone, or of the tags alone when they decide the query:
  // RepositoryScan::read_by_tags). A sorted run writes every match: its order is known
  // only once all are found.
  uint64_t games_wanted = UINT64_MAX;
  std::ostream* messages = nullptr;     // what the command line prints on stdout (`message` lines); not null
  std::ostream* diagnostics = nullptr;  // what it prints on stderr (CQL errors at line:column); not null
  // When the flag is set (from another thread) or the deadline has passed, the run stops (between games, or inside
  // a game's evaluation: GameScanner::set_stop), says so in diagnostics and returns InputError.
  const std::atomic<bool>* cancel = nullptr;
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();

  // True when the run must stop: the caller's flag, or the time limit.
  bool cancelled() const {
    return (cancel && cancel->load(std::memory_order_relaxed)) || std::chrono::steady_clock::now() >= deadline;
  }
};

// Makes an input file truncated while a run reads it fail that run (InputError, the file named in its
// diagnostics) instead of ending the process with exit 2 as the command line does: a server calls it once,
// before it serves.
void survive_truncated_inputs();

// Returns the output game of `game` with `comments` added: its number, tags and the comments by ply (the
// removals of removecomment left out); the caller writes its pgn.
OutputGame output_game_of(const pgn::Game& game, const std::vector<pgn::AddedComment>& comments);

}  // namespace cqlindex::exec
