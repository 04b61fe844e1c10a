// RocksDB behind IndexStore: options (each with its reason), opening, reads, SST ingestion.
#include "store/index_store.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/file_checksum.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/table.h>

#include "store/checksum_manifest.h"
#include "store/key_directory.h"
#include "store/position_buckets.h"
#include "store/posting_union_merge.h"

namespace cqlindex::store {
namespace fs = std::filesystem;
namespace {

// RocksDB's info log is not wanted in an index folder: a read-only open must leave the folder untouched so
// that its checksum manifest stays valid, and users have no use for it.
class SilentLogger final : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char*, va_list) override {}
};

// A read-only index never flushes or compacts, yet RocksDB's default Env starts its two background thread pools
// at every open; this one (for read-only opens only) starts none, which a query in its own process feels.
class ReadOnlyEnv final : public rocksdb::EnvWrapper {
 public:
  ReadOnlyEnv() : rocksdb::EnvWrapper(rocksdb::Env::Default()) {}
  static const char* kClassName() { return "CqlindexReadOnlyEnv"; }
  const char* Name() const override { return kClassName(); }
  void IncBackgroundThreadsIfNeeded(int, Priority) override {}
};

// Returns the options of the database as a whole.
rocksdb::DBOptions database_options(bool create, bool read_only = false) {
  rocksdb::DBOptions o;
  o.create_if_missing = create;              // only a build creates an index
  // A family added since an index was built (tagkeys) is created when the index is opened to be extended.
  o.create_missing_column_families = create || !read_only;
  o.paranoid_checks = true;                  // refuse files that do not check out at open (sizes against the
                                             // MANIFEST, every footer, index and filter block the open reads)
  // A whole-file CRC32C of every table file, computed as RocksDB writes it (SstFileWriter, flush, compaction)
  // and kept in its MANIFEST: what `cqlindex verify` checks (VerifyFileChecksums). An open reads none of it.
  o.file_checksum_gen_factory = rocksdb::GetFileChecksumGenCrc32cFactory();
  o.info_log = std::make_shared<SilentLogger>();  // see SilentLogger
  o.max_open_files = -1;                     // an index has few files; keep them all open
  o.max_background_jobs = 2;                 // the machines here have 2 cores
  o.max_file_opening_threads = 2;            // an open loads every table's index and filter: 16 threads (the
                                             // default) only cost their start-up for an index of a few files
  // A query opens the index once per process and mostly reads one or two families of a few files: a thread per
  // family load costs more than it saves there (a build opens for writing and keeps 2).
  if (read_only) {
    o.max_file_opening_threads = 1;
    // The cache of open table files: one shard, not 64, for the few tables of an index (a repository of 100
    // files opens 100 indexes, and the 64 shards were 3 % of its open's instructions).
    o.table_cache_numshardbits = 0;
    static ReadOnlyEnv env;  // stateless: forwards everything but the thread pools to the default Env
    o.env = &env;
  }
  return o;
}

// The block caches of a query's open. A table's index block is loaded by the first look-up in the table (below)
// and must then stay: each cache is one shard (a sharded cache splits its capacity, and an index block bigger
// than its shard would be read again at every look-up) whose high-priority part, where index and filter blocks
// go, holds them at 10 million games. The similar family has its own: its data blocks are read once each, and a
// small low-priority part keeps them from filling the heap (a shared 64 MB cache made `similar` 60 % slower).
struct QueryCaches {
  // the similar family's two index blocks: 4.4 MB each at 10 million games
  std::shared_ptr<rocksdb::Cache> similar = rocksdb::NewLRUCache(size_t{16} << 20, 0, false, 0.75);
  // the other families' index and filter blocks (the tags family's filter: about 12 MB at 10 million games)
  std::shared_ptr<rocksdb::Cache> others = rocksdb::NewLRUCache(size_t{32} << 20, 0, false, 0.75);
};

