// Byte layout of the games family.
#include "store/game_record.h"

#include "store/varint.h"

namespace cqlindex::store {

std::string encode_game_record(const GameRecord& r) {
  std::string out;
  put_varint(out, r.offset);
  put_varint(out, r.length);
  put_varint(out, r.plies);
  put_varint(out, static_cast<uint8_t>(r.result));
  put_varint(out, r.year);
  put_varint(out, r.white_elo);
  put_varint(out, r.black_elo);
  put_varint(out, r.flags);
  put_varint(out, r.first_line);
  put_varint(out, r.first_col);
  return out;
}

std::optional<GameRecord> decode_game_record(std::string_view bytes) {
  uint64_t f[10];
  for (uint64_t& v : f)
    if (!get_varint(bytes, v)) return std::nullopt;
  if (!bytes.empty() || f[1] > UINT32_MAX || f[2] > UINT32_MAX || f[3] > 3 || f[4] > UINT16_MAX ||
      f[5] > UINT16_MAX || f[6] > UINT16_MAX || f[7] > UINT32_MAX || f[8] > UINT32_MAX || f[9] > UINT32_MAX)
    return std::nullopt;
  GameRecord r;
  r.offset = f[0];
  r.length = static_cast<uint32_t>(f[1]);
  r.plies = static_cast<uint32_t>(f[2]);
  r.result = static_cast<GameResult>(f[3]);
  r.year = static_cast<uint16_t>(f[4]);
  r.white_elo = static_cast<uint16_t>(f[5]);
  r.black_elo = static_cast<uint16_t>(f[6]);
  r.flags = static_cast<uint32_t>(f[7]);
  r.first_line = static_cast<uint32_t>(f[8]);
  r.first_col = static_cast<uint32_t>(f[9]);
  return r;
}

std::string game_key(uint32_t id) {
  std::string key;
  put_be32(key, id);
  return key;
}

}  // namespace cqlindex::store
