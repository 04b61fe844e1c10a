// The yacpdb family: writing the instances of an analysed problem file, reading back those a query needs.
#include "indexer/yacpdb_index.h"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>

#include "engine/pgn/reader.h"
#include "engine/yacpdb/entry_codec.h"
#include "store/keys/yacpdb_key.h"
#include "store/varint.h"

namespace cqlindex::indexer {
namespace {

using store::keys::kYacpdbEntryPrefix;
using store::keys::kYacpdbTextPrefix;

// Returns the key of instance `args` of predicate `id`.
std::string instance_key(yacpdb::PredicateId id, const std::vector<std::string>& args) {
  return store::keys::yacpdb_instance_key(yacpdb::predicate_info(id).name, args);
}

// Returns the key of the entries not analysed for predicate `id`.
std::string not_analysed_key(yacpdb::PredicateId id) {
  return store::keys::yacpdb_not_analysed_key(yacpdb::predicate_info(id).name);
}

uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

// Returns the value of one instance: its entries and their counts.
std::string encode_instance(const std::vector<yacpdb::Posting>& postings) {
  std::vector<uint32_t> entries;
  for (const auto& p : postings) entries.push_back(p.entry);
  std::string posting = store::PostingList::encode_sorted(entries);
  std::string out;
  store::put_varint(out, posting.size());
  out += posting;
  for (const auto& p : postings) store::put_varint(out, zigzag(p.count));
  return out;
}

// Decodes encode_instance's bytes; false when they are not such a value.
bool decode_instance(std::string_view bytes, std::vector<yacpdb::Posting>& out) {
  uint64_t length;
  if (!store::get_varint(bytes, length) || length > bytes.size()) return false;
  auto list = store::PostingList::decode(bytes.substr(0, length));
  if (!list) return false;
  bytes.remove_prefix(length);
  out.clear();
  for (uint32_t entry : list->bits()) {
    uint64_t count;
    if (!store::get_varint(bytes, count)) return false;
    out.push_back({entry, unzigzag(count)});
  }
  return bytes.empty();
}

}  // namespace

yacpdb::InstanceIndex analyse_problems(const yacpdb::ProblemFile& file, unsigned threads, uint32_t first) {
  std::vector<yacpdb::Analysis> analyses(file.problems.size());
  std::atomic<size_t> next{first};
  auto work = [&] {
    for (size_t i = next++; i < analyses.size(); i = next++) analyses[i] = yacpdb::analyse(file.problems[i]);
  };
  {
    std::vector<std::jthread> helpers;
    const size_t todo = analyses.size() - std::min<size_t>(first, analyses.size());
    const unsigned n = std::min<size_t>(pgn::resolve_threads(threads), std::max<size_t>(todo / 16, 1));
    for (unsigned t = 1; t < n; ++t) {
      try {
        helpers.emplace_back(work);
      } catch (const std::system_error&) {  // no more threads from the system: fewer do it all
        break;
      }
    }
    work();
  }
  yacpdb::InstanceIndex index;
  for (uint32_t i = first; i < analyses.size(); ++i) index.add(i, analyses[i]);
  index.set_entries(static_cast<uint32_t>(file.problems.size()));
  return index;
}

bool write_yacpdb_family(store::IndexStore& store, const yacpdb::ProblemFile& file, const yacpdb::InstanceIndex& index,
                         std::string* error) {
  std::vector<std::pair<std::string, std::string>> rows;
  for (uint32_t i = 0; i < file.problems.size(); ++i) {
    rows.emplace_back(store::keys::yacpdb_entry_key(i), yacpdb::encode_entry_metadata(file.problems[i].entry, false));
    rows.emplace_back(store::keys::yacpdb_text_key(i), file.problems[i].entry.text);
  }
  for (const auto& [id, instances] : index.all())
    for (const yacpdb::InstancePostings& instance : instances)
      rows.emplace_back(instance_key(id, instance.args), encode_instance(instance.postings));
  for (const auto& [id, entries] : index.all_not_analysed()) {
    std::vector<uint32_t> ids(entries.begin(), entries.end());
    rows.emplace_back(not_analysed_key(id), store::PostingList::encode_sorted(ids));
  }
  std::sort(rows.begin(), rows.end());
  return store.ingest_sorted(store::Family::Yacpdb, store::IndexStore::Ingest::Put, rows, error);
}

bool same_indexed_entries(const store::IndexStore& store, const yacpdb::ProblemFile& file, uint32_t indexed,
                          std::string* error) {
  auto differ = [&](uint32_t entry, const char* what) {
    if (error)
      *error = "entry " + std::to_string(entry + 1) + " no longer reads as it did when indexed (its " + what +
               " changed: the appended bytes continue it?)";
    return false;
  };
  if (file.problems.size() < indexed) {
    if (error)
      *error = std::to_string(file.problems.size()) + " entries read, fewer than the " + std::to_string(indexed) +
               " indexed";
    return false;
  }
  for (char prefix : {kYacpdbEntryPrefix, kYacpdbTextPrefix}) {
    uint32_t seen = 0;
    bool same = true;
    bool ok = store.for_each(store::Family::Yacpdb, std::string(1, prefix), [&](std::string_view key,
                                                                               std::string_view value) {
      if (store::keys::yacpdb_entry_of(key) != seen || seen >= indexed) return same = false;
      const yacpdb::Entry& e = file.problems[seen].entry;
      same = prefix == kYacpdbEntryPrefix ? value == yacpdb::encode_entry_metadata(e, false) : value == e.text;
      ++seen;
      return same;
    }, error);
    if (!ok) return false;
    if (!same || seen != indexed)
      return differ(seen == 0 ? 0 : seen - 1, prefix == kYacpdbEntryPrefix ? "metadata" : "text");
  }
  return true;
}

bool append_yacpdb_family(store::IndexStore& store, const yacpdb::ProblemFile& file, uint32_t first,
                          const yacpdb::InstanceIndex& added, std::string* error) {
  std::vector<std::pair<std::string, std::string>> rows;
  for (uint32_t i = first; i < file.problems.size(); ++i) {
    rows.emplace_back(store::keys::yacpdb_entry_key(i), yacpdb::encode_entry_metadata(file.problems[i].entry, false));
    rows.emplace_back(store::keys::yacpdb_text_key(i), file.problems[i].entry.text);
  }
  // The stored value of `key`, empty when there is none.
  auto stored = [&](const std::string& key, std::string& value) {
    value.clear();
    return store.for_each(store::Family::Yacpdb, key, [&](std::string_view k, std::string_view v) {
      if (k == key) value.assign(v);
      return false;  // the first key at or after `key` is the only candidate
    }, error);
  };
  std::string value;
  for (const auto& [id, instances] : added.all()) {
    for (const yacpdb::InstancePostings& instance : instances) {
      const std::string key = instance_key(id, instance.args);
      if (!stored(key, value)) return false;
      std::vector<yacpdb::Posting> all;
      if (!value.empty() && !decode_instance(value, all)) {
        if (error) *error = "damaged yacpdb instance " + key;
        return false;
      }
      all.insert(all.end(), instance.postings.begin(), instance.postings.end());  // new entries after every old one
      rows.emplace_back(key, encode_instance(all));
    }
  }
  for (const auto& [id, entries] : added.all_not_analysed()) {
    const std::string key = not_analysed_key(id);
    auto old = store.postings(store::Family::Yacpdb, key, error);
    if (!old) return false;
    std::vector<uint32_t> ids;
    for (uint32_t entry : old->bits()) ids.push_back(entry);
    ids.insert(ids.end(), entries.begin(), entries.end());
    rows.emplace_back(key, store::PostingList::encode_sorted(ids));
  }
  std::sort(rows.begin(), rows.end());
  // The rows replace the values of the keys they share with the family (finish() compacts the old ones away).
  return store.ingest_sorted(store::Family::Yacpdb, store::IndexStore::Ingest::Put, rows, error);
}

std::optional<yacpdb::InstanceIndex> read_yacpdb_instances(const store::IndexStore& store,
                                                           const std::set<yacpdb::PredicateId>& wanted,
                                                           uint32_t entries, std::string* error) {
  yacpdb::InstanceIndex index;
  index.set_entries(entries);
  bool damaged = false;
  for (yacpdb::PredicateId id : wanted) {
    const std::string name(yacpdb::predicate_info(id).name);
    std::vector<yacpdb::Posting> postings;
    bool ok = store.for_each(store::Family::Yacpdb, name, [&](std::string_view key, std::string_view value) {
      if (!store::keys::is_yacpdb_instance_of(name, key)) return true;  // "PW" is a prefix of "PWPiece"
      if (!decode_instance(value, postings)) return !(damaged = true);
      index.add_instance(id, store::keys::yacpdb_instance_args(key), std::move(postings));
      return true;
    }, error);
    if (!ok) return std::nullopt;
    auto not_analysed = store.postings(store::Family::Yacpdb, not_analysed_key(id), error);
    if (!not_analysed) return std::nullopt;
    for (uint32_t entry : not_analysed->bits()) index.add_not_analysed(id, entry);
    if (damaged) {
      if (error) *error = "damaged yacpdb instance of " + name;
      return std::nullopt;
    }
  }
  return index;
}

bool for_each_yacpdb_entry(const store::IndexStore& store, uint32_t entries, bool with_pieces,
                           const std::function<void(uint32_t, const yacpdb::Entry&)>& visit, std::string* error) {
  uint32_t seen = 0;
  bool damaged = false;
  bool ok = store.for_each(store::Family::Yacpdb, std::string(1, kYacpdbEntryPrefix), [&](std::string_view key,
                                                                                     std::string_view value) {
    auto entry = yacpdb::decode_entry_metadata(value, false, with_pieces);
    if (!entry || store::keys::yacpdb_entry_of(key) != seen) return !(damaged = true);
    visit(seen++, *entry);
    return true;
  }, error);
  if (!ok) return false;
  if (damaged || seen != entries) {
    if (error) *error = "damaged or missing entry metadata in the yacpdb family";
    return false;
  }
  return true;
}

std::optional<std::vector<yacpdb::Problem>> read_yacpdb_entries(const store::IndexStore& store, uint32_t entries,
                                                                std::string* error, bool with_text,
                                                                bool with_pieces) {
  std::vector<yacpdb::Problem> out;
  out.reserve(entries);
  bool damaged = false;
  bool ok = store.for_each(store::Family::Yacpdb, std::string(1, kYacpdbEntryPrefix), [&](std::string_view key,
                                                                                     std::string_view value) {
    auto entry = yacpdb::decode_entry_metadata(value, false, with_pieces);
    if (!entry || store::keys::yacpdb_entry_of(key) != out.size()) return !(damaged = true);
    out.push_back(yacpdb::Problem{std::move(*entry), {}});
    return true;
  }, error);
  if (!ok) return std::nullopt;
  if (damaged || out.size() != entries) {
    if (error) *error = "damaged or missing entry metadata in the yacpdb family";
    return std::nullopt;
  }
  if (!with_text) return out;
  uint32_t texts = 0;
  ok = store.for_each(store::Family::Yacpdb, std::string(1, kYacpdbTextPrefix), [&](std::string_view key,
                                                                             std::string_view value) {
    if (store::keys::yacpdb_entry_of(key) != texts || texts >= out.size()) return !(damaged = true);
    out[texts++].entry.text.assign(value);
    return true;
  }, error);
  if (!ok) return std::nullopt;
  if (damaged || texts != entries) {
    if (error) *error = "damaged or missing entry texts in the yacpdb family";
    return std::nullopt;
  }
  return out;
}

}  // namespace cqlindex::indexer