// Returns the options of one column family; `query` holds the block caches of a query's open (null: a build's).
rocksdb::ColumnFamilyOptions family_options(Family family, const QueryCaches* query = nullptr) {
  rocksdb::ColumnFamilyOptions o;
  rocksdb::BlockBasedTableOptions table;
  // A query's open reads no table's index or filter block: each is read, into the block cache (high priority),
  // by the first look-up in its table. A query reads one or two families, and an open that loaded them all read
  // 1.3 MB at 1M games (about 13 MB at 10M), mostly the similar family's index, for `info` or a player search
  // that never looks there.
  if (query) {
    table.block_cache = family == Family::Similar ? query->similar : query->others;
    table.cache_index_and_filter_blocks = true;
    table.cache_index_and_filter_blocks_with_high_priority = true;
  }
  const bool buckets = family == Family::Similar;  // position buckets (store/position_buckets.h)
  // Point look-ups of tags and signatures often miss: a Bloom filter answers most misses without reading a block.
  // Position buckets need none: a build chooses as many buckets as its positions fill (about 1 KiB each).
  // The explore family is read by prefix scans only, which a whole-key filter cannot answer: it gets none (its
  // filter would be 10 bits a key, 1.8 MB of the family at depth 30 on the train file, and build time).
  if (holds_postings(family) && !buckets && family != Family::Explore)
    table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10, false));
  // Larger blocks compress sorted, similar keys better; look-ups are few, so the extra read is cheap. A bucket is
  // read alone, and uncompressed: a look-up reads one block, so the block is a few buckets (4 KiB: half the
  // bytes a look-up read with 8 KiB on the train file; the index block, one entry a block, stays small).
  table.block_size = buckets ? 4 * 1024 : 32 * 1024;
  // Blocks and their checksums are verified on every read (RocksDB default, stated for the record).
  table.checksum = rocksdb::kXXH3;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  // LZ4 for the families of words and signatures: a query decompresses every block it reads (the games family's
  // records of a run's candidates, the tags family's names for a substring test), and LZ4 does it about three
  // times as fast as zstd: at 1M games a player search read 15 MB of game records, 7 % of its time in zstd.
  // zstd (level 3) made these families about a third smaller, but they are a sixth of the index: LZ4 costs
  // 22 bytes a game at 1M games, 31 at 10M (store/README.md). Position buckets are hashes and game ids, which do
  // not compress. An index built with zstd stays readable: each block names its own compression.
  o.compression = buckets ? rocksdb::kNoCompression : rocksdb::kLZ4Compression;
  o.level_compaction_dynamic_level_bytes = true;  // keeps almost all data in the bottom level
  // Builds and appends Merge into posting families.
  if (buckets) o.merge_operator = make_position_bucket_merge();
  else if (holds_postings(family)) o.merge_operator = make_posting_union_merge();
  return o;
}

rocksdb::Slice slice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }
std::string_view slice_view(const rocksdb::Slice& s) { return std::string_view(s.data(), s.size()); }

// Returns the options of every read: each block read is checked against its checksum (RocksDB's default, stated
// here because the query path relies on it: a damaged block fails the read, it is never returned).
rocksdb::ReadOptions read_options() {
  rocksdb::ReadOptions o;
  o.verify_checksums = true;
  return o;
}

// Returns the options of every ingestion.
rocksdb::IngestExternalFileOptions ingest_options() {
  rocksdb::IngestExternalFileOptions o;
  o.move_files = true;  // the files were written for this ingest only
  // Sequence numbers go to the MANIFEST only: writing them into an ingested file would change it after its
  // whole-file checksum was taken.
  o.write_global_seqno = false;
  return o;
}

// Returns the error of a failed open or read: damage is called so (a query stops, exit 2, and `verify` tells
// which file), anything else is reported as RocksDB says it.
std::string describe(const std::string& dir, const rocksdb::Status& s) {
  if (s.IsCorruption()) return "index " + dir + " is damaged: " + s.ToString();
  return "cannot open index " + dir + ": " + s.ToString();
}

// Returns the message of a failed read: the damage named with the index, or RocksDB's own words.
std::string read_failure(const std::string& dir, const rocksdb::Status& s) {
  return s.IsCorruption() ? describe(dir, s) : "index read failed: " + s.ToString();
}

bool fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

// The error of a read from a family the store was not opened with (a caller's mistake, never a crash).
std::string not_opened(Family family) {
  return "index family " + std::string(family_name(family)) + " was not opened for this query";
}

}  // namespace

struct IndexStore::Impl {
  std::string dir;
  bool read_only = false;
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;  // indexed by Family
  std::atomic<int> ingest_count{0};  // names the SST files that write_sst writes, from any thread
  bool merged = false;     // merge operands, or values replacing older ones, were ingested: finish() compacts
  bool appending = false;  // opened to extend a finished index (--append): ingested values may replace old ones
  // The whole-file checksum (value, function name) of each file write_sst wrote, as its SstFileWriter computed
  // it while writing: handed to the ingest, which otherwise reads every file again to compute it (one thread,
  // RocksDB's software CRC32C here: the build's ingest step was that).
  std::mutex written_mutex;
  std::map<std::string, std::pair<std::string, std::string>> written_checksums;

  rocksdb::ColumnFamilyHandle* handle(Family f) const { return handles[static_cast<size_t>(f)]; }

