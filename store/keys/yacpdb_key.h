#pragma once
// The yacpdb family's keys (a problem file's index: indexer/yacpdb_index.h holds their values):
//   "ArealCycle|wR|4|true"            a predicate instance: the predicate's name, then each argument after a '|'
//   "\x01" + predicate name           the entries not analysed for that predicate
//   "\x02" + entry (4 bytes, big-endian)  an entry's metadata without its text
//   "\x03" + entry (4 bytes, big-endian)  an entry's text (apart: only Text() reads it)
// Predicate names start with a letter, so the three prefixed kinds sort before every instance.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cqlindex::store::keys {

constexpr char kYacpdbNotAnalysedPrefix = '\x01';
constexpr char kYacpdbEntryPrefix = '\x02';
constexpr char kYacpdbTextPrefix = '\x03';

// Returns the key of the instance of predicate `predicate` with arguments `args` ("ArealCycle|wR|4|true").
std::string yacpdb_instance_key(std::string_view predicate, const std::vector<std::string>& args);
// Returns the arguments of an instance key, the texts after its predicate's name.
std::vector<std::string> yacpdb_instance_args(std::string_view key);
// Returns true when `key`, met under the prefix `predicate`, is an instance of that predicate and not of one whose
// name starts with it ("PWPiece|wK" under "PW").
bool is_yacpdb_instance_of(std::string_view predicate, std::string_view key);

// Returns the key of the entries not analysed for predicate `predicate`.
std::string yacpdb_not_analysed_key(std::string_view predicate);
// Returns the key of entry `entry`'s metadata.
std::string yacpdb_entry_key(uint32_t entry);
// Returns the key of entry `entry`'s text.
std::string yacpdb_text_key(uint32_t entry);
// Returns the entry number of a metadata or text key; nullopt when `key` is not one.
std::optional<uint32_t> yacpdb_entry_of(std::string_view key);

}  // namespace cqlindex::store::keys
