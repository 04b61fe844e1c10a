// make-scale-pgn: writes a PGN repository of N distinct, legal, realistic games for scripts/bench-scale.
//
//   make-scale-pgn N OUT.pgn SOURCE.pgn... [--seed S] [--threads T] [--sample FILE [--sample-games M]]
//
// Game i is copy i / S of source game i % S (S = the usable, distinct games of the sources, in file order):
// copy 0 is the real game, copy k >= 1 a variation of its last plies (game_variation.h). Games are made on T
// threads in blocks and written in order. Every game's text is hashed (XXH3-64): a variation that repeats an
// earlier game of the same copy round is drawn again, and at the end all N hashes are checked distinct (rounds
// differ by their Event tag). --sample also writes every (N/M)-th game to FILE (for `cqlindex check`).
// Prints what it did on stdout; exit 0 done, 1 usage, 2 unreadable source or unwritable output, 3 not distinct.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <future>
#include <iostream>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include <xxhash.h>

#include "tools/scale-pgn/game_variation.h"
#include "tools/scale-pgn/source_games.h"

namespace {

using cqlindex::tools::GameText;
using cqlindex::tools::SourceGame;

constexpr uint64_t kBlockGames = 4096;
constexpr uint32_t kMaxSalt = 64;  // draws of one copy before giving up on making it distinct

// The games of one block, made on a worker thread.
struct Block {
  std::string text;
  std::vector<uint32_t> end;  // end[i]: where game i's text ends in `text`
  std::vector<uint64_t> hash;
  std::vector<GameText> info;
};

struct Options {
  uint64_t games = 0;
  std::string out;
  std::vector<std::string> sources;
  uint64_t seed = 20;
  unsigned threads = 0;
  std::string sample;
  uint64_t sample_games = 20000;
};

int usage(const char* why) {
  std::cerr << "make-scale-pgn: " << why
            << "\nusage: make-scale-pgn N OUT.pgn SOURCE.pgn... [--seed S] [--threads T] [--sample FILE "
               "[--sample-games M]]\n";
  return 1;
}

// Block b: games [b * kBlockGames, min(N, ...)).
Block make_block(const std::vector<SourceGame>& sources, uint64_t first, uint64_t count, uint64_t seed) {
  Block b;
  b.text.reserve(count * 700);
  b.end.reserve(count);
  b.hash.reserve(count);
  b.info.reserve(count);
  for (uint64_t i = first; i < first + count; ++i) {
    const size_t start = b.text.size();
    b.info.push_back(cqlindex::tools::write_game(sources[i % sources.size()], i % sources.size(),
                                                 i / sources.size(), seed, 0, b.text));
    b.hash.push_back(XXH3_64bits(b.text.data() + start, b.text.size() - start));
    b.end.push_back(uint32_t(b.text.size()));
  }
  return b;
}

bool write_all(std::FILE* f, const char* data, size_t size) { return std::fwrite(data, 1, size, f) == size; }

// Returns "" after reading the command line into `o`, else why it is not a usable one.
std::string parse_options(int argc, char** argv, Options& o) {
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "--seed") {
      if (!(v = value())) return "--seed needs a number";
      o.seed = std::strtoull(v, nullptr, 10);
    } else if (a == "--threads") {
      if (!(v = value())) return "--threads needs a number";
      o.threads = unsigned(std::strtoul(v, nullptr, 10));
    } else if (a == "--sample") {
      if (!(v = value())) return "--sample needs a file";
      o.sample = v;
    } else if (a == "--sample-games") {
      if (!(v = value())) return "--sample-games needs a number";
      o.sample_games = std::max<uint64_t>(1, std::strtoull(v, nullptr, 10));
    } else if (a.size() > 1 && a[0] == '-') {
      return "unknown option " + a;
    } else {
      positional.push_back(a);
    }
  }
  if (positional.size() < 3) return "needs N, OUT.pgn and at least one SOURCE.pgn";
  o.games = std::strtoull(positional[0].c_str(), nullptr, 10);
  if (o.games == 0) return "N must be a positive number of games";
  o.out = positional[1];
  o.sources.assign(positional.begin() + 2, positional.end());
  if (o.threads == 0) o.threads = std::max(1u, std::thread::hardware_concurrency());
  return "";
}