  // Returns the ingest of `files` into `family`: with the checksums write_sst recorded when it has one for every
  // file (the ingest then checks their function's name and keeps them, instead of reading each file again to
  // compute them: they were computed from the bytes as they were written, moments before), else without.
  rocksdb::IngestExternalFileArg ingest_arg(Family family, std::vector<std::string> files) {
    rocksdb::IngestExternalFileArg arg;
    arg.column_family = handle(family);
    arg.options = ingest_options();
    std::lock_guard lock(written_mutex);
    for (const std::string& p : files) {
      auto known = written_checksums.find(p);
      if (known == written_checksums.end()) break;
      arg.files_checksums.push_back(known->second.first);
      arg.files_checksum_func_names.push_back(known->second.second);
    }
    if (arg.files_checksums.size() == files.size()) {
      arg.options.verify_file_checksum = false;  // (the function's name is still checked)
    } else {
      arg.files_checksums.clear();
      arg.files_checksum_func_names.clear();
    }
    for (const std::string& p : files) written_checksums.erase(p);
    arg.external_files = std::move(files);
    return arg;
  }

  ~Impl() { close(); }
  void close() {
    if (!db) return;
    for (auto* h : handles)
      if (h) db->DestroyColumnFamilyHandle(h);
    handles.clear();
    db->Close();
    db.reset();
  }
};

IndexStore::IndexStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
IndexStore::~IndexStore() = default;

std::unique_ptr<IndexStore> IndexStore::open(const std::string& dir, bool create, bool read_only,
                                             const std::vector<Family>& wanted, std::string* error) {
  // RocksDB may open a subset of the column families read-only only; the meta family is always among them.
  // An index of an older schema may lack a family added since (explore, schema 7): only the families it has are
  // opened, so that its meta is read and it is refused as another schema ("rebuild it"), not by RocksDB's
  // "Column family not found". A family added without a new schema (tagkeys, which readers do without) is then
  // absent from a read-only open and created by an open to extend the index (a build's copy: build_workspace.h).
  // The list costs a second read of the MANIFEST: a check of the meta alone (a repository's files, one by one)
  // needs none, as every schema has the meta family.
  const bool meta_only = read_only && !wanted.empty() &&
                         std::all_of(wanted.begin(), wanted.end(), [](Family f) { return f == Family::Meta; });
  std::vector<std::string> present;
  if (!create && !meta_only) rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir, &present);
  std::vector<Family> opened;
  for (size_t i = 0; i < kFamilyCount; ++i) {
    const auto f = static_cast<Family>(i);
    if (read_only && !present.empty() && std::find(present.begin(), present.end(), family_name(f)) == present.end())
      continue;
    if (!read_only || wanted.empty() || f == Family::Meta || std::find(wanted.begin(), wanted.end(), f) != wanted.end())
      opened.push_back(f);
  }
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  // The default family holds nothing: a query's open gives it no block cache (RocksDB would make one of 8 MB).
  rocksdb::ColumnFamilyOptions unused;
  if (read_only) {
    rocksdb::BlockBasedTableOptions no_cache;
    no_cache.no_block_cache = true;
    unused.table_factory.reset(rocksdb::NewBlockBasedTableFactory(no_cache));
  }
  families.emplace_back(rocksdb::kDefaultColumnFamilyName, unused);
  const auto caches = read_only ? std::make_unique<QueryCaches>() : nullptr;
  for (Family f : opened) families.emplace_back(std::string(family_name(f)), family_options(f, caches.get()));
  auto impl = std::make_unique<Impl>();
  impl->dir = dir;
  impl->read_only = read_only;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  rocksdb::DBOptions options = database_options(create, read_only);
  rocksdb::Status s = read_only ? rocksdb::DB::OpenForReadOnly(options, dir, families, &handles, &raw)
                                : rocksdb::DB::Open(options, dir, families, &handles, &raw);
  if (!s.ok()) {
    fail(error, describe(dir, s));
    return nullptr;
  }
  impl->db.reset(raw);
  rocksdb::ColumnFamilyHandle* default_handle = handles.front();
  impl->db->DestroyColumnFamilyHandle(default_handle);
  impl->handles.assign(kFamilyCount, nullptr);
  for (size_t i = 0; i < opened.size(); ++i) impl->handles[static_cast<size_t>(opened[i])] = handles[i + 1];
  return std::unique_ptr<IndexStore>(new IndexStore(std::move(impl)));
}

std::unique_ptr<IndexStore> IndexStore::create(const std::string& dir, std::string* error) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    fail(error, "cannot create index " + dir + ": it exists already");
    return nullptr;
  }
  return open(dir, true, false, {}, error);
}

