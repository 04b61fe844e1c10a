// The similar family's buckets: hashing, the entry layout, reading and writing.
#include "store/position_buckets.h"

#include <xxhash.h>

#include "store/varint.h"

namespace cqlindex::store {

uint64_t position_hash(std::string_view key) { return XXH3_64bits(key.data(), key.size()); }

unsigned similar_bucket_bits(uint64_t distinct_positions, uint64_t postings, uint64_t bucket_bytes) {
  const uint64_t bytes = 5 * distinct_positions + 2 * postings;
  unsigned bits = kMinBucketBits;
  while (bits < kMaxBucketBits && (bytes >> bits) > bucket_bytes) ++bits;
  return bits;
}

std::string bucket_key(uint32_t bucket) {
  std::string key;
  put_be32(key, bucket);
  return key;
}

void write_position_hash(uint64_t h, char (&out)[kPositionHashBytes]) {
  for (size_t i = 0; i < kPositionHashBytes; ++i) out[i] = static_cast<char>(h >> (56 - 8 * i));
}

uint64_t read_position_hash(std::string_view bytes) {
  uint64_t h = 0;
  for (size_t i = 0; i < kPositionHashBytes; ++i) h |= uint64_t{static_cast<uint8_t>(bytes[i])} << (56 - 8 * i);
  return h;
}

void PositionBucketWriter::put_head(uint32_t tag, uint64_t v) {
  // (built in place and appended at once: a bucket value gets an entry per position)
  char head[4 + 10];
  value_.append(head, write_varint(write_be32(head, tag), v));
}

void PositionBucketWriter::put_games(uint32_t tag) {
  put_head(tag, (uint64_t{games_.size()} << 1) | 1);
  value_ += games_;
}

void PositionBucketWriter::add(uint32_t tag, const std::vector<uint32_t>& ids) {
  if (ids.size() == 1) return put_head(tag, uint64_t{ids.front()} << 1);
  PostingList::encode_sorted_to(ids, games_);
  put_games(tag);
}

void PositionBucketWriter::add(uint32_t tag, const PostingList& games) {
  if (games.size() == 1) return put_head(tag, uint64_t{games.bits().minimum()} << 1);
  games_ = games.encode();
  put_games(tag);
}

std::string PositionBucketWriter::take() {
  std::string out;
  out.swap(value_);
  return out;
}

namespace {

// One entry read off the front of a bucket value.
struct RawEntry {
  uint32_t tag;
  uint64_t v;                 // the varint: see position_buckets.h
  std::string_view encoded;   // the games' bytes when v is odd
};

// Reads the entry at the front of `in` and advances it; false (with `error`) on malformed bytes.
bool next_entry(std::string_view& in, RawEntry& e, std::string* error) {
  auto fail = [&](const char* why) {
    if (error) *error = std::string("damaged position bucket: ") + why;
    return false;
  };
  if (in.size() < 4) return fail("truncated tag");
  e.tag = get_be32(in);
  in.remove_prefix(4);
  if (!get_varint(in, e.v)) return fail("truncated entry");
  e.encoded = {};
  if (e.v & 1) {
    const uint64_t length = e.v >> 1;
    if (length == 0 || length > in.size()) return fail("truncated posting list");
    e.encoded = in.substr(0, length);
    in.remove_prefix(length);
  } else if ((e.v >> 1) > UINT32_MAX) {
    return fail("game id out of range");
  }
  return true;
}

// Returns the games of entry `e`, or nullopt (with `error`).
std::optional<PostingList> games_of(const RawEntry& e, std::string* error) {
  if (!(e.v & 1)) {
    PostingList one;
    one.add(static_cast<uint32_t>(e.v >> 1));
    return one;
  }
  std::string why;
  auto list = PostingList::decode(e.encoded, &why);
  if (list && list->empty()) list.reset(), why = "an entry without games";  // a writer never writes one
  if (!list && error) *error = "damaged position bucket: " + why;
  return list;
}

// Reads the entries of a bucket value in order, checking that their tags increase.
class BucketReader {
 public:
  explicit BucketReader(std::string_view value) : rest_(value) {}
  bool done() const { return rest_.empty(); }
  // Reads the next entry into `e`; false (with `error`) on malformed bytes.
  bool next(RawEntry& e, std::string* error) {
    if (!next_entry(rest_, e, error)) return false;
    if (!first_ && e.tag <= previous_) {
      if (error) *error = "damaged position bucket: tags out of order";
      return false;
    }
    first_ = false;
    previous_ = e.tag;
    return true;
  }

 private:
  std::string_view rest_;
  bool first_ = true;
  uint32_t previous_ = 0;
};

}  // namespace

bool for_each_in_bucket(std::string_view value, const std::function<void(uint32_t, PostingList&&)>& visit,
                        std::string* error) {
  BucketReader reader(value);
  RawEntry e{};  // (GCC 12 cannot see that next_entry sets it before a true return)
  while (!reader.done()) {
    if (!reader.next(e, error)) return false;
    auto games = games_of(e, error);
    if (!games) return false;
    visit(e.tag, std::move(*games));
  }
  return true;
}

std::optional<size_t> bucket_entry_count(std::string_view value, std::string* error) {
  BucketReader reader(value);
  RawEntry e{};
  size_t count = 0;
  for (; !reader.done(); ++count)
    if (!reader.next(e, error)) return std::nullopt;
  return count;
}

bool find_tags_in_bucket(std::string_view value, const std::vector<uint32_t>& wanted,
                         const std::function<void(size_t, PostingList&&)>& visit, std::string* error) {
  BucketReader reader(value);
  RawEntry e{};
  size_t i = 0;
  while (!reader.done() && i < wanted.size()) {
    if (!reader.next(e, error)) return false;
    while (i < wanted.size() && wanted[i] < e.tag) ++i;
    if (i < wanted.size() && wanted[i] == e.tag) {
      auto games = games_of(e, error);
      if (!games) return false;
      for (; i + 1 < wanted.size() && wanted[i + 1] == e.tag; ++i) visit(i, PostingList(*games));  // a tag asked twice
      visit(i++, std::move(*games));
    }
  }
  return true;
}

std::optional<PostingList> find_in_bucket(std::string_view value, uint32_t tag, std::string* error) {
  BucketReader reader(value);
  RawEntry e{};
  while (!reader.done()) {
    if (!reader.next(e, error)) return std::nullopt;
    if (e.tag == tag) return games_of(e, error);
    if (e.tag > tag) break;  // tags increase: it is absent
  }
  return PostingList();
}

}  // namespace cqlindex::store
