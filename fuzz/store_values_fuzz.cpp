// libFuzzer target: the value layouts of an index, read from arbitrary (damaged) bytes. A posting list, a
// position bucket and a game record either decode or are refused, never crash; what decodes re-encodes to a
// value that decodes to the same thing.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include "store/game_record.h"
#include "store/position_buckets.h"
#include "store/posting_list.h"
using namespace cqlindex::store;
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string error;
  if (auto list = PostingList::decode(in, &error)) {
    auto again = PostingList::decode(list->encode(), &error);
    if (!again || !(*again == *list)) __builtin_trap();
  }
  std::vector<std::pair<uint32_t, PostingList>> entries;
  if (for_each_in_bucket(in, [&](uint32_t tag, PostingList&& games) { entries.emplace_back(tag, std::move(games)); },
                         &error)) {
    if (bucket_entry_count(in, &error) != entries.size()) __builtin_trap();
    PositionBucketWriter writer;
    for (const auto& [tag, games] : entries) {
      if (games.empty()) __builtin_trap();
      writer.add(tag, games);
      auto found = find_in_bucket(in, tag, &error);
      if (!found || !(*found == games)) __builtin_trap();
    }
    size_t i = 0;
    const std::string rebuilt = writer.take();
    if (!for_each_in_bucket(rebuilt, [&](uint32_t tag, PostingList&& games) {
          if (i >= entries.size() || tag != entries[i].first || !(games == entries[i].second)) __builtin_trap();
          ++i;
        }, &error) || i != entries.size())
      __builtin_trap();
  }
  if (auto record = decode_game_record(in))
    if (decode_game_record(encode_game_record(*record)) != record) __builtin_trap();
  return 0;
}