namespace {

// Reads every row of the meta family of an open database; `other_schema` (optional) says whether the rows were
// read but are of another schema version (an index to rebuild, not a damaged one).
std::optional<IndexMeta> read_meta(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* meta_family, std::string* error,
                                   bool* other_schema = nullptr) {
  std::map<std::string, std::string> rows;
  std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(read_options(), meta_family));
  for (it->SeekToFirst(); it->Valid(); it->Next()) rows[it->key().ToString()] = it->value().ToString();
  if (!it->status().ok()) {
    fail(error, std::string(it->status().IsCorruption() ? "the meta family is damaged: " : "index meta unreadable: ") +
                    it->status().ToString());
    return std::nullopt;
  }
  if (other_schema) {
    auto version = rows.find("schema_version");
    *other_schema = version != rows.end() && version->second != std::to_string(kSchemaVersion);
  }
  return decode_index_meta(rows, error);
}

}  // namespace

std::unique_ptr<IndexStore> IndexStore::open_finished(const std::string& dir, bool read_only,
                                                      const std::vector<Family>& families, std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    fail(error, "no index at " + dir);
    return nullptr;
  }
  // Every file there with its size (a stat each); their contents are RocksDB's to check as they are read.
  std::string why;
  ManifestCheck files;
  if (!check_checksum_manifest(dir, false, files, &why) || !files.problems.empty()) {
    fail(error, "index " + dir + " is damaged: " + (files.problems.empty() ? why : files.problems.front()));
    return nullptr;
  }
  if (!read_only) fs::remove(dir + "/" + kChecksumManifestName, ec);  // an interrupted append must not look finished
  auto store = open(dir, false, read_only, families, error);
  if (!store) return nullptr;
  store->impl_->appending = !read_only;
  auto meta = read_meta(*store->impl_->db, store->impl_->handle(Family::Meta), &why);
  if (!meta) {
    fail(error, "index " + dir + ": " + why);
    return nullptr;
  }
  store->meta_ = *meta;
  return store;
}

std::unique_ptr<IndexStore> IndexStore::open_for_reading(const std::string& dir, std::string* error,
                                                         const std::vector<Family>& families) {
  return open_finished(dir, true, families, error);
}

std::unique_ptr<IndexStore> IndexStore::open_for_writing(const std::string& dir, std::string* error) {
  return open_finished(dir, false, {}, error);
}

IndexStore::Read IndexStore::read(Family family, std::string_view key, std::string& value, std::string* error) const {
  if (!impl_->handle(family)) {
    fail(error, not_opened(family));
    return Read::Failed;
  }
  rocksdb::Status s = impl_->db->Get(read_options(), impl_->handle(family), slice(key), &value);
  if (s.IsNotFound()) return Read::Absent;
  if (!s.ok()) {
    fail(error, read_failure(impl_->dir, s));
    return Read::Failed;
  }
  return Read::Found;
}

std::optional<PostingList> IndexStore::postings(Family family, std::string_view key, std::string* error) const {
  std::string value;
  if (Read r = read(family, key, value, error); r != Read::Found)
    return r == Read::Absent ? std::optional<PostingList>(PostingList()) : std::nullopt;
  std::string why;
  auto list = PostingList::decode(value, &why);
  if (!list) fail(error, "damaged posting list in family " + std::string(family_name(family)) + ": " + why);
  return list;
}

std::optional<PostingList> IndexStore::position_games(std::string_view position_key, std::string* error) const {
  const uint64_t h = position_hash(position_key);
  std::string value;
  if (Read r = read(Family::Similar, bucket_key(position_bucket(h, meta_.similar_bucket_bits)), value, error);
      r != Read::Found)
    return r == Read::Absent ? std::optional<PostingList>(PostingList()) : std::nullopt;
  return find_in_bucket(value, position_tag(h), error);
}

