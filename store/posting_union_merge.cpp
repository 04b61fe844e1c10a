// The union merge operator over encoded posting lists.
#include "store/posting_union_merge.h"

#include "store/posting_list.h"

namespace cqlindex::store {
namespace {

class PostingUnionMerge final : public rocksdb::MergeOperator {
 public:
  const char* Name() const override { return "cqlindex.PostingUnion"; }

  bool FullMergeV2(const MergeOperationInput& in, MergeOperationOutput* out) const override {
    PostingList result;
    if (in.existing_value && !add(result, *in.existing_value)) return false;
    for (const rocksdb::Slice& operand : in.operand_list)
      if (!add(result, operand)) return false;
    out->new_value = result.encode();
    return true;
  }

  bool PartialMergeMulti(const rocksdb::Slice&, const std::deque<rocksdb::Slice>& operands,
                         std::string* new_value, rocksdb::Logger*) const override {
    PostingList result;
    for (const rocksdb::Slice& operand : operands)
      if (!add(result, operand)) return false;
    *new_value = result.encode();
    return true;
  }

 private:
  // Adds the ids of an encoded list to `result`; false (corruption: RocksDB reports it) if it does not decode.
  static bool add(PostingList& result, const rocksdb::Slice& encoded) {
    auto list = PostingList::decode(std::string_view(encoded.data(), encoded.size()));
    if (!list) return false;
    result.bits() |= list->bits();
    return true;
  }
};

}  // namespace

std::shared_ptr<rocksdb::MergeOperator> make_posting_union_merge() {
  return std::make_shared<PostingUnionMerge>();
}

}  // namespace cqlindex::store
