// Row layout of the meta family: one readable key per field, numbers as decimal text.
#include "store/index_meta.h"

#include <charconv>

namespace cqlindex::store {
namespace {

template <typename T>
bool parse_number(const std::string& text, T& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::map<std::string, std::string> encode_index_meta(const IndexMeta& m) {
  return {
      {"schema_version", std::to_string(m.schema_version)},
      {"pgn_path", m.pgn_path},
      {"pgn_size", std::to_string(m.pgn_size)},
      {"pgn_mtime_ns", std::to_string(m.pgn_mtime_ns)},
      {"pgn_device", std::to_string(m.pgn_device)},
      {"pgn_inode", std::to_string(m.pgn_inode)},
      {"pgn_fingerprint", std::to_string(m.pgn_fingerprint)},
      {"pgn_sample_hash", std::to_string(m.pgn_sample_hash)},
      {"game_count", std::to_string(m.game_count)},
      {"position_count", std::to_string(m.position_count)},
      {"build_options", m.build_options},
      {"similar_bucket_bits", std::to_string(m.similar_bucket_bits)},
      {"distinct_sketch", m.distinct_sketch},
  };
}

std::optional<IndexMeta> decode_index_meta(const std::map<std::string, std::string>& rows, std::string* error) {
  IndexMeta m;
  auto text = [&](const char* key) -> const std::string* {
    auto it = rows.find(key);
    return it == rows.end() ? nullptr : &it->second;
  };
  auto number = [&](const char* key, auto& out) {
    const std::string* t = text(key);
    return t && parse_number(*t, out);
  };
  const char* bad = nullptr;
  if (!number("schema_version", m.schema_version)) bad = "schema_version";
  else if (m.schema_version != kSchemaVersion) {
    if (error) *error = "index schema version " + std::to_string(m.schema_version) + ", this cqlindex reads " +
                        std::to_string(kSchemaVersion);
    return std::nullopt;
  } else if (!text("pgn_path")) bad = "pgn_path";
  else if (!number("pgn_size", m.pgn_size)) bad = "pgn_size";
  else if (!number("pgn_mtime_ns", m.pgn_mtime_ns)) bad = "pgn_mtime_ns";
  else if (!number("pgn_device", m.pgn_device)) bad = "pgn_device";
  else if (!number("pgn_inode", m.pgn_inode)) bad = "pgn_inode";
  else if (!number("pgn_fingerprint", m.pgn_fingerprint)) bad = "pgn_fingerprint";
  else if (!number("pgn_sample_hash", m.pgn_sample_hash)) bad = "pgn_sample_hash";
  else if (!number("game_count", m.game_count)) bad = "game_count";
  else if (!number("position_count", m.position_count)) bad = "position_count";
  else if (!text("build_options")) bad = "build_options";
  else if (!number("similar_bucket_bits", m.similar_bucket_bits) || m.similar_bucket_bits < 16 ||
           m.similar_bucket_bits > 32)
    bad = "similar_bucket_bits";
  else if (!text("distinct_sketch")) bad = "distinct_sketch";
  if (bad) {
    if (error) *error = std::string("index meta field '") + bad + "' is missing or malformed";
    return std::nullopt;
  }
  m.pgn_path = *text("pgn_path");
  m.build_options = *text("build_options");
  m.distinct_sketch = *text("distinct_sketch");
  return m;
}

}  // namespace cqlindex::store