bool IndexStore::positions_games(const std::vector<std::string>& keys,
                                 const std::function<void(size_t, PostingList&&)>& visit, std::string* error) const {
  if (!impl_->handle(Family::Similar)) return fail(error, not_opened(Family::Similar));
  const unsigned bits = meta_.similar_bucket_bits;
  // (hash, index in keys), in hash order: bucket order, and tag order inside a bucket
  std::vector<std::pair<uint64_t, size_t>> wanted(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) wanted[i] = {position_hash(keys[i]), i};
  std::sort(wanted.begin(), wanted.end());
  rocksdb::ReadOptions read = read_options();
  read.fill_cache = false;  // each block is read once, in key order
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(read, impl_->handle(Family::Similar)));
  auto bucket_of = [&](size_t w) { return position_bucket(wanted[w].first, bits); };
  std::vector<uint32_t> tags;
  // The wanted entries [first, end) of the bucket under the iterator, looked up in its value.
  auto find_tags = [&](size_t first, size_t end) {
    tags.clear();
    for (size_t w = first; w < end; ++w) tags.push_back(position_tag(wanted[w].first));
    return find_tags_in_bucket(slice_view(it->value()), tags,
                               [&](size_t t, PostingList&& games) { visit(wanted[first + t].second, std::move(games)); },
                               error);
  };
  const uint64_t buckets_per_byte = uint64_t(1) << (bits - 8);
  for (size_t begin = 0; begin < wanted.size();) {
    // One range: the buckets of one first byte.
    const uint8_t first_byte = uint8_t(wanted[begin].first >> 56);
    size_t end = begin, distinct = 0;
    for (; end < wanted.size() && uint8_t(wanted[end].first >> 56) == first_byte; ++end)
      distinct += end == begin || bucket_of(end) != bucket_of(end - 1);
    const bool whole_range = distinct * 8 > buckets_per_byte;
    if (whole_range) it->Seek(bucket_key(uint32_t(first_byte) << 24));
    for (size_t w = begin; w < end;) {
      const uint32_t bucket = bucket_of(w);
      size_t next = w;
      while (next < end && bucket_of(next) == bucket) ++next;
      const std::string key = bucket_key(bucket);
      if (whole_range) {  // forward, in sequence, to the bucket or past it
        while (it->Valid() && it->key().compare(slice(key)) < 0) it->Next();
      } else {
        it->Seek(slice(key));
      }
      if (it->Valid() && it->key() == slice(key) && !find_tags(w, next)) return false;
      if (!it->status().ok()) break;
      w = next;
    }
    if (!it->status().ok()) break;
    begin = end;
  }
  if (!it->status().ok())
    return fail(error, read_failure(impl_->dir, it->status()));
  return true;
}

std::optional<uint64_t> IndexStore::position_count(std::string* error) const {
  uint64_t count = 0;
  bool ok = true;
  if (!for_each(Family::Similar, "", [&](std::string_view, std::string_view value) {
        auto entries = bucket_entry_count(value, error);
        if (entries) count += *entries;
        ok = entries.has_value();
        return ok;
      }, error) || !ok)
    return std::nullopt;
  return count;
}

void IndexStore::start_counting_reads() {
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);  // counters only: no timers (this thread)
  rocksdb::get_perf_context()->Reset();
}

IndexStore::ReadCost IndexStore::reads_counted() {
  const rocksdb::PerfContext* perf = rocksdb::get_perf_context();
  const uint64_t index_reads = perf->index_block_read_count + perf->filter_block_read_count;
  const uint64_t index_hits = perf->block_cache_index_hit_count + perf->block_cache_filter_hit_count;
  return ReadCost{perf->block_read_count - std::min(index_reads, perf->block_read_count), perf->block_read_byte,
                  perf->block_cache_hit_count - std::min(index_hits, perf->block_cache_hit_count), index_reads};
}

std::optional<GameRecord> IndexStore::game(uint32_t id, std::string* error) const {
  if (!impl_->handle(Family::Games)) {
    fail(error, not_opened(Family::Games));
    return std::nullopt;
  }
  std::string value;
  rocksdb::Status s =
      impl_->db->Get(read_options(), impl_->handle(Family::Games), slice(game_key(id)), &value);
  if (!s.ok()) {
    fail(error, s.IsCorruption() ? describe(impl_->dir, s)
                                 : "game " + std::to_string(id + 1) + " not in the index: " + s.ToString());
    return std::nullopt;
  }
  auto record = decode_game_record(value);
  if (!record) fail(error, "damaged record of game " + std::to_string(id + 1));
  return record;
}

bool IndexStore::games(std::span<const uint32_t> ids, const std::function<void(uint32_t, const GameRecord&)>& visit,
                       std::string* error) const {
  if (!impl_->handle(Family::Games)) return fail(error, not_opened(Family::Games));
  rocksdb::ReadOptions read = read_options();
  // The ids come in order: each block is read once a call (and the next call starts past it), so the blocks stay
  // out of the block cache; kept, a run over a few percent of 10M games filled its 32 MiB with them.
  read.fill_cache = false;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(read, impl_->handle(Family::Games)));
  constexpr uint32_t kNextRather = 16;  // a candidate this close after the last one: stepped to, not sought
  uint32_t at = 0;                      // the id the iterator stands on (when valid)
  for (const uint32_t id : ids) {
    const std::string key = game_key(id);
    if (it->Valid() && at < id && id - at <= kNextRather) {
      while (it->Valid() && it->key().compare(slice(key)) < 0) it->Next();
    } else {
      it->Seek(slice(key));  // RocksDB stays in the block it holds when the key lies in it
    }
    if (!it->status().ok())
      return fail(error, read_failure(impl_->dir, it->status()));
    if (!it->Valid() || it->key() != slice(key))
      return fail(error, "game " + std::to_string(id + 1) + " not in the index");
    at = id;
    auto record = decode_game_record(std::string_view(it->value().data(), it->value().size()));
    if (!record) return fail(error, "damaged record of game " + std::to_string(id + 1));
    visit(id, *record);
  }
  return true;
}

