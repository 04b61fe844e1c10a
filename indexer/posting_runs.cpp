// Run files: a sequence of records [length u8][family u8][key][game u32 big-endian], sorted by
// (family, key, game), duplicates removed. Merged through memory maps.
#include "indexer/posting_runs.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "store/varint.h"

namespace cqlindex::indexer {
namespace {

// Returns bytes [from, from + 8) of `text` as a big-endian integer, zero-padded past its end.
uint64_t prefix_of(std::string_view text, size_t from) {
  uint64_t p = 0;
  for (size_t i = from; i < from + 8; ++i) p = (p << 8) | (i < text.size() ? static_cast<uint8_t>(text[i]) : 0);
  return p;
}

}  // namespace

RunWriter::RunWriter(std::string dir, std::string name, size_t max_pairs)
    : dir_(std::move(dir)), name_(std::move(name)), max_pairs_(max_pairs) {
  entries_.reserve(max_pairs_);
}

void RunWriter::add(store::Family family, std::string_view key, uint32_t game) {
  uint32_t offset = static_cast<uint32_t>(bytes_.size());
  bytes_.push_back(static_cast<char>(key.size() + 1));
  bytes_.push_back(static_cast<char>(family));
  bytes_.append(key);
  std::string_view text = std::string_view(bytes_).substr(offset + 1);
  entries_.push_back(Entry{{prefix_of(text, 0), prefix_of(text, 8), prefix_of(text, 16)}, offset, game});
  if (entries_.size() >= max_pairs_ && ok_) ok_ = flush(&error_);
}

bool RunWriter::flush(std::string* error) {
  if (!ok_) {
    if (error) *error = error_;
    return false;
  }
  if (entries_.empty()) return true;
  auto text = [&](const Entry& e) {
    return std::string_view(bytes_.data() + e.offset + 1, static_cast<uint8_t>(bytes_[e.offset]));
  };
  std::sort(entries_.begin(), entries_.end(), [&](const Entry& a, const Entry& b) {
    if (a.prefix[0] != b.prefix[0]) return a.prefix[0] < b.prefix[0];
    if (a.prefix[1] != b.prefix[1]) return a.prefix[1] < b.prefix[1];
    if (a.prefix[2] != b.prefix[2]) return a.prefix[2] < b.prefix[2];
    int c = text(a).size() <= 24 && text(b).size() <= 24 ? 0 : text(a).compare(text(b));
    if (c == 0) c = int(text(a).size()) - int(text(b).size());
    return c != 0 ? c < 0 : a.game < b.game;
  });
  std::string path = dir_ + "/run-" + name_ + "-" + std::to_string(runs_.size());
  std::string out;
  out.reserve(entries_.size() * 24);
  const Entry* previous = nullptr;
  for (const Entry& e : entries_) {
    if (previous && previous->game == e.game && previous->prefix[0] == e.prefix[0] &&
        previous->prefix[1] == e.prefix[1] && previous->prefix[2] == e.prefix[2] && text(*previous) == text(e))
      continue;
    std::string_view t = text(e);
    out.push_back(static_cast<char>(t.size()));
    out.append(t);
    store::put_be32(out, e.game);
    previous = &e;
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(out.data(), static_cast<std::streamsize>(out.size()));
  file.close();
  if (!file) {
    ok_ = false;
    error_ = path + ": cannot write (disk full?)";
    if (error) *error = error_;
    return false;
  }
  runs_.push_back(path);
  entries_.clear();
  bytes_.clear();
  return true;
}

// One run file read through a small buffer (mapping whole runs would keep every run resident), and the
// record under its read position.
struct RunMerger::Cursor {
  static constexpr size_t kBuffer = 1 << 20;
  static constexpr size_t kMaxRecord = 1 + 256 + 4;
  int fd = -1;
  std::string buffer;
  size_t pos = 0, end = 0;
  bool eof = false;
  std::string_view text;  // family + key of the current record
  uint32_t game = 0;

  ~Cursor() {
    if (fd >= 0) ::close(fd);
  }
  // Keeps at least one whole record in the buffer unless the file ends first.
  void refill() {
    if (eof || end - pos >= kMaxRecord) return;
    std::copy(buffer.begin() + static_cast<std::ptrdiff_t>(pos), buffer.begin() + static_cast<std::ptrdiff_t>(end),
              buffer.begin());
    end -= pos;
    pos = 0;
    while (!eof && end < buffer.size()) {
      ssize_t n = ::read(fd, buffer.data() + end, buffer.size() - end);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) eof = true;
      else end += static_cast<size_t>(n);
    }
  }
  // Reads the next record; false at the end (or on a malformed tail, which a writer never leaves).
  bool load() {
    refill();
    if (pos >= end) return false;
    size_t length = static_cast<uint8_t>(buffer[pos]);
    if (pos + 1 + length + 4 > end || length == 0) return false;
    text = std::string_view(buffer.data() + pos + 1, length);
    game = store::get_be32(std::string_view(buffer.data() + pos + 1 + length, 4));
    pos += 1 + length + 4;
    return true;
  }
};

RunMerger::RunMerger() = default;
RunMerger::~RunMerger() = default;

bool RunMerger::open(const std::vector<std::string>& runs, std::string* error) {
  for (const std::string& path : runs) {
    auto cursor = std::make_unique<Cursor>();
    cursor->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (cursor->fd < 0) {
      if (error) *error = path + ": " + std::strerror(errno);
      return false;
    }
    cursor->buffer.resize(Cursor::kBuffer);
    cursors_.push_back(std::move(cursor));
    if (cursors_.back()->load()) push(cursors_.size() - 1);
  }
  return true;
}

bool RunMerger::after(size_t a, size_t b) const {
  int c = cursors_[a]->text.compare(cursors_[b]->text);
  return c != 0 ? c > 0 : cursors_[a]->game > cursors_[b]->game;
}

void RunMerger::push(size_t cursor) {
  heap_.push_back(cursor);
  std::push_heap(heap_.begin(), heap_.end(), [this](size_t a, size_t b) { return after(a, b); });
}

store::Family RunMerger::family() const {
  return static_cast<store::Family>(static_cast<uint8_t>(cursors_[heap_.front()]->text[0]));
}

void RunMerger::next(std::string& key, store::PostingList& games) {
  auto greater = [this](size_t a, size_t b) { return after(a, b); };
  std::string current(cursors_[heap_.front()]->text);
  key.assign(current, 1, std::string::npos);
  games = store::PostingList();
  while (!heap_.empty() && cursors_[heap_.front()]->text == current) {
    std::pop_heap(heap_.begin(), heap_.end(), greater);
    size_t c = heap_.back();
    heap_.pop_back();
    games.add(cursors_[c]->game);
    if (cursors_[c]->load()) push(c);
  }
}

}  // namespace cqlindex::indexer
