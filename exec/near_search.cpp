#include "exec/near_search.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <sstream>

#include "engine/cql/similar/near_neighbourhood.h"
#include "exec/worker_pool.h"
#include "store/keys/canonical_key.h"
#include "store/position_buckets.h"

namespace cqlindex::exec {

using cql::similar::NearFit;
using cql::similar::NearImages;
using cql::similar::RepositoryBoard;
using cql::similar::SubmissionDb;

namespace {

// Submission positions keyed at a time by the index search: about 650 keys of 16 bytes each, 10 MB a thousand, so
// about 170 MB at most; the 9,839 positions of the 252 studies go in one batch (each batch reads the family once).
constexpr size_t kNearBatchPositions = 16384;

// Keeps in `hits` (by position id) the closest hit of each position, the earliest among equals.
void keep_closest(std::map<uint32_t, NearHit>& hits, uint32_t id, uint32_t ply, const NearFit& fit) {
  auto [it, added] = hits.try_emplace(id, NearHit{id, ply, fit.distance, fit.transform});
  if (!added && fit.distance < it->second.distance) it->second = NearHit{id, ply, fit.distance, fit.transform};
}

// Walks the mainline of `g`, calling at(ply, board) at each position; false when the game has no usable start.
bool for_each_mainline_board(const pgn::Game& g, const std::function<void(uint32_t, const RepositoryBoard&)>& at) {
  if (!g.start_known || g.status == pgn::GameStatus::SkippedVariant || g.nodes.empty()) return false;
  chess::Position pos = g.start;
  pgn::NodeIndex node = 0;
  for (uint32_t ply = 0;; ++ply) {
    at(ply, cql::similar::repository_board(pos));
    node = g.nodes[node].first_child;
    if (node == pgn::kNoNode) break;
    pos.do_move(g.nodes[node].move);
  }
  return true;
}

NearGame near_game_of(const pgn::Game& g, const std::map<uint32_t, NearHit>& hits) {
  NearGame m;
  m.number = g.number;
  for (const auto& [id, hit] : hits) m.hits.push_back(hit);
  if (!m.hits.empty()) m.date = std::string(g.tag("Date").value_or(""));
  return m;
}

// Returns where each run of items with the same key(item) starts in the sorted `items`, then items.size().
template <class T, class Key>
std::vector<size_t> run_starts(const std::vector<T>& items, Key key) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < items.size(); ++i)
    if (i == 0 || key(items[i]) != key(items[i - 1])) starts.push_back(i);
  starts.push_back(items.size());
  return starts;
}

// A neighbour's hash and the submission position it is near.
struct Wanted {
  uint64_t hash;
  uint32_t id;
  friend bool operator<(const Wanted& a, const Wanted& b) { return a.hash != b.hash ? a.hash < b.hash : a.id < b.id; }
  friend bool operator==(const Wanted& a, const Wanted& b) = default;
};

// True when `a` is dated before `b`, by year first (undated last).
bool dated_before(const std::string& a, const std::string& b) {
  auto year = [](const std::string& d) {
    return d.size() >= 4 && std::all_of(d.begin(), d.begin() + 4, [](char c) { return c >= '0' && c <= '9'; });
  };
  const bool ya = year(a), yb = year(b);
  if (ya != yb) return ya;
  return ya && a < b;
}

// The wanted keys' hashes by worker, then by partition (256, by their first byte).
using WantedParts = std::vector<std::vector<std::vector<Wanted>>>;

// Returns the hashes of the canonical keys of the neighbourhoods of positions [begin, end) (within distance
// `limit`), in 256 partitions by their first byte (which is the first byte of the bucket key: a partition is one
// key range of the similar family), gathered on `threads` workers.
WantedParts wanted_keys(const SubmissionDb& db, unsigned limit, size_t begin, size_t end, unsigned threads,
                        size_t partitions) {
  WantedParts parts(threads, std::vector<std::vector<Wanted>>(partitions));
  parallel_for((end - begin + 63) / 64, threads, [&](size_t chunk, unsigned t) {
    char key[store::keys::kMaxKeyBytes];
    for (size_t id = begin + chunk * 64; id < std::min(end, begin + chunk * 64 + 64); ++id) {
      if (db.excluded(uint32_t(id))) continue;
      const chess::Position& pos = db.board(uint32_t(id));
      const chess::Color side = pos.side_to_move();
      auto visit = [&](const cql::similar::Neighbour& n) {
        const size_t length = store::keys::canonical_key(n.board, n.occupied, n.pawns, side, key);
        const uint64_t h = store::position_hash(std::string_view(key, length));
        parts[t][h >> 56].push_back(Wanted{h, uint32_t(id)});
      };
      if (limit == 0) {
        const cql::similar::Board board = cql::similar::board_of(pos);
        visit(cql::similar::Neighbour{board, pos.pieces(), pos.pieces(chess::PAWN)});
      } else {
        cql::similar::for_each_neighbour(pos, db.notransform(), visit);
      }
    }
  });
  return parts;
}

