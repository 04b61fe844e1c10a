// The union merge operators over encoded posting lists and position buckets.
#include "store/posting_union_merge.h"

#include <map>

#include "store/position_buckets.h"
#include "store/posting_list.h"

namespace cqlindex::store {
namespace {

// A union merge: `Value` gathers the decoded operands (add() is false on bytes that do not decode, which
// RocksDB reports as corruption) and encodes the result.
template <class Value>
class UnionMerge final : public rocksdb::MergeOperator {
 public:
  explicit UnionMerge(const char* name) : name_(name) {}
  const char* Name() const override { return name_; }

  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    Value result;
    if (in.existing_value && !result.add(*in.existing_value)) return false;
    for (const rocksdb::Slice& operand : in.operand_list)
      if (!result.add(operand)) return false;
    out->new_value = result.encode();
    return true;
  }

  bool PartialMergeMulti(const rocksdb::Slice&, const std::deque<rocksdb::Slice>& operands,
                         std::string* new_value, rocksdb::Logger*) const override {
    Value result;
    for (const rocksdb::Slice& operand : operands)
      if (!result.add(operand)) return false;
    *new_value = result.encode();
    return true;
  }

 private:
  const char* name_;
};

std::string_view view(const rocksdb::Slice& s) { return std::string_view(s.data(), s.size()); }

// The union of posting lists.
struct PostingUnion {
  PostingList games;
  bool add(const rocksdb::Slice& encoded) {
    auto list = PostingList::decode(view(encoded));
    if (list) games.bits() |= list->bits();
    return list.has_value();
  }
  std::string encode() const { return games.encode(); }
};

// The union of position buckets, tag by tag.
struct BucketUnion {
  std::map<uint32_t, PostingList> entries;
  bool add(const rocksdb::Slice& encoded) {
    return for_each_in_bucket(view(encoded), [&](uint32_t tag, PostingList&& games) {
      entries[tag].bits() |= games.bits();
    }, nullptr);
  }
  std::string encode() const {
    PositionBucketWriter writer;
    for (const auto& [tag, games] : entries) writer.add(tag, games);
    return writer.take();
  }
};

}  // namespace

std::shared_ptr<rocksdb::MergeOperator> make_posting_union_merge() {
  return std::make_shared<UnionMerge<PostingUnion>>("cqlindex.PostingUnion");
}

std::shared_ptr<rocksdb::MergeOperator> make_position_bucket_merge() {
  return std::make_shared<UnionMerge<BucketUnion>>("cqlindex.PositionBucketUnion");
}

}  // namespace cqlindex::store
