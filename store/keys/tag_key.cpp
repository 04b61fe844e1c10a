// The tags family's key layout.
#include "store/keys/tag_key.h"

namespace cqlindex::store::keys {

std::string tag_key(std::string_view name, TagKeyKind kind, std::string_view text) {
  std::string key(name);
  key += static_cast<char>(kind);
  key += text;
  return key;
}

std::string tag_key(std::string_view name, std::string_view value) {
  if (value.size() <= kMaxTagValueBytes) return tag_key(name, TagKeyKind::Whole, value);
  return tag_key(name, TagKeyKind::Truncated, value.substr(0, kMaxTagValueBytes));
}

std::optional<TagKeyParts> read_tag_key(std::string_view name, std::string_view key) {
  if (key.size() <= name.size() || !key.starts_with(name)) return std::nullopt;
  const auto kind = static_cast<unsigned char>(key[name.size()]);
  if (kind > static_cast<unsigned char>(TagKeyKind::Marker)) return std::nullopt;
  return TagKeyParts{static_cast<TagKeyKind>(kind), key.substr(name.size() + 1)};
}

}  // namespace cqlindex::store::keys