// Returns partition p's wanted keys of every worker, sorted and distinct (taken out of `parts`).
std::vector<Wanted> partition_wanted(WantedParts& parts, size_t p) {
  std::vector<Wanted> wanted;
  for (std::vector<std::vector<Wanted>>& worker : parts) {
    wanted.insert(wanted.end(), worker[p].begin(), worker[p].end());
    std::vector<Wanted>().swap(worker[p]);
  }
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  return wanted;
}

// Adds to `pairs` the (game, position) candidates of partition p's `wanted` keys (sorted, distinct): its wanted
// buckets read in key order (all of its range at once when they are many), the wanted tags found in each;
// counts the distinct keys in `looked_up`. Says in `error` why the index cannot be read.
void read_partition(const store::IndexStore& index, size_t p, const std::vector<Wanted>& wanted,
                    std::vector<std::pair<uint32_t, uint32_t>>& pairs, std::atomic<uint64_t>& looked_up,
                    std::string& error) {
  const unsigned bits = index.meta().similar_bucket_bits;
  const uint64_t buckets_per_partition = uint64_t(1) << (bits - 8);
  // Distinct hashes, each with its range of `wanted`, grouped by bucket.
  const std::vector<size_t> hash_begin = run_starts(wanted, [](const Wanted& w) { return w.hash; });
  looked_up += hash_begin.size() - 1;
  size_t next_hash = 0;  // the first hash not yet past
  std::vector<uint32_t> tags;
  auto bucket_of_hash = [&](size_t k) { return store::position_bucket(wanted[hash_begin[k]].hash, bits); };
  auto visit_bucket = [&](std::string_view key, std::string_view value) {
    if (key.size() != 4) {
      error = "damaged similar family: a key of " + std::to_string(key.size()) + " bytes";
      return false;
    }
    const uint32_t bucket = uint32_t(uint8_t(key[0])) << 24 | uint32_t(uint8_t(key[1])) << 16 |
                            uint32_t(uint8_t(key[2])) << 8 | uint32_t(uint8_t(key[3]));
    while (next_hash + 1 < hash_begin.size() && bucket_of_hash(next_hash) < bucket) ++next_hash;
    size_t end = next_hash;
    tags.clear();
    while (end + 1 < hash_begin.size() && bucket_of_hash(end) == bucket)
      tags.push_back(store::position_tag(wanted[hash_begin[end++]].hash));
    if (tags.empty()) return true;
    const size_t first = next_hash;
    const bool ok = store::find_tags_in_bucket(
        value, tags,
        [&](size_t i, store::PostingList&& games) {
          for (size_t w = hash_begin[first + i]; w < hash_begin[first + i + 1]; ++w)
            for (uint32_t g : games.bits()) pairs.emplace_back(g, wanted[w].id);
        },
        &error);
    next_hash = end;
    return ok;
  };
  size_t distinct_buckets = 0;
  for (size_t k = 0; k + 1 < hash_begin.size(); ++k)
    distinct_buckets += k == 0 || bucket_of_hash(k) != bucket_of_hash(k - 1);
  if (distinct_buckets * 8 > buckets_per_partition) {
    // Most of the range is wanted: one pass over it reads each block once.
    const std::string prefix(1, char(p));
    index.for_each(store::Family::Similar, prefix, visit_bucket, &error);
  } else {
    for (size_t k = 0; k + 1 < hash_begin.size() && error.empty(); ++k) {
      if (k > 0 && bucket_of_hash(k) == bucket_of_hash(k - 1)) continue;
      index.for_each(store::Family::Similar, store::bucket_key(bucket_of_hash(k)), visit_bucket, &error);
    }
  }
}

// Adds to `pairs` (by partition) the (game, position) candidates of positions [begin, end): their neighbourhoods'
// canonical keys looked up in the similar family; counts the distinct keys in `looked_up`. False (with `error`)
// when the index cannot be read.
bool gather_candidates(const store::IndexStore& index, const SubmissionDb& db, unsigned limit, size_t begin, size_t end,
                       unsigned threads, std::vector<std::vector<std::pair<uint32_t, uint32_t>>>& pairs,
                       std::atomic<uint64_t>& looked_up, std::string* error) {
  const size_t partitions = pairs.size();
  // 1. The hashes of the neighbourhoods' canonical keys, by partition.
  WantedParts parts = wanted_keys(db, limit, begin, end, threads, partitions);
  // 2. Each partition's (game, position) candidate pairs from the games of its wanted keys.
  std::vector<std::string> errors(partitions);
  parallel_for(partitions, threads, [&](size_t p, unsigned) {
    const std::vector<Wanted> wanted = partition_wanted(parts, p);
    if (!wanted.empty()) read_partition(index, p, wanted, pairs[p], looked_up, errors[p]);
  });
  for (const std::string& e : errors)
    if (!e.empty()) {
      if (error) *error = e;
      return false;
    }
  return true;
}

}  // namespace

