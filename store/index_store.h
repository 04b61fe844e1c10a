#pragma once
// The index on disk: a RocksDB directory with one column family per store::Family. All RocksDB knowledge of
// cqlindex lives behind this class (and in the .cpp's option table).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/family.h"
#include "store/game_record.h"
#include "store/index_meta.h"
#include "store/posting_list.h"

namespace cqlindex::store {

class IndexStore {
 public:
  ~IndexStore();
  IndexStore(const IndexStore&) = delete;
  IndexStore& operator=(const IndexStore&) = delete;

  // Opens a finished index read-only; nullptr (with `error`) when it is missing, unfinished, visibly damaged
  // (a file missing or of another size; a table whose footer, index or filter fails its checksum) or of another
  // schema. Constant work in the size of the index: no file is hashed whole. Every block a read meets is checked
  // against its checksum; a damaged one fails that read (store/README.md, "Integrity").
  // `families`: the only families the caller reads (the meta family always comes with them), or empty for all:
  // RocksDB then loads the tables of those families only (a query of one family skips the others' start-up).
  static std::unique_ptr<IndexStore> open_for_reading(const std::string& dir, std::string* error,
                                                      const std::vector<Family>& families = {});
  // Creates a new, empty index in `dir`, which must not exist yet.
  static std::unique_ptr<IndexStore> create(const std::string& dir, std::string* error);
  // Opens a finished index to add to it (--append); its checksum manifest is removed until finish().
  static std::unique_ptr<IndexStore> open_for_writing(const std::string& dir, std::string* error);

  // What `verify` checked and what it found.
  struct Verification {
    std::vector<std::string> checked;  // one line per check that ran: what it read and how
    std::vector<std::string> damaged;  // one line per damaged file or failed check, naming the file
    // one line per check the system would not let run (too many open files, no permission, no memory): the
    // index may be intact, and no more is known of it
    std::vector<std::string> refused;
    std::optional<IndexMeta> meta;     // the meta, when it could be read
  };
  // Reads every byte of the finished index in `dir`: every file against CQLINDEX-CHECKSUMS, every table file
  // against the whole-file checksum RocksDB recorded when it wrote it, every block against its block checksum.
  // Returns false (with `error`) when there is no finished index of this schema in `dir`; else true, with the
  // findings in `out`.
  static bool verify(const std::string& dir, Verification& out, std::string* error);

 private:
  // verify's checks, the refusals of the system not yet told from damage.
  static bool verify_findings(const std::string& dir, Verification& out, std::string* error);

 public:

  // Returns the meta (valid after open_for_reading/open_for_writing, or after put_meta).
  const IndexMeta& meta() const { return meta_; }

  // Returns the games listed under `key` (empty when the key is absent), or nullopt on a damaged value.
  std::optional<PostingList> postings(Family family, std::string_view key, std::string* error) const;
  // Returns the games that hold a position whose key (store/keys/canonical_key.h) is `position_key`, and perhaps a
  // few more (the similar family files positions by hash: store/position_buckets.h), or nullopt on a damaged
  // value.
  std::optional<PostingList> position_games(std::string_view position_key, std::string* error) const;
  // The same for many keys at once: calls visit(i, games) for each keys[i] the family files (in hash order, not
  // in the order of `keys`); false (with `error`) on a damaged read. One iterator reads the buckets in key order,
  // each block once: a range of buckets (a first byte) of which many are wanted is read whole, in sequence (so
  // that RocksDB reads ahead, 256 KiB a read), the others bucket by bucket (`similar` looks up every position of
  // its submissions this way: store/README.md).
  bool positions_games(const std::vector<std::string>& keys,
                       const std::function<void(size_t, PostingList&&)>& visit, std::string* error) const;
  // Returns the number of distinct positions the similar family holds (it reads the whole family), or nullopt
  // (with `error`).
  std::optional<uint64_t> position_count(std::string* error) const;
  // What the reads made on the calling thread cost since start_counting_reads(), from RocksDB's perf context:
  // the data blocks read from the files, the bytes read from the files (data blocks, and the index and filter
  // blocks a query's first look-up in a table reads), and the data blocks found in the block cache instead. (Not
  // counted: the last 512 KiB of a table, which RocksDB reads when it opens the table.) How bytes read per
  // look-up are measured (store/README.md).
  struct ReadCost {
    uint64_t blocks = 0;
    uint64_t bytes = 0;
    uint64_t cached_blocks = 0;
    uint64_t index_blocks = 0;  // index and filter blocks read from the files
  };
  static void start_counting_reads();
  static ReadCost reads_counted();
  // Returns the record of game `id`, or nullopt (with `error`) when absent or damaged.
  std::optional<GameRecord> game(uint32_t id, std::string* error) const;
  // Calls visit(id, record) for each of `ids` (strictly increasing) in turn; false (with `error`) when one is
  // absent or damaged. One iterator reads them in key order: a block that holds several is read once (a run's
  // candidates are read this way, thousands at a time, instead of a point look-up each).
  bool games(std::span<const uint32_t> ids, const std::function<void(uint32_t, const GameRecord&)>& visit,
             std::string* error) const;
  // Calls `visit(key, value)` for every key of `family` that starts with `prefix`, in key order, until it
  // returns false; returns false (with `error`) when reading fails.
  bool for_each(Family family, std::string_view prefix,
                const std::function<bool(std::string_view, std::string_view)>& visit, std::string* error) const;
  // The same for a scan that reads its blocks once (the planner's union of a whole family): none is kept in
  // the block cache, which would only hold the scan's last blocks, up to its capacity, and push out the index
  // blocks that point reads reuse.
  bool for_each_read_once(Family family, std::string_view prefix,
                          const std::function<bool(std::string_view, std::string_view)>& visit,
                          std::string* error) const;
  // What a read of the tags family's key directory (the tagkeys family: key_directory.h) found.
  enum class DirectoryRead { Read, Absent, Failed };
  // Calls visit(key) for every key of the tags family that starts with `prefix`, in key order, from its key
  // directory: Read. Absent when the index has no directory, or one written for another game count (an index
  // built before it); the keys visited then are to be dropped, and the tags family scanned instead. Failed (with
  // `error`) on a damaged read.
  DirectoryRead tag_keys(std::string_view prefix, const std::function<void(std::string_view)>& visit,
                         std::string* error) const;
  // Returns the bytes RocksDB reports for `family`'s SST files.
  uint64_t family_bytes(Family family) const;
  // Returns RocksDB's estimate of the number of keys in `family`.
  uint64_t family_keys(Family family) const;

