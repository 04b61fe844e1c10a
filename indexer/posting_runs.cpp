// Run files: a format byte, then records. 'R' files (position postings) hold one posting a record, [length u8]
// [family u8][key][game u32 big-endian], in the order of the hash's first 16 bits (PositionMerge's slices) and
// any order within one. 'G' files (every other key) hold one key's games a record, [length u8][family u8][key]
// [count u16][count games u32], all big-endian, a key in many games cut into records of kGroupGames, sorted by
// (family, key, game) without duplicates. Read through buffers (posting_runs.h).
#include "indexer/posting_runs.h"

#include <algorithm>
#include <cerrno>
#include <bit>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "indexer/position_merge.h"
#include "indexer/radix_sort.h"
#include "store/position_buckets.h"
#include "store/varint.h"

namespace cqlindex::indexer {
namespace {

// A run file that could not be written, with the system's reason (a full disk, the file-size limit).
std::string cannot_write(const std::string& path, int err) { return path + ": cannot write: " + std::strerror(err); }

// Returns bytes [from, from + 8) of `text` as a big-endian integer, zero-padded past its end.
uint64_t prefix_of(std::string_view text, size_t from) {
  uint64_t p = 0;
  for (size_t i = from; i < from + 8; ++i) p = (p << 8) | (i < text.size() ? static_cast<uint8_t>(text[i]) : 0);
  return p;
}

// Returns prefix_of(text, 0), where `readable` bytes from text's start may be read: one load when there are 8
// (a record is its key and 4 more bytes, so keys of 4 bytes or more have them: position hashes, material keys).
uint64_t head_of(std::string_view text, size_t readable) {
  if (readable < 8 || text.size() == 0) return prefix_of(text, 0);
  uint64_t word;
  std::memcpy(&word, text.data(), 8);
  if constexpr (std::endian::native == std::endian::little) word = __builtin_bswap64(word);
  return text.size() >= 8 ? word : word & ~(~uint64_t{0} >> (8 * text.size()));
}

// Appends the run record of posting (`family`, `key`) -> `game` to an 'R' file's bytes:
// [length][family][key][game, big-endian].
void append_record(std::string& out, char family, std::string_view key, uint32_t game) {
  out.push_back(static_cast<char>(key.size() + 1));
  out.push_back(family);
  out.append(key);
  store::put_be32(out, game);
}

// Appends the records of (`family`, `key`) -> `games` (`count` of them, increasing) to a 'G' file's bytes:
// [length][family][key][count, u16][games], kGroupGames games at most a record.
void append_group(std::string& out, char family, std::string_view key, const uint32_t* games, size_t count) {
  for (size_t first = 0; first < count; first += kGroupGames) {
    const size_t n = std::min(count - first, kGroupGames);
    out.push_back(static_cast<char>(key.size() + 1));
    out.push_back(family);
    out.append(key);
    out.push_back(static_cast<char>(n >> 8));
    out.push_back(static_cast<char>(n));
    const size_t at = out.size();
    out.resize(at + 4 * n);
    char* p = out.data() + at;
    for (size_t i = 0; i < n; ++i) p = store::write_be32(p, games[first + i]);
  }
}

}  // namespace

size_t run_partition(std::string_view family_and_key) {
  const auto family = static_cast<store::Family>(static_cast<uint8_t>(family_and_key[0]));
  if (family < store::Family::Similar) return 0;  // (no such postings: those families are not posting lists)
  if (family == store::Family::Similar)  // position hashes: the halves of the hash space
    return family_and_key.size() > 1 && (static_cast<uint8_t>(family_and_key[1]) & 0x80) ? 1 : 0;
  return family == store::Family::Material ? 2 : 3;
}

RunWriter::RunWriter(std::string dir, std::string name, size_t max_pairs)
    : dir_(std::move(dir)), name_(std::move(name)), max_pairs_(max_pairs), runs_(kRunPartitions) {}

void RunWriter::add_position(uint64_t hash, uint32_t game) {
  if (!positions_.empty() && game < position_base_) {  // (a build's games come in order: never there)
    char key[store::kPositionHashBytes];
    store::write_position_hash(hash, key);
    return add(store::Family::Similar, std::string_view(key, sizeof key), game);
  }
  if (!positions_.empty() && game - position_base_ >= kPositionGameSpan && ok_) ok_ = flush(&error_);
  if (!ok_) return;  // (the build fails at the next flush: nothing more is written)
  if (positions_.empty()) {
    positions_.reserve(max_pairs_);  // (here, not in the constructor: a writer is moved)
    position_base_ = game;
  }
  positions_.add((hash & ~(kPositionGameSpan - 1)) | (game - position_base_));
  if (keys_.size() + positions_.size() >= max_pairs_) ok_ = flush(&error_);
}

void RunWriter::add(store::Family family, std::string_view key, uint32_t game) {
  // Reserved once (address space only until touched): grown by doubling, the buffer was mapped afresh at each
  // step, and a fresh huge page is zeroed at its first touch (8 % of a build's CPU went to that).
  if (keys_.empty()) keys_.reserve(max_pairs_);
  char text[1 + 255];
  text[0] = static_cast<char>(family);
  std::memcpy(text + 1, key.data(), std::min<size_t>(key.size(), 255));
  keys_.add(std::string_view(text, 1 + std::min<size_t>(key.size(), 255)), game);
  if (keys_.size() + positions_.size() >= max_pairs_ && ok_) ok_ = flush(&error_);
}

void RunWriter::start_run_file(const char* prefix, size_t partition, char format) {
  file_path_ = dir_ + "/" + prefix + "-" + name_ + "-" + std::to_string(run_count_) + "-p" + std::to_string(partition);
  file_partition_ = partition;
  file_format_ = format;
  if (out_.capacity() < kRunWriteBuffer) out_.reserve(kRunWriteBuffer + 512);
}

bool RunWriter::spill_out() {
  if (out_.empty()) return true;
  if (file_fd_ < 0) {  // opened at its first bytes: a range without postings gets no file
    file_fd_ = ::open(file_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (file_fd_ >= 0) runs_[file_partition_].push_back(file_path_);
    if (file_fd_ < 0 || ::write(file_fd_, &file_format_, 1) != 1) {
      ok_ = false;
      error_ = cannot_write(file_path_, errno);
      return false;
    }
  }
  int why = EIO;  // a write of nothing
  for (size_t done = 0; done < out_.size();) {
    const ssize_t n = ::write(file_fd_, out_.data() + done, out_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) why = errno;
    if (n <= 0) break;
    done += size_t(n);
    if (done == out_.size()) {
      out_.clear();
      return true;
    }
  }
  ok_ = false;
  error_ = cannot_write(file_path_, why);
  return false;
}

bool RunWriter::close_run_file() {
  const bool ok = spill_out();
  if (file_fd_ >= 0 && ::close(file_fd_) != 0 && ok) {
    ok_ = false;
    error_ = cannot_write(file_path_, errno);
  }
  file_fd_ = -1;
  out_.clear();
  return ok && ok_;
}

bool RunWriter::flush_positions() {
  static_assert(8 * store::kPositionHashBytes + 16 <= 64, "the hash's key and the game's distance share a word");
  if (positions_.empty()) return true;
  // Records as add(Similar, 6-byte key, game) writes them; the hash's top bit is the key range (run_partition).
  size_t partition = 0;
  start_run_file("pos", partition, kPostingFormat);
  uint64_t previous = 0;
  bool any = false;
  const bool written = positions_.for_each_bin([&](uint64_t* first, uint64_t* last) {
    // By the hash's second byte within its bin of the first: the run's order is by the first 16 bits only,
    // PositionMerge's slices, which it sorts as it merges (a third pass, on ranges of ~30 values, was a third of
    // the sort).
    radix_sort(first, last, 48, 48);
    for (const uint64_t* at = first; at != last; ++at) {
      const uint64_t v = *at;
      if (any && previous == v) continue;
      previous = v, any = true;
      const uint64_t hash = v & ~(kPositionGameSpan - 1);
      const uint32_t game = position_base_ + static_cast<uint32_t>(v & (kPositionGameSpan - 1));
      if (size_t p = hash >> 63; p != partition) {
        if (!close_run_file()) return false;
        partition = p;
        start_run_file("pos", partition, kPostingFormat);
      }
      // (built in place and appended at once: byte by byte, the record was a tenth of a build's CPU)
      char record[2 + store::kPositionHashBytes + 4];
      record[0] = static_cast<char>(1 + store::kPositionHashBytes);
      record[1] = static_cast<char>(store::Family::Similar);
      for (size_t k = 0; k < store::kPositionHashBytes; ++k) record[2 + k] = static_cast<char>(hash >> (56 - 8 * k));
      store::write_be32(record + 2 + store::kPositionHashBytes, game);
      out_.append(record, sizeof record);
      if (out_.size() >= kRunWriteBuffer && !spill_out()) return false;
    }
    return true;
  });
  if (!written) return close_run_file();
  if (!close_run_file()) return false;
  positions_.clear();
  return true;
}

bool RunWriter::flush(std::string* error) {
  if (ok_ && !flush_positions()) ok_ = false;
  if (!ok_) {
    if (error) *error = error_;
    return false;
  }
  if (keys_.empty()) {
    ++run_count_;
    return true;
  }
  // One file per key range; the keys come in order, so each range is one stretch of them.
  size_t partition = 0;
  start_run_file("run", partition, kGroupFormat);
  const bool written = keys_.for_each_in_order([&](std::string_view key, const uint32_t* games, uint32_t count) {
    if (size_t p = run_partition(key); p != partition) {
      if (!close_run_file()) return false;
      partition = p;
      start_run_file("run", partition, kGroupFormat);
    }
    append_group(out_, key[0], key.substr(1), games, count);  // (a group's key leads with its family byte)
    return out_.size() < kRunWriteBuffer || spill_out();
  });
  if (!close_run_file() || !written) {
    if (error) *error = error_;
    return false;
  }
  ++run_count_;
  keys_.clear();
  return true;
}

bool RunWriter::finish(std::string* error) {
  const bool ok = flush(error);
  keys_.release();
  positions_.release();
  std::string().swap(out_);
  return ok;
}

RunReader::~RunReader() {
  if (fd_ >= 0) ::close(fd_);
}

bool RunReader::open(const std::string& path, size_t buffer, std::string* error) {
  path_ = path;
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    if (error) *error = path + ": " + std::strerror(errno);
    return false;
  }
  buffer_.resize(buffer);
  return true;
}

void RunReader::refill() {
  if (eof_ || end_ - pos_ >= kMaxRecord) return;
  std::copy(buffer_.begin() + static_cast<std::ptrdiff_t>(pos_), buffer_.begin() + static_cast<std::ptrdiff_t>(end_),
            buffer_.begin());
  end_ -= pos_;
  pos_ = 0;
  while (!eof_ && end_ < buffer_.size()) {
    ssize_t n = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) failure_ = path_ + ": " + std::strerror(errno);
    if (n <= 0) eof_ = true;
    else end_ += static_cast<size_t>(n);
  }
}