// Returns the exit status (0, or 2 after its message) of reading the sources' usable games into `sources`,
// exact duplicates (same copy-0 text) dropped; says what it read on stdout.
int read_sources(const Options& o, std::vector<SourceGame>& sources) {
  std::vector<SourceGame> read;
  cqlindex::tools::SourceStats stats;
  for (const std::string& path : o.sources) {
    std::string error;
    if (!cqlindex::tools::read_source_games(path, o.threads, read, stats, &error)) {
      std::cerr << "make-scale-pgn: " << error << "\n";
      return 2;
    }
  }
  std::unordered_set<uint64_t> seen;
  std::string text;
  for (SourceGame& s : read) {
    text.clear();
    cqlindex::tools::write_game(s, 0, 0, o.seed, 0, text);
    if (seen.insert(XXH3_64bits(text.data(), text.size())).second) sources.push_back(std::move(s));
    else ++stats.duplicates;
  }
  read = {};
  if (sources.empty()) {
    std::cerr << "make-scale-pgn: no usable game in the sources\n";
    return 2;
  }
  std::cout << "sources: " << stats.read << " games read, " << sources.size() << " used, " << stats.unusable
            << " unusable (errors, FEN starts, variants, null moves, no moves), " << stats.duplicates
            << " exact duplicates dropped\n";
  return 0;
}

// What writing the games did: its counts, and every game's text and move hashes.
struct Written {
  uint64_t bytes = 0, plies = 0, redrawn = 0, sampled = 0;
  std::vector<uint64_t> game_hashes, move_hashes;
};

// Returns the exit status (0, 2 on a write error, 3 when a game cannot be made distinct, after its message) of
// writing the N games to `out` (every sample_every-th also to `sample`), made on the workers in blocks.
int write_games(const Options& o, const std::vector<SourceGame>& sources, std::FILE* out, std::FILE* sample,
                uint64_t sample_every, Written& w) {
  const uint64_t n_sources = sources.size();
  // Blocks are made ahead on the workers and written here in order.
  std::deque<std::future<Block>> pending;
  uint64_t next_block_first = 0;
  auto launch = [&] {
    while (pending.size() < 2 * o.threads && next_block_first < o.games) {
      const uint64_t count = std::min(kBlockGames, o.games - next_block_first);
      pending.push_back(std::async(std::launch::async, make_block, std::cref(sources), next_block_first, count,
                                   o.seed));
      next_block_first += count;
    }
  };
  w.game_hashes.reserve(o.games);
  w.move_hashes.reserve(o.games);
  std::unordered_set<uint64_t> round;  // the hashes of the current copy round's games
  uint64_t index = 0;
  std::string redo;
  bool ok = true;
  launch();
  while (!pending.empty() && ok) {
    Block b = pending.front().get();
    pending.pop_front();
    launch();
    for (size_t i = 0; i < b.end.size() && ok; ++i, ++index) {
      if (index % n_sources == 0) round.clear();
      const char* text = b.text.data() + (i ? b.end[i - 1] : 0);
      size_t size = b.end[i] - (i ? b.end[i - 1] : 0);
      uint64_t hash = b.hash[i];
      GameText info = b.info[i];
      // The same game as one earlier in this round: draw the copy again (copy 0 cannot repeat: sources are
      // distinct).
      for (uint32_t salt = 1; !round.insert(hash).second; ++salt) {
        if (salt > kMaxSalt) {
          std::cerr << "make-scale-pgn: game " << index + 1 << " repeats an earlier game after " << kMaxSalt
                    << " draws\n";
          return 3;
        }
        redo.clear();
        info = cqlindex::tools::write_game(sources[index % n_sources], index % n_sources, index / n_sources,
                                           o.seed, salt, redo);
        hash = XXH3_64bits(redo.data(), redo.size());
        text = redo.data();
        size = redo.size();
        ++w.redrawn;
      }
      ok = write_all(out, text, size);
      if (ok && sample && index % sample_every == 0) {
        ok = write_all(sample, text, size);
        ++w.sampled;
      }
      w.game_hashes.push_back(hash);
      w.move_hashes.push_back(info.moves_hash);
      w.bytes += size;
      w.plies += info.plies;
    }
  }
  while (!pending.empty()) {  // (only after a write error)
    pending.front().wait();
    pending.pop_front();
  }
  ok = ok && std::fflush(out) == 0 && !std::ferror(out);
  ok = (std::fclose(out) == 0) && ok;
  if (sample) ok = (std::fclose(sample) == 0) && ok;
  if (!ok) {
    std::cerr << "make-scale-pgn: writing failed: " << std::strerror(errno) << "\n";
    return 2;
  }
  return 0;
}