NearImages near_images(const SubmissionDb& db) {
  NearImages images(db.notransform());
  for (uint32_t id = 0; id < db.positions(); ++id)
    if (!db.excluded(id)) images.add(id, db.board(id));
  return images;
}

bool search_near_with_index(const store::IndexStore& index, const SubmissionDb& db, unsigned limit,
                            const pgn::RangeReader& repo, unsigned threads, NearSearch& out, std::string* error,
                            const MemoryRun* served) {
  auto cancelled = [&] {
    if (!served || !served->cancelled()) return false;
    if (error) *error = kCancelled;
    return true;
  };
  limit = std::min(limit, kIndexedNearLimit);
  out.limit = limit;
  out.repository_games = index.meta().game_count;
  out.hits.assign(db.positions(), 0);
  threads = std::max(1u, threads);

  // The positions go by batches, so that the keys held at once stay bounded (at most about 1,400 a position)
  // whatever the number of submissions; each batch reads the similar family at most once.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> pairs(256);  // (game, position) candidates by partition
  std::atomic<uint64_t> looked_up{0};
  // CQLINDEX_NEAR_BATCH_POSITIONS=N: smaller batches (the tests check that batches change nothing).
  size_t batch_positions = kNearBatchPositions;
  if (const char* env = std::getenv("CQLINDEX_NEAR_BATCH_POSITIONS"); env && std::atol(env) > 0)
    batch_positions = size_t(std::atol(env));
  for (size_t batch = 0; batch < db.positions(); batch += batch_positions)
    if (cancelled() || !gather_candidates(index, db, limit, batch, std::min<size_t>(db.positions(), batch + batch_positions),
                           threads, pairs, looked_up, error))
      return false;
  out.looked_up = looked_up;

  // 3. Every candidate game replayed against the positions that brought it in.
  std::vector<std::pair<uint32_t, uint32_t>> all;
  for (auto& p : pairs) {
    all.insert(all.end(), p.begin(), p.end());
    std::vector<std::pair<uint32_t, uint32_t>>().swap(p);
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  const std::vector<size_t> game_begin = run_starts(all, [](const auto& pair) { return pair.first; });
  const size_t candidates = game_begin.size() - 1;
  out.candidates = candidates;
  const NearImages images = near_images(db);
  std::vector<NearGame> found(candidates);
  std::atomic<bool> failed{false};
  std::string read_error;
  pgn::ParseOptions parse;
  parse.mainline_only = true;
  std::atomic<bool> stopped{false};
  parallel_for(candidates, threads, [&](size_t c, unsigned) {
    if (served && (stopped || served->cancelled())) {  // the workers are freed at once
      stopped = true;
      return;
    }
    const uint32_t id = all[game_begin[c]].first;
    std::string err, bytes;
    auto record = index.game(id, &err);
    if (!record || !repo.read(record->offset, record->length, bytes, &err)) {
      if (!failed.exchange(true)) read_error = err;
      return;
    }
    pgn::Game g;
    pgn::parse_game(bytes, pgn::GameLocation{uint64_t(id) + 1, record->offset, 1, 1}, g, parse);
    std::map<uint32_t, NearHit> hits;
    for_each_mainline_board(g, [&](uint32_t ply, const RepositoryBoard& r) {
      for (size_t i = game_begin[c]; i < game_begin[c + 1]; ++i)
        if (auto fit = images.nearest(all[i].second, r, limit)) keep_closest(hits, all[i].second, ply, *fit);
    });
    found[c] = near_game_of(g, hits);
    found[c].offset = record->offset;
    found[c].length = record->length;
  });
  if (stopped) {
    if (error) *error = kCancelled;
    return false;
  }
  if (failed) {
    if (error) *error = read_error;
    return false;
  }
  for (NearGame& m : found)
    if (!m.hits.empty()) {
      for (const NearHit& h : m.hits) ++out.hits[h.position];
      out.games.push_back(std::move(m));
    }
  return true;
}

void search_near_by_scan(const SubmissionDb& db, unsigned limit, pgn::PgnFile& file,
                         unsigned threads, NearSearch& out) {
  out.limit = limit;
  out.hits.assign(db.positions(), 0);
  const NearImages images = near_images(db);
  pgn::ReadOptions read;
  read.threads = threads;
  read.parse.mainline_only = true;
  read.progress = [&](uint64_t done) { file.release_before(done); };
  pgn::for_each_game<NearGame>(
      file.text(), read,
      [&](const pgn::Game& g, unsigned) {
        std::map<uint32_t, NearHit> hits;
        for_each_mainline_board(g, [&](uint32_t ply, const RepositoryBoard& r) {
          images.for_each_near(r, limit, [&](uint32_t id, const NearFit& fit) { keep_closest(hits, id, ply, fit); });
        });
        return near_game_of(g, hits);
      },
      [&](const pgn::GameInfo& info, NearGame&& m) {
        ++out.repository_games;
        if (!m.hits.empty()) {
          m.offset = info.offset;
          m.length = info.length;
          for (const NearHit& h : m.hits) ++out.hits[h.position];
          out.games.push_back(std::move(m));
        }
        return true;
      });
}

void settle_near(const SubmissionDb& db, NearSearch& search) {
  std::vector<NearGame> kept;
  for (NearGame& m : search.games) {
    std::erase_if(m.hits, [&](const NearHit& h) { return db.excluded(h.position); });
    if (!m.hits.empty()) kept.push_back(std::move(m));
  }
  search.games = std::move(kept);
}

std::vector<NearPair> near_pairs(const SubmissionDb& db, const std::vector<NearGame>& games) {
  std::vector<NearPair> pairs;
  for (const NearGame& m : games) {
    std::map<uint32_t, NearHit> best;  // by submission game: the closest hit, then the earliest position
    for (const NearHit& h : m.hits) {
      const uint32_t s = db.position(h.position).game;
      auto [it, added] = best.try_emplace(s, h);
      if (!added && h.distance < it->second.distance) it->second = h;
    }
    for (const auto& [s, h] : best) pairs.push_back(NearPair{s, &m, h});
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const NearPair& a, const NearPair& b) {
    if (a.submission_game != b.submission_game) return a.submission_game < b.submission_game;
    if (a.hit.distance != b.hit.distance) return a.hit.distance < b.hit.distance;
    if (a.game->date != b.game->date) return dated_before(a.game->date, b.game->date);
    return a.game->number < b.game->number;
  });
  return pairs;
}