bool RunReader::load() {
  refill();
  if (format_ == 0) {  // the file's first byte
    if (pos_ >= end_) return false;
    format_ = buffer_[pos_++];
    if (format_ != kPostingFormat && format_ != kGroupFormat) {
      if (failure_.empty()) failure_ = path_ + ": not a run file (damaged, or written by another version)";
      return false;
    }
  }
  if (pos_ >= end_) return false;
  const size_t length = static_cast<uint8_t>(buffer_[pos_]);
  const size_t count_bytes = format_ == kGroupFormat ? 2 : 0;
  const size_t head_end = pos_ + 1 + length + count_bytes;
  count = format_ == kGroupFormat && head_end <= end_
              ? size_t{static_cast<uint8_t>(buffer_[head_end - 2])} << 8 | static_cast<uint8_t>(buffer_[head_end - 1])
              : 1;
  if (head_end + 4 * count > end_ || length == 0 || count == 0 || count > kGroupGames) {
    if (failure_.empty()) failure_ = path_ + ": a record is cut short (a damaged run file)";
    return false;
  }
  text = std::string_view(buffer_.data() + pos_ + 1, length);
  head = head_of(text, end_ - pos_ - 1);
  games_ = buffer_.data() + head_end;
  at_ = 0;
  pos_ = head_end + 4 * count;
  return true;
}

