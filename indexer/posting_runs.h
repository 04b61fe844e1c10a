#pragma once
// External sort of (family, key, game) postings: a build emits them in any order from several threads, each
// thread into its own RunWriter, which sorts them in memory-bounded runs written to files; a RunMerger then
// reads all runs in key order and yields one posting list per (family, key).
// The key space is cut into kRunPartitions fixed ranges (run_partition): each run is written as one file per
// range, so the ranges can be merged (and their SST files written) on several threads at once, and the files of
// a family from different ranges never overlap. The cut depends on keys only, never on the thread count.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "indexer/key_groups.h"
#include "indexer/position_bins.h"
#include "store/family.h"
#include "store/posting_list.h"

namespace cqlindex::indexer {

// The key ranges: the two halves of the similar family's hashes; material; the later families (tags).
// The two similar halves hold about as many postings, material and tags each about a third of one half, so two
// threads taking ranges in turn finish together.
constexpr size_t kRunPartitions = 4;
// A run file's first byte: one posting a record (position postings), or one key's games a record (posting_runs.cpp).
constexpr char kPostingFormat = 'R', kGroupFormat = 'G';
// The games of one key in a record of a 'G' run at most: a record fits a read buffer (kLeastRunReadBuffer).
constexpr size_t kGroupGames = 1024;
// Returns the range of a posting whose family byte and key are `family_and_key` (monotone in byte order).
size_t run_partition(std::string_view family_and_key);
// True for the ranges of the similar family's postings (position hashes only: position_merge.h merges them).
constexpr bool holds_positions(size_t partition) { return partition < 2; }

class RunWriter {
 public:
  // Runs go to `dir`/run-`name`-N-pP (P: the range); a run is written when `max_pairs` postings are buffered.
  RunWriter(std::string dir, std::string name, size_t max_pairs = 1 << 20);

  // Buffers the posting (family, key) -> game. Keys are at most 255 bytes.
  void add(store::Family family, std::string_view key, uint32_t game);
  // Buffers the similar family's posting of position hash `hash` (its top 48 bits, store::write_position_hash's
  // key) -> game: the same as add(Similar, 6-byte key, game), in one 8-byte integer binned by its top byte and
  // sorted by radix a bin at a time, since these are nine postings in ten.
  void add_position(uint64_t hash, uint32_t game);
  // Writes what is buffered as a run; returns false (with `error`) when a file cannot be written.
  bool flush(std::string* error);
  // Writes what is buffered as a last run and frees the buffers (before the merge needs its own).
  bool finish(std::string* error);
  // The files written so far that hold postings of key range `partition`.
  const std::vector<std::string>& runs(size_t partition) const { return runs_[partition]; }
  // False once a write failed (the error is reported by the next flush()).
  bool ok() const { return ok_; }

