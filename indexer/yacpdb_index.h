#pragma once
// The yacpdb family of a problem file's index: the YACPDB predicate instances of every entry, found once at
// build time (as YACPDB does), so that `cqlindex yacpdb` answers analysis predicates without replaying a tree.
//   key "ArealCycle|wR|4|true" (store/keys/yacpdb_key.h) -> [varint n][posting list of the n entries][n zigzag
//                                                          varint counts, in entry order]
//   key "\x01" + predicate name                       -> posting list of the entries not analysed for it
//   key "\x02" + entry number (4 bytes, big-endian)    -> the entry's metadata without its text
//                                                         (yacpdb::encode_entry_metadata)
//   key "\x03" + entry number (4 bytes, big-endian)    -> the entry's text (apart: only Text() reads it, and it
//                                                         is most of the bytes a metadata query would read)
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "engine/yacpdb/instance_index.h"
#include "engine/yacpdb/problem.h"
#include "store/index_store.h"

namespace cqlindex::indexer {

// Analyses the problems of `file` from entry `first` on (0: all) on `threads` threads (0: every core) and returns
// their instances (entries keep their numbers in the file).
yacpdb::InstanceIndex analyse_problems(const yacpdb::ProblemFile& file, unsigned threads, uint32_t first = 0);

// Writes `index` and the metadata of `file`'s entries into the yacpdb family of `store` (a fresh build).
bool write_yacpdb_family(store::IndexStore& store, const yacpdb::ProblemFile& file, const yacpdb::InstanceIndex& index,
                         std::string* error);

// --append: true when the first `indexed` entries of `file` are, metadata and text byte for byte, those the yacpdb
// family of `store` holds (the bytes appended to the file did not change how its last indexed entry reads); false
// (with `error`) otherwise.
bool same_indexed_entries(const store::IndexStore& store, const yacpdb::ProblemFile& file, uint32_t indexed,
                          std::string* error);

// --append: adds the entries of `file` from `first` on, with `added` = analyse_problems(file, _, first), to the
// yacpdb family of `store`, which holds the entries before `first`: every instance they share gets the new
// entries appended to its postings, so the family ends as a fresh build of the whole file would write it.
bool append_yacpdb_family(store::IndexStore& store, const yacpdb::ProblemFile& file, uint32_t first,
                          const yacpdb::InstanceIndex& added, std::string* error);

// Reads back the instances of the predicates `wanted` (and which entries were not analysed for them) for an index
// of `entries` entries; nullopt (with `error`) on a damaged value.
std::optional<yacpdb::InstanceIndex> read_yacpdb_instances(const store::IndexStore& store,
                                                           const std::set<yacpdb::PredicateId>& wanted,
                                                           uint32_t entries, std::string* error);

// Reads back the metadata of the `entries` entries as problems without solution trees (enough for every metadata
// predicate; their texts, which only Text() reads, only `with_text`; their diagram pieces only `with_pieces`);
// nullopt (with `error`) when one is missing or damaged.
std::optional<std::vector<yacpdb::Problem>> read_yacpdb_entries(const store::IndexStore& store, uint32_t entries,
                                                                std::string* error, bool with_text = true,
                                                                bool with_pieces = true);

// Calls `visit(i, entry)` for the metadata of the `entries` entries in order, each decoded into the same
// reused buffer (without texts; pieces only `with_pieces`): a metadata query's pass over a large collection
// without holding it in memory. False (with `error`) when one is missing or damaged.
bool for_each_yacpdb_entry(const store::IndexStore& store, uint32_t entries, bool with_pieces,
                           const std::function<void(uint32_t, const yacpdb::Entry&)>& visit, std::string* error);

// The build_options marker of an index that holds the yacpdb family (v2: entry texts apart from the metadata).
constexpr std::string_view kYacpdbBuildMarker = "yacpdb=v2";
// What every version of that marker starts with (an index of another version must be rebuilt).
constexpr std::string_view kYacpdbBuildMarkerPrefix = "yacpdb=";

}  // namespace cqlindex::indexer