  // Writes the meta rows.
  bool put_meta(const IndexMeta& meta, std::string* error);
  // Replaces every row of `family`, one written whole (tagkeys), by `rows` (one batch).
  bool replace_family(Family family, const std::vector<std::pair<std::string, std::string>>& rows,
                      std::string* error);
  // Writes game records (one batch).
  bool put_games(const std::vector<std::pair<uint32_t, GameRecord>>& games, std::string* error);
  // How sorted entries enter a family: as its values (a fresh build; on --append they replace the values of the
  // keys they share, and finish() compacts the old ones away) or merged by union into what is there (--append;
  // posting families only).
  enum class Ingest { Put, Merge };
  // Writes the entries that `next` yields (in strictly increasing key order; it returns false when there are
  // no more) into one SST file of `family` and ingests it.
  bool ingest_sorted(Family family, Ingest mode, const std::function<bool(std::string& key, std::string& value)>& next,
                     std::string* error);
  // The two halves of ingest_sorted, for builds that write the files of several key ranges on several threads:
  // write_sst writes what `next` yields into a new SST file of `family` and returns its path (empty when `next`
  // yielded nothing), or nullopt (with `error`); it may run on several threads at once. ingest_files then adds
  // such files, whose key ranges must not overlap, to `family` in one step.
  std::optional<std::string> write_sst(Family family, Ingest mode,
                                       const std::function<bool(std::string& key, std::string& value)>& next,
                                       std::string* error);
  bool ingest_files(Family family, Ingest mode, const std::vector<std::string>& paths, std::string* error);
  // The same for the files of several families in one step (one manifest update instead of one per family).
  bool ingest_files(const std::map<Family, std::vector<std::string>>& files, Ingest mode, std::string* error);
  // The same for entries held in a vector.
  bool ingest_sorted(Family family, Ingest mode, const std::vector<std::pair<std::string, std::string>>& entries,
                     std::string* error);
  // Compacts, closes the database and writes the checksum manifest; the store is unusable afterwards.
  bool finish(std::string* error);

 private:
  // What a point read found.
  enum class Read { Found, Absent, Failed };
  // Reads `key` of `family` into `value`; Failed (with `error`) when the family is not open or the read fails.
  Read read(Family family, std::string_view key, std::string& value, std::string* error) const;

  struct Impl;
  explicit IndexStore(std::unique_ptr<Impl> impl);
  static std::unique_ptr<IndexStore> open(const std::string& dir, bool create, bool read_only,
                                          const std::vector<Family>& families, std::string* error);
  // for_each, its blocks kept in the block cache or not.
  bool scan(Family family, std::string_view prefix, const std::function<bool(std::string_view, std::string_view)>& visit,
            bool fill_cache, std::string* error) const;
  // Opens an index whose build finished (checksums verified, meta read).
  static std::unique_ptr<IndexStore> open_finished(const std::string& dir, bool read_only,
                                                   const std::vector<Family>& families, std::string* error);

  std::unique_ptr<Impl> impl_;
  IndexMeta meta_;
};

// Returns true when `message` quotes a refusal of the system (the limit of open files, a permission, memory):
// a failure that says nothing of an index's bytes.
bool quotes_system_refusal(const std::string& message);

}  // namespace cqlindex::store