bool IndexStore::for_each(Family family, std::string_view prefix,
                          const std::function<bool(std::string_view, std::string_view)>& visit,
                          std::string* error) const {
  return scan(family, prefix, visit, true, error);
}

bool IndexStore::for_each_read_once(Family family, std::string_view prefix,
                                    const std::function<bool(std::string_view, std::string_view)>& visit,
                                    std::string* error) const {
  return scan(family, prefix, visit, false, error);
}

bool IndexStore::scan(Family family, std::string_view prefix,
                      const std::function<bool(std::string_view, std::string_view)>& visit, bool fill_cache,
                      std::string* error) const {
  if (!impl_->handle(family)) return fail(error, not_opened(family));
  rocksdb::ReadOptions read = read_options();
  read.fill_cache = fill_cache;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(read, impl_->handle(family)));
  for (it->Seek(slice(prefix)); it->Valid() && it->key().starts_with(slice(prefix)); it->Next())
    if (!visit(std::string_view(it->key().data(), it->key().size()),
               std::string_view(it->value().data(), it->value().size())))
      break;
  if (!it->status().ok())
    return fail(error, read_failure(impl_->dir, it->status()));
  return true;
}

uint64_t IndexStore::family_bytes(Family family) const {
  uint64_t bytes = 0;
  if (impl_->handle(family))
    impl_->db->GetIntProperty(impl_->handle(family), rocksdb::DB::Properties::kTotalSstFilesSize, &bytes);
  return bytes;
}

IndexStore::DirectoryRead IndexStore::tag_keys(std::string_view prefix,
                                               const std::function<void(std::string_view)>& visit,
                                               std::string* error) const {
  if (!impl_->handle(Family::TagKeys)) return DirectoryRead::Absent;  // an index built before the directory
  rocksdb::ReadOptions options = read_options();
  options.fill_cache = false;  // each chunk is read once a query
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(options, impl_->handle(Family::TagKeys)));
  it->SeekForPrev(slice(prefix));  // the chunk that would hold `prefix`: the last whose first key is not after it
  if (!it->Valid() && it->status().ok()) it->SeekToFirst();
  bool any = false, past = false;
  for (; !past && it->Valid(); it->Next()) {
    any = true;
    uint64_t games = 0;
    const bool ok = read_directory_chunk(slice_view(it->value()), games, [&](std::string_view key) {
      if (key.starts_with(prefix)) visit(key);
      else if (key > prefix) past = true;  // (keys that start with `prefix` all sort before it)
      return !past;
    });
    if (!ok) return fail(error, "index " + impl_->dir + " is damaged: a chunk of the tagkeys family does not read"),
                  DirectoryRead::Failed;
    if (games != meta_.game_count) return DirectoryRead::Absent;  // written for other games: not to be trusted
  }
  if (!it->status().ok()) return fail(error, read_failure(impl_->dir, it->status())), DirectoryRead::Failed;
  return any ? DirectoryRead::Read : DirectoryRead::Absent;
}

uint64_t IndexStore::family_keys(Family family) const {
  uint64_t keys = 0;
  if (impl_->handle(family))
    impl_->db->GetIntProperty(impl_->handle(family), rocksdb::DB::Properties::kEstimateNumKeys, &keys);
  return keys;
}

bool IndexStore::put_meta(const IndexMeta& meta, std::string* error) {
  rocksdb::WriteBatch batch;
  for (const auto& [key, value] : encode_index_meta(meta)) batch.Put(impl_->handle(Family::Meta), key, value);
  rocksdb::Status s = impl_->db->Write(rocksdb::WriteOptions(), &batch);
  if (!s.ok()) return fail(error, "cannot write index meta: " + s.ToString());
  meta_ = meta;
  return true;
}

bool IndexStore::replace_family(Family family, const std::vector<std::pair<std::string, std::string>>& rows,
                                std::string* error) {
  if (holds_postings(family)) return fail(error, "family " + std::string(family_name(family)) + " cannot be replaced");
  rocksdb::WriteBatch batch;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(read_options(), impl_->handle(family)));
  for (it->SeekToFirst(); it->Valid(); it->Next()) batch.Delete(impl_->handle(family), it->key());
  if (!it->status().ok()) return fail(error, read_failure(impl_->dir, it->status()));
  for (const auto& [key, value] : rows) batch.Put(impl_->handle(family), key, value);
  rocksdb::WriteOptions write;
  write.disableWAL = true;  // as put_games: finish() flushes every family before the index is published
  rocksdb::Status s = impl_->db->Write(write, &batch);
  if (!s.ok()) return fail(error, "cannot write family " + std::string(family_name(family)) + ": " + s.ToString());
  return true;
}

