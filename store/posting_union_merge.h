#pragma once
// RocksDB merge operators for posting-list families: the merged value is the union of all operands.
// They let a build write one Merge entry per (key, run) into SST files and let --append add games to
// existing keys without reading them first.
#include <memory>

#include <rocksdb/merge_operator.h>

namespace cqlindex::store {

// Returns the operator that unions encoded posting lists.
std::shared_ptr<rocksdb::MergeOperator> make_posting_union_merge();

// Returns the operator that unions position buckets (store/position_buckets.h): the entries of every operand,
// the games of equal tags joined.
std::shared_ptr<rocksdb::MergeOperator> make_position_bucket_merge();

}  // namespace cqlindex::store
