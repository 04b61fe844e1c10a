// Reading a PGN file: mapping it, splitting it into games, and parsing the games on several threads with the
// results delivered in file order.
//
//   auto file = pgn::PgnFile::open(path, &err);             // mmap (read() for pipes and other non-files)
//   pgn::GameReader reader(file->text());                   // one thread:
//   pgn::Game g;  while (reader.next(g)) { ... }
//
//   pgn::ReadOptions opt;  opt.threads = 0;                 // all cores:
//   pgn::for_each_game<std::string>(file->text(), opt,
//       [](const pgn::Game& g, unsigned worker) { return something(g); },            // on a worker thread
//       [](const pgn::GameInfo& info, std::string&& r) { print(r); return true; });  // caller thread, in order
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <system_error>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/pgn/game.h"
#include "engine/pgn/game_parser.h"
#include "engine/pgn/game_splitter.h"
#include "engine/pgn/range_reader.h"

namespace cqlindex::pgn {

// The bytes of a PGN file: memory-mapped if it is a regular file, otherwise read into memory. Should the file
// shrink while it is mapped (another process truncates it), the access past its new end ends the run with
// "FILE changed while it was read" and exit 2 (a SIGBUS handler) instead of a crash.
class PgnFile {
 public:
  // nullptr and a message in *error if the file cannot be opened or read.
  static std::unique_ptr<PgnFile> open(const std::string& path, std::string* error);
  ~PgnFile();
  PgnFile(const PgnFile&) = delete;
  PgnFile& operator=(const PgnFile&) = delete;

  std::string_view text() const { return {data_, size_}; }
  const std::string& path() const { return path_; }

  // Lets the kernel drop the mapped pages before `offset` from this process (they are read again from the
  // file if touched): keeps the resident memory of a long sequential scan independent of the file size.
  // Views into that part stay valid. No effect when the file was read into memory.
  void release_before(uint64_t offset);

  // A mapped file truncated by another process while it is read ends the process with exit 2 and a message
  // (SIGBUS on the pages past its new end); after this call (a server, for all its files) those pages read as
  // zeros instead and shrunk() says so: the owner must then refuse what it read.
  static void survive_shrinking();
  // True when the file was truncated while mapped, and its lost pages read as zeros (survive_shrinking).
  bool shrunk() const;

 private:
  PgnFile() = default;
  std::string path_;
  const char* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
  int slot_ = -1;  // its entry in the SIGBUS handler's table of mappings (reader.cpp)
  uint64_t released_ = 0;  // pages before this offset were handed back (release_before)
  std::string buffer_;  // contents when not mapped
};

// Sets how the SIGBUS handler ends the process once it has named the truncated file (by default _exit): a
// higher layer that must remove its temporary files first gives its own (safe in a signal handler).
void set_input_fault_exit(void (*exit_now)(int code));

// Reads games one after the other on the calling thread.
class GameReader {
 public:
  explicit GameReader(std::string_view text, ParseOptions options = {}, uint64_t first_number = 1)
      : text_(text), splitter_(text, first_number), options_(options) {}
  // Fills `game` with the next game; false at the end.
  bool next(Game& game);