uint32_t RunReader::game() const { return store::get_be32(std::string_view(games_ + 4 * at_, 4)); }

RunMerger::RunMerger() = default;
RunMerger::~RunMerger() = default;

bool RunMerger::open(const std::vector<std::string>& runs, std::string* error, size_t buffer_bytes) {
  const size_t buffer = run_read_buffer(buffer_bytes, runs.size());
  for (const std::string& path : runs) {
    auto cursor = std::make_unique<RunReader>();
    if (!cursor->open(path, buffer, error)) return false;
    cursors_.push_back(std::move(cursor));
    if (cursors_.back()->load()) push(static_cast<uint32_t>(cursors_.size() - 1));
  }
  return true;
}

RunMerger::Node RunMerger::node_of(uint32_t c) const {
  const RunReader& x = *cursors_[c];
  return Node{x.head, static_cast<uint32_t>(x.text.size()), x.game(), c};
}

bool RunMerger::after(const Node& a, const Node& b) const {
  if (a.head != b.head) return a.head > b.head;
  // Equal first 8 bytes and equal lengths up to 8 (position hashes: most records) are equal keys: no memcmp.
  if (a.size != b.size || a.size > 8)
    if (int c = cursors_[a.cursor]->text.compare(cursors_[b.cursor]->text); c != 0) return c > 0;
  return a.game > b.game;
}

