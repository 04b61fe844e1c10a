#pragma once
// External sort of (family, key, game) postings: a build emits them in any order from several threads, each
// thread into its own RunWriter, which sorts them in memory-bounded runs written to files; a RunMerger then
// reads all runs in key order and yields one posting list per (family, key).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "store/family.h"
#include "store/posting_list.h"

namespace cqlindex::indexer {

class RunWriter {
 public:
  // Runs go to `dir`/run-`name`-N; a run is written when `max_pairs` postings are buffered.
  RunWriter(std::string dir, std::string name, size_t max_pairs = 1 << 20);

  // Buffers the posting (family, key) -> game. Keys are at most 255 bytes.
  void add(store::Family family, std::string_view key, uint32_t game);
  // Writes what is buffered as a last run; returns false (with `error`) when a file cannot be written.
  bool flush(std::string* error);
  // The files written so far.
  const std::vector<std::string>& runs() const { return runs_; }
  // False once a write failed (the error is reported by the next flush()).
  bool ok() const { return ok_; }

 private:
  struct Entry {
    uint64_t prefix[3];  // the first 24 bytes of family + key, big-endian: almost every comparison ends here
    uint32_t offset;     // of [length][family][key] in bytes_
    uint32_t game;
  };
  std::string dir_, name_;
  size_t max_pairs_;
  std::string bytes_;
  std::vector<Entry> entries_;
  std::vector<std::string> runs_;
  bool ok_ = true;
  std::string error_;
};

// Reads sorted runs together, in (family, key) order.
class RunMerger {
 public:
  // Opens the runs; false (with `error`) when one cannot be read.
  bool open(const std::vector<std::string>& runs, std::string* error);
  RunMerger();
  ~RunMerger();

  // True when another (family, key) is left; `family()` tells which family it belongs to.
  bool has_next() const { return !heap_.empty(); }
  store::Family family() const;
  // Moves to the next key: fills `key` and `games`.
  void next(std::string& key, store::PostingList& games);

 private:
  struct Cursor;
  // True when cursor a's record sorts after cursor b's (the heap keeps the smallest on top).
  bool after(size_t a, size_t b) const;
  void push(size_t cursor);
  std::vector<std::unique_ptr<Cursor>> cursors_;
  std::vector<size_t> heap_;  // cursor indices, a min-heap on their current record
};

}  // namespace cqlindex::indexer