// Returns the exit status (0, or 3 when some games are not distinct) after saying on stdout what was written.
int report(const Options& o, uint64_t n_sources, bool sampled_to_file, uint64_t sample_every, Written& w,
           double secs) {
  auto distinct = [](std::vector<uint64_t>& v) {
    std::sort(v.begin(), v.end());
    return uint64_t(std::unique(v.begin(), v.end()) - v.begin());
  };
  const uint64_t distinct_games = distinct(w.game_hashes);
  const uint64_t distinct_moves = distinct(w.move_hashes);
  const uint64_t copies = (o.games + n_sources - 1) / n_sources;
  std::printf("wrote %llu games (%llu round%s of the %llu sources, the last %s), %llu bytes (%.0f per game), "
              "%llu plies, %llu redrawn; %.1f s, %.0f games/s\n",
              (unsigned long long)o.games, (unsigned long long)copies, copies > 1 ? "s" : "",
              (unsigned long long)n_sources, o.games % n_sources ? "partial" : "whole", (unsigned long long)w.bytes,
              double(w.bytes) / double(o.games), (unsigned long long)w.plies, (unsigned long long)w.redrawn, secs,
              double(o.games) / secs);
  if (sampled_to_file)
    std::printf("sample: %llu games (every %llu-th) in %s\n", (unsigned long long)w.sampled,
                (unsigned long long)sample_every, o.sample.c_str());
  std::printf("distinct: %llu of %llu game texts; %llu distinct move sequences (%.1f %%)\n",
              (unsigned long long)distinct_games, (unsigned long long)o.games, (unsigned long long)distinct_moves,
              100.0 * double(distinct_moves) / double(o.games));
  std::fflush(stdout);
  if (distinct_games != o.games) {
    std::cerr << "make-scale-pgn: " << o.games - distinct_games << " games are not distinct\n";
    return 3;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (const std::string why = parse_options(argc, argv, o); !why.empty()) return usage(why.c_str());
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<SourceGame> sources;
  if (int status = read_sources(o, sources); status != 0) return status;

  std::FILE* out = std::fopen(o.out.c_str(), "wb");
  std::FILE* sample = o.sample.empty() ? nullptr : std::fopen(o.sample.c_str(), "wb");
  if (!out || (!o.sample.empty() && !sample)) {
    std::cerr << "make-scale-pgn: cannot write " << (!out ? o.out : o.sample) << ": " << std::strerror(errno)
              << "\n";
    return 2;
  }
  static char buffer[1 << 22];
  std::setvbuf(out, buffer, _IOFBF, sizeof buffer);
  const uint64_t sample_every = std::max<uint64_t>(1, o.games / o.sample_games);
  Written written;
  if (int status = write_games(o, sources, out, sample, sample_every, written); status != 0) return status;
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report(o, sources.size(), sample != nullptr, sample_every, written, secs);
}