void RunMerger::push(uint32_t cursor) {
  heap_.push_back(node_of(cursor));
  std::push_heap(heap_.begin(), heap_.end(), [this](const Node& a, const Node& b) { return after(a, b); });
}

store::Family RunMerger::family() const {
  return static_cast<store::Family>(static_cast<uint8_t>(heap_.front().head >> 56));
}

void RunMerger::replace_top() {
  // Floyd's bottom-up sift: the hole at the top goes down along the smaller children to a leaf (one comparison
  // a level), and the top's record rises from there to its place, which is near the bottom when the runs are
  // many: half the comparisons of pop_heap + push_heap, which this replaced (the merge's costliest part).
  const size_t n = heap_.size();
  const Node moved = heap_[0];
  size_t hole = 0;
  for (size_t child = 1; child < n; child = 2 * hole + 1) {
    if (child + 1 < n && after(heap_[child], heap_[child + 1])) ++child;
    heap_[hole] = heap_[child];
    hole = child;
  }
  while (hole > 0) {
    const size_t parent = (hole - 1) / 2;
    if (!after(heap_[parent], moved)) break;
    heap_[hole] = heap_[parent];
    hole = parent;
  }
  heap_[hole] = moved;
}

void RunMerger::next(std::string& key, std::vector<uint32_t>& games) {
  const Node first = heap_.front();
  std::string current(cursors_[first.cursor]->text);
  key.assign(current, 1, std::string::npos);
  games.clear();
  // (the first 8 bytes decide most records: a memcmp only for keys longer than 8 bytes)
  auto same_key = [&](const Node& n) {
    return n.head == first.head && n.size == first.size && (n.size <= 8 || cursors_[n.cursor]->text == current);
  };
  while (!heap_.empty() && same_key(heap_.front())) {
    Node& top = heap_.front();
    RunReader& run = *cursors_[top.cursor];
    // The top record's games go out up to the next run's game of the key (the smaller of the top's children):
    // the heap moves once for each stretch of games a run holds, not for each game.
    uint32_t limit = UINT32_MAX;
    for (size_t child = 1; child <= 2 && child < heap_.size(); ++child)
      if (same_key(heap_[child])) limit = std::min(limit, heap_[child].game);
    uint32_t game = top.game;
    bool more;  // the record has games left
    do {  // A game's postings may straddle two runs of one writer: equal ids come next to each other.
      if (games.empty() || games.back() != game) games.push_back(game);
    } while ((more = run.next_game()) && (game = run.game()) <= limit);
    if (more) {
      top.game = game;
    } else if (run.load()) {
      top = node_of(top.cursor);
    } else {  // the run is done: its place goes to the last cursor
      heap_.front() = heap_.back();
      heap_.pop_back();
    }
    if (!heap_.empty()) replace_top();
  }
}