 private:
  // A buffered similar posting is one integer: the hash's top 48 bits, then the game's distance from
  // position_base_ in the low 16 bits, so that its order is (hash, game) and a run of them is half the memory
  // of a (hash, game) pair. A game kPositionGameSpan or more past the
  // base first flushes the run; one before it (out of order) is buffered by add().
  static constexpr uint64_t kPositionGameSpan = uint64_t{1} << 16;
  // Sorts the buffered positions by their hash's first 16 bits and writes them as run files (key ranges 0 and 1).
  bool flush_positions();
  // Run files are written through out_, kRunWriteBuffer bytes at a time (a whole run built in one string took a
  // fresh allocation of its size at every flush: a page fault per 4 KiB, and the copies of its growth).
  static constexpr size_t kRunWriteBuffer = size_t{1} << 20;
  // Starts the run file `prefix`-`name_`-`run_count_`-p`partition` of `format` (created at its first bytes,
  // then recorded).
  void start_run_file(const char* prefix, size_t partition, char format);
  // Writes out_ to the current run file and clears it; false (recorded in ok_/error_) when it cannot.
  bool spill_out();
  // Writes what is left of the current run file and closes it; false when a write failed.
  bool close_run_file();
  std::string dir_, name_;
  size_t max_pairs_;
  KeyGroups keys_;  // the postings of every family but the positions' (key_groups.h)
  PositionBins positions_;  // by their top byte (position_bins.h)
  uint32_t position_base_ = 0;  // the game of the run's first buffered position
  std::vector<std::vector<std::string>> runs_;  // by partition
  std::string out_;        // the current run file's bytes not yet written
  std::string file_path_;  // the current run file
  size_t file_partition_ = 0;
  char file_format_ = kGroupFormat;
  int file_fd_ = -1;       // open once it has bytes
  size_t run_count_ = 0;
  bool ok_ = true;
  std::string error_;
};

// What a key range's runs hold: any family's postings, or position hashes only (ranges where holds_positions).
enum class RunContent { Any, Positions };

// Merges `runs` (sorted runs of one key range) into new runs in `dir` (named `name`-ROUND-GROUP) until at most
// `fan_in` are left: in groups of `fan_in`, round after round, except that when merging the first few leaves
// `fan_in`, only those are merged; the merged ones are removed. A merge then holds at most `fan_in` read buffers
// (`buffer_bytes` together, as RunMerger::open shares them), whatever the size of the build. Runs of positions
// are merged by slices (PositionMerge), others by RunMerger. False (with `error`) when a run cannot be read or
// written.
bool reduce_runs(std::vector<std::string>& runs, size_t fan_in, size_t buffer_bytes, const std::string& dir,
                 const std::string& name, std::string* error, RunContent content = RunContent::Any);

// The read buffer of one run in a merge: at most kRunReadBuffer, at least kLeastRunReadBuffer (a few records).
constexpr size_t kRunReadBuffer = 256 * 1024;
constexpr size_t kLeastRunReadBuffer = 16 * 1024;

// Returns the read buffer of each of `runs` run files read together through `buffer_bytes` in all.
inline size_t run_read_buffer(size_t buffer_bytes, size_t runs) {
  return std::clamp(buffer_bytes / std::max<size_t>(runs, 1), kLeastRunReadBuffer, kRunReadBuffer);
}

// One run file read through a buffer (mapping whole runs would keep every run resident), and the record under
// its read position: RunMerger's cursors and PositionMerge's runs.
class RunReader {
 public:
  RunReader() = default;
  RunReader(const RunReader&) = delete;
  RunReader& operator=(const RunReader&) = delete;
  ~RunReader();
  // Opens run file `path`, read through `buffer` bytes; false (with `error`) when it cannot be opened.
  bool open(const std::string& path, size_t buffer, std::string* error);
  // Reads the next record into text, head and count, at its first game; false at the end of the file, or when a
  // read fails or the file is not a run file or ends in a cut record (which a writer never leaves): failure()
  // then says so.
  bool load();
  // Returns the record's current game (its games are increasing).
  uint32_t game() const;
  // Moves to the record's next game; false when the current one was its last.
  bool next_game() { return ++at_ < count; }
  // Returns why load() stopped before the end ("" when it did not).
  const std::string& failure() const { return failure_; }

  std::string_view text;  // family + key of the current record
  uint64_t head = 0;      // its first 8 bytes, big-endian: most comparisons end here
  size_t count = 0;       // its games: 1 in an 'R' file

 private:
  static constexpr size_t kMaxRecord = 1 + 256 + 2 + 4 * kGroupGames;
  char format_ = 0;  // the file's first byte, once read
  const char* games_ = nullptr;  // the record's games in the buffer
  size_t at_ = 0;                // the current one
  // Keeps at least one whole record in the buffer unless the file ends first.
  void refill();
  std::string path_;
  int fd_ = -1;
  std::string buffer_;
  size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  std::string failure_;
};

// Reads sorted runs together, in (family, key) order: 'G' runs, and 'R' runs of sorted postings (merge_group's
// of positions; a RunWriter's position runs are sorted by slices only, which PositionMerge merges).
class RunMerger {
 public:
  // Opens the runs, each read through a buffer of kRunReadBuffer or its share of `buffer_bytes` if smaller (at
  // least kLeastRunReadBuffer); false (with `error`) when one cannot be read.
  bool open(const std::vector<std::string>& runs, std::string* error, size_t buffer_bytes = SIZE_MAX);
  RunMerger();
  ~RunMerger();

  // True when another (family, key) is left; `family()` tells which family it belongs to.
  bool has_next() const { return !heap_.empty(); }
  store::Family family() const;
  // Moves to the next key: fills `key` and `games` (increasing, no duplicates).
  void next(std::string& key, std::vector<uint32_t>& games);

 private:
  // A cursor in the heap with what decides most comparisons of its current record, so that they read the heap
  // only and not the cursor (a merge compares about log2(runs) pairs a record: most of its time).
  struct Node {
    uint64_t head;    // the record's first 8 bytes of family + key, big-endian, zero-padded
    uint32_t size;    // its family + key bytes
    uint32_t game;    // the cursor's current game of the record
    uint32_t cursor;  // in cursors_
  };
  // Returns the node of cursor `c`'s current record.
  Node node_of(uint32_t c) const;
  // True when a's record sorts after b's (the heap keeps the smallest on top).
  bool after(const Node& a, const Node& b) const;
  void push(uint32_t cursor);
  // Moves the top node, whose record changed, down to its place in the heap.
  void replace_top();
  std::vector<std::unique_ptr<RunReader>> cursors_;
  std::vector<Node> heap_;  // a min-heap on the cursors' current games
};

}  // namespace cqlindex::indexer
