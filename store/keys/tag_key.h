#pragma once
// The tags family's keys: one key per (tag name, raw value) that occurs in a game, every occurrence of a
// repeated tag, the value exactly as read (unescaped, not normalised: the planner's tests are written to be
// conservative over CQL's normalisation). A key is the name, a kind byte, then the value:
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cqlindex::store::keys {

enum class TagKeyKind : char {
  Whole = '\0',      // name \0 value: the whole value (at most kMaxTagValueBytes)
  Truncated = '\1',  // name \1 first kMaxTagValueBytes of a longer value: a test on it can only say "maybe"
  Missing = '\2',    // name \2: the game has no such tag (CQL may read it as "?", "????.??.??", ...)
  Marker = '\3',     // "Result" \3 token: the movetext's termination marker ("1-0", "0-1", "1/2-1/2", "*")
};
constexpr size_t kMaxTagValueBytes = 200;
// The tag names the build records (and for which Missing keys exist).
constexpr std::string_view kIndexedTags[] = {"White", "Black", "Event", "Site", "Date", "EventDate",
                                             "Round", "ECO", "Result", "WhiteElo", "BlackElo"};

// Returns the tags family key of `value` of tag `name` (Whole, or Truncated when the value is too long).
std::string tag_key(std::string_view name, std::string_view value);
// Returns the key of kind `kind` for tag `name` with `text` after the separator.
std::string tag_key(std::string_view name, TagKeyKind kind, std::string_view text = {});

// A tags family key read back: its kind and the text after the kind byte.
struct TagKeyParts {
  TagKeyKind kind;
  std::string_view text;
};
// Returns the parts of `key` when it is a key of tag `name`; nullopt for any other key, such as one of a tag
// whose name starts with `name` ("WhiteElo" met while reading the keys under "White").
std::optional<TagKeyParts> read_tag_key(std::string_view name, std::string_view key);

}  // namespace cqlindex::store::keys
