// Encoding of posting lists (format byte + varint deltas or CRoaring portable bytes).
#include "store/posting_list.h"

#include <algorithm>
#include <stdexcept>

#include "store/varint.h"

namespace cqlindex::store {
namespace {

constexpr char kSingleFormat = 'S';  // one game (90 % of position keys): the id alone
constexpr char kDeltaFormat = 'D';
constexpr char kRoaringFormat = 'R';

// A non-empty bitmap takes at least 15 bytes in CRoaring's portable format (cookie 4, run flags 1, container
// header 4, one run 6), so a varint form of at most this many bytes is never larger than it plus its format byte.
constexpr size_t kDeltaAlwaysSmaller = 16;

// Writes the 'D' form of the `count` increasing `ids` (any range with begin/end) to `out`, replacing what it held.
// (Through a small buffer, appended a few KiB at a time: byte by byte, the form was a tenth of a build's merge.)
template <class Ids>
void delta_form_to(const Ids& ids, uint64_t count, std::string& out) {
  char buffer[4096 + 16];
  char* p = buffer;
  *p++ = kDeltaFormat;
  p = write_varint(p, count);
  out.clear();
  uint32_t previous = 0;
  for (uint32_t id : ids) {
    p = write_varint(p, id - previous);  // the first id whole
    previous = id;
    if (p - buffer >= 4096) {
      out.append(buffer, p);
      p = buffer;
    }
  }
  out.append(buffer, p);
}

// Returns the single-game form of `id`.
std::string single_form(uint32_t id) {
  std::string single(1, kSingleFormat);
  put_varint(single, id);
  return single;
}

// Returns a lower bound of the size of CRoaring's portable serialisation, after runOptimize, of the increasing
// `ids`, without building the bitmap. The format: a 4-byte cookie (then either a run bitset or 4 more bytes and
// an offset per container), per container of 65,536 ids a 4-byte header and, from 4 containers on, a 4-byte
// offset, then its body: the smallest of its array (2 bytes an id; a bitmap, 8 KiB, past 4,096 ids) and run
// (2 bytes, then 4 a run) forms. (At 1M games a position's few games fall in as many containers: the bitmap was
// a malloc a container, twice over with encode()'s copy, for a varint form that won; a sixth of a build's CPU.)
size_t roaring_size_at_least(const std::vector<uint32_t>& ids) {
  constexpr size_t kArrayMax = 4096, kBitmapBytes = 8192;
  size_t containers = 0, bodies = 0;
  for (size_t i = 0; i < ids.size();) {
    const uint32_t high = ids[i] >> 16;
    size_t count = 0, runs = 0;
    for (uint32_t previous = 0; i < ids.size() && (ids[i] >> 16) == high; ++i, ++count) {
      if (count == 0 || ids[i] != previous + 1) ++runs;
      previous = ids[i];
    }
    ++containers;
    bodies += std::min(count <= kArrayMax ? 2 * count : kBitmapBytes, 2 + 4 * runs);
  }
  return 4 + 4 * containers + (containers >= 4 ? 4 * containers : 0) + bodies;
}

}  // namespace

std::string PostingList::encode_sorted(const std::vector<uint32_t>& ids) {
  std::string out;
  encode_sorted_to(ids, out);
  return out;
}

void PostingList::encode_sorted_to(const std::vector<uint32_t>& ids, std::string& out) {
  if (ids.size() == 1) {
    out.assign(1, kSingleFormat);
    put_varint(out, ids.front());
    return;
  }
  delta_form_to(ids, ids.size(), out);
  // encode() keeps the varint form when it is at most one byte longer than the bitmap's
  if (out.size() <= kDeltaAlwaysSmaller || out.size() <= roaring_size_at_least(ids) + 1) return;
  Roaring bits;
  bits.addMany(ids.size(), ids.data());
  out = PostingList(std::move(bits)).encode();
}

std::string PostingList::encode() const {
  const uint64_t count = bits_.cardinality();
  if (count == 1) return single_form(bits_.minimum());
  // Under 16 ids the varint form always wins (kDeltaAlwaysSmaller); it is built first only then.
  std::string delta;
  if (count < kDeltaAlwaysSmaller) delta_form_to(bits_, count, delta);
  if (!delta.empty() && delta.size() <= kDeltaAlwaysSmaller) return delta;
  Roaring optimised = bits_;
  optimised.runOptimize();
  size_t roaring_size = optimised.getSizeInBytes(true);
  // The varint form takes at least 2 + count bytes (format, count, one byte a gap): dense lists skip it.
  if (delta.empty() && 2 + count <= roaring_size + 1) delta_form_to(bits_, count, delta);
  if (!delta.empty() && delta.size() <= roaring_size + 1) return delta;
  std::string out(1 + roaring_size, kRoaringFormat);
  optimised.write(out.data() + 1, true);
  return out;
}

std::optional<PostingList> PostingList::decode(std::string_view bytes, std::string* error) {
  auto fail = [&](const char* why) -> std::optional<PostingList> {
    if (error) *error = why;
    return std::nullopt;
  };
  if (bytes.empty()) return fail("empty posting list");
  char format = bytes.front();
  bytes.remove_prefix(1);
  if (format == kSingleFormat) {
    uint64_t id;
    if (!get_varint(bytes, id) || id > UINT32_MAX || !bytes.empty()) return fail("bad one-game posting list");
    PostingList list;
    list.add(static_cast<uint32_t>(id));
    return list;
  }
  if (format == kDeltaFormat) {
    uint64_t count;
    if (!get_varint(bytes, count) || count > (uint64_t{1} << 32)) return fail("bad posting list length");
    PostingList list;
    uint64_t id = 0;
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t gap;
      if (!get_varint(bytes, gap)) return fail("truncated posting list");
      id = (i == 0) ? gap : id + gap;
      if ((i > 0 && gap == 0) || id > UINT32_MAX) return fail("posting list ids out of order");
      list.add(static_cast<uint32_t>(id));
    }
    if (!bytes.empty()) return fail("trailing bytes after posting list");
    return list;
  }
  if (format == kRoaringFormat) {
    try {
      Roaring bits = Roaring::readSafe(bytes.data(), bytes.size());
      if (bits.getSizeInBytes(true) != bytes.size()) return fail("roaring posting list has a bad length");
      return PostingList(std::move(bits));
    } catch (const std::exception&) {
      return fail("corrupt roaring posting list");
    }
  }
  return fail("unknown posting list format");
}

}  // namespace cqlindex::store