std::vector<uint32_t> report_common_near(std::ostream& err, const SubmissionDb& db, const NearSearch& search,
                                          double percent, bool skipped) {
  const double limit = percent / 100.0 * double(search.repository_games);
  std::vector<uint32_t> common;
  for (uint32_t id = 0; id < search.hits.size(); ++id) {
    if (search.hits[id] == 0 || double(search.hits[id]) <= limit) continue;
    common.push_back(id);
    const auto& p = db.position(id);
    std::ostringstream share;
    share.precision(1);
    share << std::fixed << 100.0 * double(search.hits[id]) / double(std::max<uint64_t>(1, search.repository_games));
    err << "cqlindex similar: " << (skipped ? "skipped: " : "warning: ") << "submission game " << p.game << " at move "
        << p.move << (p.side == chess::WHITE ? " wtm" : " btm") << " (" << db.board(id).fen()
        << ") is within distance " << search.limit << " of positions of " << search.hits[id] << " of the "
        << search.repository_games << " repository games (" << share.str() << "%)"
        << (skipped ? "" : "; --ignore-common PERCENT skips such positions") << "\n";
  }
  return common;
}

std::vector<uint64_t> pairs_by_distance(const std::vector<NearPair>& pairs, unsigned limit) {
  std::vector<uint64_t> by_distance(limit + 1, 0);
  for (const NearPair& p : pairs) ++by_distance[p.hit.distance];
  return by_distance;
}

void report_near(std::ostream& err, const SubmissionDb& db, const NearSearch& search,
                 const std::vector<NearPair>& pairs) {
  const std::vector<uint64_t> by_distance = pairs_by_distance(pairs, search.limit);
  for (const NearPair& p : pairs) {
    const auto& s = db.position(p.hit.position);
    err << "near: submission game " << p.submission_game << " move " << s.move
        << (s.side == chess::WHITE ? " wtm" : " btm") << ": repository game " << p.game->number << " ply " << p.hit.ply
        << ", distance " << p.hit.distance << ", " << cql::similar::transform_in_words(*p.hit.transform)
        << (p.game->date.empty() ? "" : ", " + p.game->date) << "\n";
  }
  err << "near: " << pairs.size() << " pairs of a submission game and a repository game within distance "
      << search.limit << " (";
  for (unsigned d = 0; d <= search.limit; ++d) err << (d ? ", " : "") << by_distance[d] << " at distance " << d;
  err << ")\n";
}

}  // namespace cqlindex::exec
