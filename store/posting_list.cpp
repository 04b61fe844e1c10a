// Encoding of posting lists (format byte + varint deltas or CRoaring portable bytes).
#include "store/posting_list.h"

#include <stdexcept>

#include "store/varint.h"

namespace cqlindex::store {
namespace {

constexpr char kSingleFormat = 'S';  // one game (90 % of position keys): the id alone
constexpr char kDeltaFormat = 'D';
constexpr char kRoaringFormat = 'R';

}  // namespace

std::string PostingList::encode() const {
  if (bits_.cardinality() == 1) {
    std::string single(1, kSingleFormat);
    put_varint(single, bits_.minimum());
    return single;
  }
  std::string delta(1, kDeltaFormat);
  put_varint(delta, bits_.cardinality());
  uint32_t previous = 0;
  bool first = true;
  for (uint32_t id : bits_) {
    put_varint(delta, first ? id : id - previous);
    previous = id;
    first = false;
  }
  Roaring optimised = bits_;
  optimised.runOptimize();
  size_t roaring_size = optimised.getSizeInBytes(true);
  if (delta.size() <= roaring_size + 1) return delta;
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
