#pragma once
// RocksDB merge operator for posting-list families: the merged value is the union of all operands.
// It lets a build write one Merge entry per (key, run) into SST files and lets --append add games to
// existing keys without reading them first.
#include <memory>

#include <rocksdb/merge_operator.h>

namespace cqlindex::store {

// Returns the operator that unions encoded posting lists.
std::shared_ptr<rocksdb::MergeOperator> make_posting_union_merge();

}  // namespace cqlindex::store
