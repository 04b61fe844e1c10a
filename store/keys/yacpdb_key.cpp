// The yacpdb family's key layout.
#include "store/keys/yacpdb_key.h"

#include "store/varint.h"

namespace cqlindex::store::keys {
namespace {

constexpr char kArgumentSeparator = '|';

// Returns `prefix` followed by `entry` in 4 bytes, big-endian (keys sort by entry).
std::string prefixed_entry_key(char prefix, uint32_t entry) {
  std::string key(1, prefix);
  put_be32(key, entry);
  return key;
}

}  // namespace

std::string yacpdb_instance_key(std::string_view predicate, const std::vector<std::string>& args) {
  std::string key(predicate);
  for (const std::string& a : args) {
    key += kArgumentSeparator;
    key += a;
  }
  return key;
}

std::vector<std::string> yacpdb_instance_args(std::string_view key) {
  std::vector<std::string> args;
  size_t bar = key.find(kArgumentSeparator);
  while (bar != std::string_view::npos) {
    size_t next = key.find(kArgumentSeparator, bar + 1);
    args.emplace_back(key.substr(bar + 1, next == std::string_view::npos ? next : next - bar - 1));
    bar = next;
  }
  return args;
}

bool is_yacpdb_instance_of(std::string_view predicate, std::string_view key) {
  return key.starts_with(predicate) && (key.size() == predicate.size() || key[predicate.size()] == kArgumentSeparator);
}

std::string yacpdb_not_analysed_key(std::string_view predicate) {
  return kYacpdbNotAnalysedPrefix + std::string(predicate);
}

std::string yacpdb_entry_key(uint32_t entry) { return prefixed_entry_key(kYacpdbEntryPrefix, entry); }

std::string yacpdb_text_key(uint32_t entry) { return prefixed_entry_key(kYacpdbTextPrefix, entry); }

std::optional<uint32_t> yacpdb_entry_of(std::string_view key) {
  if (key.size() != 5 || (key[0] != kYacpdbEntryPrefix && key[0] != kYacpdbTextPrefix)) return std::nullopt;
  return get_be32(key.substr(1));
}

}  // namespace cqlindex::store::keys