 private:
  std::string_view text_;
  GameSplitter splitter_;
  ParseOptions options_;
};

struct ReadOptions {
  unsigned threads = 0;  // 0: every core
  ParseOptions parse;
  size_t batch_games = 64;  // games handed to a worker at a time
  uint64_t first_number = 1;  // the number of the text's first game (a repository's later files continue)
  // Called on the calling thread, in order, after each delivered batch of games with the byte offset where
  // the delivered games end (for progress bars and PgnFile::release_before).
  std::function<void(uint64_t)> progress;
};

// What the in-order callback learns about each game besides the worker's result.
struct GameInfo {
  uint64_t number = 0;
  uint64_t offset = 0;
  uint64_t length = 0;
  uint32_t first_line = 0;
  uint32_t first_col = 1;  // column of the game's first byte (1 unless it starts after a marker mid-line)
  GameStatus status = GameStatus::Ok;
  uint32_t plies = 0;  // mainline plies read
  uint32_t tags = 0;   // tag pairs read
  bool has_result = false;  // a game-termination marker was read
  std::vector<PgnError> errors;
};

// Totals over a run.
struct ReadStats {
  uint64_t games = 0;
  uint64_t errors = 0;    // messages of Severity::Error
  uint64_t warnings = 0;  // Severity::Warning
  uint64_t skipped = 0;   // games skipped as chess variants
  uint64_t plies = 0;     // mainline plies over all games
  void add(const GameInfo& g);
};

// The number of worker threads `threads` (0 = hardware concurrency) stands for.
unsigned resolve_threads(unsigned threads);

// Parses every game of `text` on `options.threads` workers. `work(game, worker)` runs on a worker thread for
// each game (in parallel, worker in [0, threads)); `deliver(info, result)` runs on the calling thread in file
// order and may return false to stop early. Memory stays bounded: only a few batches are in flight.
template <class R>
ReadStats for_each_game(std::string_view text, const ReadOptions& options,
                        const std::function<R(const Game&, unsigned)>& work,
                        const std::function<bool(const GameInfo&, R&&)>& deliver);

// Returns what the in-order callback learns about the parsed game `g`.
inline GameInfo info_of(const Game& g) {
  return GameInfo{g.number,     g.offset, g.length,           g.first_line,
                  g.first_col,  g.status, g.mainline_plies(), uint32_t(g.tags.size()),
                  g.result != Result::Missing, g.errors};
}

// ---------------------------------------------------------------------------------------------------------
// Implementation of for_each_game.

template <class R>
ReadStats for_each_game(std::string_view text, const ReadOptions& options,
                        const std::function<R(const Game&, unsigned)>& work,
                        const std::function<bool(const GameInfo&, R&&)>& deliver) {
  ReadStats stats;
  const unsigned threads = resolve_threads(options.threads);
  if (threads <= 1) {
    GameReader reader(text, options.parse, options.first_number);
    Game game;
    while (reader.next(game)) {
      GameInfo info = info_of(game);
      R r = work(game, 0);
      stats.add(info);
      if (!deliver(info, std::move(r))) break;
      if (options.progress && stats.games % 256 == 0) options.progress(info.offset + info.length);
    }
    if (options.progress) options.progress(text.size());
    return stats;
  }

  struct Batch {
    uint64_t seq = 0;
    std::vector<GameSpan> spans;
    std::vector<GameInfo> infos;
    std::vector<R> results;
    bool done = false;
  };
  std::mutex mu;
  std::condition_variable cv;
  GameSplitter splitter(text, options.first_number);
  bool split_done = false, stop = false;
  uint64_t next_seq = 0;      // next batch to hand out
  uint64_t next_deliver = 0;  // next batch to deliver
  std::deque<std::unique_ptr<Batch>> window;  // batches [next_deliver, next_seq)
  const uint64_t max_in_flight = uint64_t(threads) * 4;
  const size_t batch_games = options.batch_games ? options.batch_games : 64;

  // The first exception of a worker (out of memory) stops the reading and is rethrown on the calling thread once
  // every thread is joined: a joinable thread unwound would end the process through std::terminate.
  std::exception_ptr first_error;

  auto worker = [&](unsigned id) {
    Game game;
    try {
      for (;;) {
        Batch* batch = nullptr;
        {
          std::unique_lock lock(mu);
          cv.wait(lock, [&] { return stop || split_done || next_seq - next_deliver < max_in_flight; });
          if (stop || split_done) return;
          auto b = std::make_unique<Batch>();
          b->seq = next_seq;
          GameSpan span;
          while (b->spans.size() < batch_games && splitter.next(span)) b->spans.push_back(span);
          if (b->spans.empty()) {
            split_done = true;
            cv.notify_all();
            return;
          }
          ++next_seq;
          batch = b.get();
          window.push_back(std::move(b));
        }
        batch->infos.reserve(batch->spans.size());
        batch->results.reserve(batch->spans.size());
        for (const GameSpan& s : batch->spans) {
          parse_game(text.substr(s.offset, s.length), GameLocation{s.number, s.offset, s.first_line, s.first_col},
                     game, options.parse);
          batch->infos.push_back(info_of(game));
          batch->results.push_back(work(game, id));
        }
        {
          std::lock_guard lock(mu);
          batch->done = true;
        }
        cv.notify_all();
      }
    } catch (...) {
      {
        std::lock_guard lock(mu);
        if (!first_error) first_error = std::current_exception();
        stop = true;
      }
      cv.notify_all();
    }
  };

  std::vector<std::thread> pool;
  auto stop_and_join = [&] {
    {
      std::lock_guard lock(mu);
      stop = true;
    }
    cv.notify_all();
    for (std::thread& t : pool) t.join();
  };
  try {
    pool.reserve(threads);
    for (unsigned i = 0; i < threads; ++i) {
      try {
        pool.emplace_back(worker, i);
      } catch (const std::system_error&) {  // the system gives no more threads (ulimit -v, -u): fewer do it all
        if (pool.empty()) throw;
        break;
      }
    }

    for (;;) {
      std::unique_ptr<Batch> batch;
      {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] {
          return first_error || (!window.empty() && window.front()->done) || (split_done && window.empty());
        });
        if (first_error || window.empty()) break;
        batch = std::move(window.front());
        window.pop_front();
        ++next_deliver;
      }
      cv.notify_all();
      bool go_on = true;
      for (size_t i = 0; i < batch->infos.size() && go_on; ++i) {
        stats.add(batch->infos[i]);
        go_on = deliver(batch->infos[i], std::move(batch->results[i]));
      }
      if (!go_on) break;
      if (options.progress && !batch->infos.empty())
        options.progress(batch->infos.back().offset + batch->infos.back().length);
    }
  } catch (...) {  // a thread refused, or deliver threw: the workers stop before the exception leaves
    stop_and_join();
    throw;
  }
  stop_and_join();
  if (first_error) std::rethrow_exception(first_error);
  return stats;
}

}  // namespace cqlindex::pgn