namespace {

// Merges run files `group` into the run file `path` (the merged records, as a writer writes them): by slices when
// they hold `positions` only (PositionMerge), else through RunMerger's heap. False (with `error`) on failure.
bool merge_group(const std::vector<std::string>& group, RunContent content, size_t buffer_bytes,
                 const std::string& path, std::string* error) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  std::string out(1, content == RunContent::Positions ? kPostingFormat : kGroupFormat), key;
  std::vector<uint32_t> games;
  auto put = [&](char family) {
    if (content == RunContent::Positions)
      for (uint32_t game : games) append_record(out, family, key, game);
    else
      append_group(out, family, key, games.data(), games.size());
    if (out.size() >= kRunReadBuffer) {
      file.write(out.data(), static_cast<std::streamsize>(out.size()));
      out.clear();
    }
  };
  if (content == RunContent::Positions) {
    PositionMerge merger;
    if (!merger.open(group, error, buffer_bytes)) return false;
    uint64_t hash;
    char bytes[store::kPositionHashBytes];
    while (file && merger.next(hash, games)) {
      store::write_position_hash(hash, bytes);
      key.assign(bytes, sizeof bytes);
      put(static_cast<char>(store::Family::Similar));
    }
    if (!merger.error().empty()) {
      if (error) *error = merger.error();
      return false;
    }
  } else {
    RunMerger merger;
    if (!merger.open(group, error, buffer_bytes)) return false;
    while (merger.has_next() && file) {
      const char family = static_cast<char>(merger.family());
      merger.next(key, games);
      put(family);
    }
  }
  errno = 0;
  file.write(out.data(), static_cast<std::streamsize>(out.size()));
  file.close();
  if (!file && error) *error = cannot_write(path, errno ? errno : EIO);
  return static_cast<bool>(file);
}

}  // namespace

bool reduce_runs(std::vector<std::string>& runs, size_t fan_in, size_t buffer_bytes, const std::string& dir,
                 const std::string& name, std::string* error, RunContent content) {
  fan_in = std::max<size_t>(fan_in, 2);
  for (size_t round = 0; runs.size() > fan_in; ++round) {
    // When one merge of the first runs leaves fan_in, only those are merged (at 10 million games a range had
    // 382 runs for a fan-in of 256: merging all in groups sent every posting through a second merge, not a third).
    const size_t group_size = runs.size() - fan_in + 1 <= fan_in ? runs.size() - fan_in + 1 : fan_in;
    std::vector<std::string> merged;
    for (size_t first = 0; first < runs.size(); first += group_size) {
      const std::vector<std::string> group(runs.begin() + std::ptrdiff_t(first),
                                           runs.begin() + std::ptrdiff_t(std::min(runs.size(), first + group_size)));
      if (group.size() == 1 || (group_size < fan_in && first > 0)) {  // (a partial round: the rest stay as they are)
        merged.insert(merged.end(), group.begin(), group.end());
        continue;
      }
      const std::string path =
          dir + "/" + name + "-" + std::to_string(round) + "-" + std::to_string(first / group_size);
      if (!merge_group(group, content, buffer_bytes, path, error)) return false;
      std::error_code ec;
      for (const std::string& run : group) std::filesystem::remove(run, ec);  // merged: the disk is not doubled
      merged.push_back(path);
    }
    runs = std::move(merged);
  }
  return true;
}

}  // namespace cqlindex::indexer