bool IndexStore::put_games(const std::vector<std::pair<uint32_t, GameRecord>>& games, std::string* error) {
  rocksdb::WriteBatch batch;
  for (const auto& [id, record] : games)
    batch.Put(impl_->handle(Family::Games), game_key(id), encode_game_record(record));
  // No write-ahead log: a build writes into its own workspace, which an interrupted build leaves unpublished
  // (indexer/build_workspace.h), and finish() flushes every family before the index is published; the log only
  // cost a second copy of every record.
  rocksdb::WriteOptions write;
  write.disableWAL = true;
  rocksdb::Status s = impl_->db->Write(write, &batch);
  if (!s.ok()) return fail(error, "cannot write game records: " + s.ToString());
  return true;
}

std::optional<std::string> IndexStore::write_sst(Family family, Ingest mode,
                                                const std::function<bool(std::string& key, std::string& value)>& next,
                                                std::string* error) {
  if (mode == Ingest::Merge && !holds_postings(family)) {
    fail(error, "family " + std::string(family_name(family)) + " cannot be merged");
    return std::nullopt;
  }
  rocksdb::Options options(database_options(false), family_options(family));
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options, impl_->handle(family));
  std::string path = impl_->dir + "/ingest-" + std::to_string(impl_->ingest_count++) + ".sst";
  rocksdb::Status s = writer.Open(path);
  std::string key, value;
  bool any = false;
  while (s.ok() && next(key, value)) {
    s = mode == Ingest::Merge ? writer.Merge(key, value) : writer.Put(key, value);
    any = true;
  }
  rocksdb::ExternalSstFileInfo info;
  if (s.ok() && any) s = writer.Finish(&info);
  if (s.ok() && any && !info.file_checksum_func_name.empty() &&
      info.file_checksum_func_name != rocksdb::kUnknownFileChecksumFuncName) {
    std::lock_guard lock(impl_->written_mutex);
    impl_->written_checksums[path] = {info.file_checksum, info.file_checksum_func_name};
  }
  std::error_code ec;
  if (!s.ok() || !any) fs::remove(path, ec);
  if (!s.ok()) {
    fail(error, "cannot write family " + std::string(family_name(family)) + ": " + s.ToString());
    return std::nullopt;
  }
  return any ? path : std::string();
}

bool IndexStore::ingest_files(Family family, Ingest mode, const std::vector<std::string>& paths,
                              std::string* error) {
  std::vector<std::string> files;
  for (const std::string& p : paths)
    if (!p.empty()) files.push_back(p);
  if (files.empty()) return true;
  rocksdb::Status s = impl_->db->IngestExternalFiles({impl_->ingest_arg(family, files)});
  if (mode == Ingest::Merge || impl_->appending) impl_->merged = true;
  std::error_code ec;
  if (!s.ok()) {
    for (const std::string& p : files) fs::remove(p, ec);
    return fail(error, "cannot write family " + std::string(family_name(family)) + ": " + s.ToString());
  }
  return true;
}

bool IndexStore::ingest_files(const std::map<Family, std::vector<std::string>>& files, Ingest mode,
                              std::string* error) {
  std::vector<rocksdb::IngestExternalFileArg> args;
  for (const auto& [family, paths] : files) {
    std::vector<std::string> present;
    for (const std::string& p : paths)
      if (!p.empty()) present.push_back(p);
    if (!present.empty()) args.push_back(impl_->ingest_arg(family, std::move(present)));
  }
  if (args.empty()) return true;
  rocksdb::Status s = impl_->db->IngestExternalFiles(args);
  if (mode == Ingest::Merge || impl_->appending) impl_->merged = true;
  if (!s.ok()) {
    std::error_code ec;
    for (const auto& arg : args)
      for (const std::string& p : arg.external_files) fs::remove(p, ec);
    return fail(error, "cannot write the index: " + s.ToString());
  }
  return true;
}

bool IndexStore::ingest_sorted(Family family, Ingest mode,
                               const std::function<bool(std::string& key, std::string& value)>& next,
                               std::string* error) {
  auto path = write_sst(family, mode, next, error);
  return path && ingest_files(family, mode, {*path}, error);
}

bool IndexStore::ingest_sorted(Family family, Ingest mode,
                               const std::vector<std::pair<std::string, std::string>>& entries, std::string* error) {
  size_t i = 0;
  return ingest_sorted(family, mode, [&](std::string& key, std::string& value) {
    if (i == entries.size()) return false;
    key = entries[i].first;
    value = entries[i].second;
    ++i;
    return true;
  }, error);
}

bool IndexStore::finish(std::string* error) {
  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;  // fold merge operands
  for (size_t i = 0; i < kFamilyCount; ++i) {
    rocksdb::Status s = impl_->db->Flush(rocksdb::FlushOptions(), impl_->handles[i]);
    if (s.ok() && impl_->merged) s = impl_->db->CompactRange(compact, impl_->handles[i], nullptr, nullptr);
    if (!s.ok()) return fail(error, "cannot finish index: " + s.ToString());
  }
  std::string dir = impl_->dir;
  impl_->close();
  // RocksDB leaves its info log and old option files; none are needed to read the index.
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("LOG", 0) == 0 || name == "LOCK") fs::remove(entry.path(), ec);
  }
  return write_checksum_manifest(dir, error);
}

bool quotes_system_refusal(const std::string& message) {
  for (int e : {EMFILE, ENFILE, ENOMEM, EACCES, EPERM})
    if (message.find(std::strerror(e)) != std::string::npos) return true;
  return false;
}

namespace {

// Moves the lines of `damaged` that quote a refusal of the system to `refused`.
void separate_refusals(std::vector<std::string>& damaged, std::vector<std::string>& refused) {
  auto kept = damaged.begin();
  for (auto it = damaged.begin(); it != damaged.end(); ++it) {
    if (quotes_system_refusal(*it)) {
      refused.push_back(std::move(*it));
    } else {
      if (kept != it) *kept = std::move(*it);  // (a string moved onto itself may come out empty)
      ++kept;
    }
  }
  damaged.erase(kept, damaged.end());
}

}  // namespace

bool IndexStore::verify(const std::string& dir, Verification& out, std::string* error) {
  const bool found = verify_findings(dir, out, error);
  separate_refusals(out.damaged, out.refused);
  return found;
}

bool IndexStore::verify_findings(const std::string& dir, Verification& out, std::string* error) {
  out = Verification{};
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return fail(error, "no index at " + dir);
  // 1. Every file against the manifest the build wrote last: names each altered file, RocksDB's or not.
  ManifestCheck files;
  std::string why;
  if (!check_checksum_manifest(dir, true, files, &why)) return fail(error, "index " + dir + ": " + why);
  out.checked.push_back(std::to_string(files.files) + " files, " + std::to_string(files.bytes) +
                        " bytes: sizes and XXH3-64 checked against " + kChecksumManifestName);
  for (const std::string& p : files.problems) out.damaged.push_back(dir + "/" + p);
  // 2. RocksDB's own view, every family open: the open itself (MANIFEST, footers, index blocks), whole-file
  // checksums of the table files, then every block of every table.
  auto store = open(dir, false, true, {}, &why);
  if (!store) {
    out.damaged.push_back(why);
    return true;
  }
  rocksdb::DB& db = *store->impl_->db;
  bool other_schema = false;
  auto meta = read_meta(db, store->impl_->handle(Family::Meta), &why, &other_schema);
  if (other_schema) return fail(error, "index " + dir + ": " + why);  // to rebuild; its layout is not ours to check
  if (meta) out.meta = *meta;
  else out.damaged.push_back("index " + dir + ": " + why);
  std::vector<rocksdb::LiveFileMetaData> tables;
  db.GetLiveFilesMetaData(&tables);
  uint64_t table_bytes = 0;
  for (const auto& t : tables) {
    table_bytes += t.size;
    if (t.file_checksum_func_name == rocksdb::kUnknownFileChecksumFuncName)
      out.damaged.push_back(dir + "/" + t.relative_filename + ": no whole-file checksum recorded (rebuild the index)");
  }
  const std::string counted = std::to_string(tables.size()) + " table files, " + std::to_string(table_bytes) + " bytes";
  rocksdb::ReadOptions read = read_options();
  read.fill_cache = false;  // one pass over everything: nothing worth keeping
  rocksdb::Status s = db.VerifyFileChecksums(read);
  if (s.ok()) out.checked.push_back(counted + ": whole-file CRC32C checked (RocksDB VerifyFileChecksums)");
  else out.damaged.push_back(describe(dir, s));
  s = db.VerifyChecksum(read);
  if (s.ok()) out.checked.push_back(counted + ": every block checked against its checksum (RocksDB VerifyChecksum)");
  else out.damaged.push_back(describe(dir, s));
  return true;
}

}  // namespace cqlindex::store
