#include "exec/similar_search.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <utility>

#include "exec/progress_bar.h"
#include "exec/worker_pool.h"
#include "engine/cql/similar/similar_match.h"
#include "engine/pgn/range_reader.h"
#include "engine/pgn/reader.h"
#include "engine/pgn/writer.h"
#include "store/keys/canonical_key.h"

namespace cqlindex::exec {

using cql::similar::SubmissionDb;

namespace {

// Candidate games a worker takes at a time: each is one read and one replay, so a batch is small and balanced.
constexpr size_t kCandidatesPerWorker = 16;

// The submission position ids listed anywhere in `m`, ascending and unique.
std::vector<uint32_t> listed_positions(const cql::similar::GameMatch& m) {
  std::vector<uint32_t> ids;
  for (const auto& p : m.positions)
    for (const auto& e : p.entries) ids.push_back(e.position);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

// What matching one game found: the submission positions it lists (none: no match) and its Date tag.
MatchedGame matched_game(const SubmissionDb& db, const pgn::Game& g) {
  MatchedGame m;
  m.number = g.number;
  m.positions = listed_positions(cql::similar::match_game(db, g));
  if (!m.positions.empty()) {
    m.date = std::string(g.tag("Date").value_or(""));
    m.white = std::string(g.tag("White").value_or(""));
    m.event = std::string(g.tag("Event").value_or(""));
  }
  return m;
}

}  // namespace

SubmissionDb::PositionVisitor SubmissionKeys::visitor() {
  return [this](uint32_t, const chess::Position& pos, const cql::similar::SubmissionPosition&) {
    auto [it, added] = ids.try_emplace(store::keys::canonical_key(pos), uint32_t(keys.size()));
    if (added) keys.push_back(it->first);
    key_of_position.push_back(it->second);
  };
}

bool search_with_index(const store::IndexStore& index, SubmissionDb& db, const SubmissionKeys& keys,
                       const pgn::RangeReader& repo, const std::string& repo_name, double skip_above, unsigned threads,
                       SimilarSearch& out, std::string* error, RepositoryFile where, const MemoryRun* served,
                       std::ostream* held) {
  // A served search's lines go to its answer (exec/memory_run.h), the command line's to stderr.
  std::ostream& diag = held ? *held : served && served->diagnostics ? *served->diagnostics : std::cerr;
  const uint64_t offset = out.repository_games;  // the games of the files before
  const size_t matched_before = out.matched.size();
  const uint64_t file_games = index.meta().game_count;
  const uint64_t first = std::min(where.part.first, file_games), end = std::min(where.part.end, file_games);
  out.repository_games += end - first;
  out.hits.resize(db.positions(), 0);
  Roaring candidates, in_part;  // in_part: the part's games, when it is not the whole file
  if (!where.part.whole()) in_part.addRange(first, end);
  std::vector<uint64_t> skipped_key_games(keys.keys.size(), 0);
  // CQLINDEX_READ_STATS=1: what the look-ups read (store/README.md, "A look-up costs the same at every size").
  const bool read_stats = std::getenv("CQLINDEX_READ_STATS") != nullptr;
  if (read_stats) store::IndexStore::start_counting_reads();
  const bool read = index.positions_games(keys.keys, [&](size_t k, store::PostingList&& list) {
    if (skip_above >= 0 && double(list.size()) > skip_above)  // the file's share decides; the part's games count
      skipped_key_games[k] = where.part.whole() ? list.size() : (list.bits() & in_part).cardinality();
    else candidates |= list.bits();
  }, error);
  if (!read) return false;
  if (!where.part.whole()) candidates &= in_part;
  if (read_stats) {
    const auto cost = store::IndexStore::reads_counted();
    std::ostream& stats = held ? *held : std::cerr;  // a served search's on the server's stderr, as before
    stats << "cqlindex similar: " << keys.keys.size() << " look-ups read " << cost.bytes << " bytes in "
          << cost.blocks << " blocks from the index files (" << (keys.keys.empty() ? 0 : cost.bytes / keys.keys.size())
          << " bytes a look-up) and found " << cost.cached_blocks << " blocks in the block cache\n";
  }
  for (uint32_t id = 0; id < db.positions(); ++id)
    if (uint64_t games = skipped_key_games[keys.key_of_position[id]]) {
      out.hits[id] += games;
      db.exclude(id);
    }
  std::vector<uint32_t> ids(candidates.cardinality());
  candidates.toUint32Array(ids.data());
  diag << ("cqlindex similar: " + std::to_string(keys.keys.size()) + " distinct positions looked up in the index: " +
           std::to_string(ids.size()) + " candidate games of " + std::to_string(end - first) +
           (offset || where.file ? " in " + repo_name : std::string()) + "\n");  // one write

  // Each candidate is read by its byte range (pread): the memory follows the candidates, not the repository.
  // Matched on the worker pool, delivered in game order: PGN problems reported, matched games kept.
  struct Replayed {
    MatchedGame game;
    std::vector<pgn::PgnError> problems;
    std::pair<uint32_t, uint32_t> start;  // line and column where the game starts
  };
  std::vector<std::string> read_errors(ids.size());
  pgn::ParseOptions parse;
  parse.mainline_only = true;
  size_t failed = 0;
  const bool read_all = for_each_in_order<Replayed>(
      ids.size(), threads, kCandidatesPerWorker,
      [&](size_t i, unsigned) -> std::optional<Replayed> {
        if (served && served->cancelled()) {  // the search stops at this candidate: nothing after it is delivered
          read_errors[i] = kCancelled;
          return std::nullopt;
        }
        std::string bytes;
        auto record = index.game(ids[i], &read_errors[i]);
        if (!record || !repo.read(record->offset, record->length, bytes, &read_errors[i])) return std::nullopt;
        pgn::Game g;
        pgn::parse_game(bytes, pgn::GameLocation{offset + ids[i] + 1, record->offset, 1, 1}, g, parse);
        Replayed r{matched_game(db, g), std::move(g.errors), {record->first_line, record->first_col}};
        r.game.file = where.file;
        r.game.offset = record->offset;
        r.game.length = record->length;
        return r;
      },
      [&](size_t, Replayed&& r) {
        const auto [line, col] = r.start;
        for (pgn::PgnError e : r.problems) {  // parsed as if the game began at line 1, column 1
          if (e.line == 1) e.col += col - 1;
          e.line += line - 1;
          diag << (pgn::format_error(repo_name, e) + "\n");  // one write
        }
        if (!r.game.positions.empty()) out.matched.push_back(std::move(r.game));
        return true;
      },
      &failed);
  if (!read_all) {
    if (error) *error = read_errors[failed];
    return false;
  }
  for (size_t i = matched_before; i < out.matched.size(); ++i)
    for (uint32_t id : out.matched[i].positions) ++out.hits[id];
  return true;
}

void search_by_scan(const SubmissionDb& db, pgn::PgnFile& file, const std::string& repo_name, unsigned threads,
                    SimilarSearch& out, RepositoryFile where, std::ostream* held) {
  std::ostream& diag = held ? *held : std::cerr;
  out.hits.resize(db.positions(), 0);
  // the part's bytes (found by the game splitter: no index here), its games numbered and placed as in the file
  const PartBytes bytes = *part_bytes(file.text(), where.part, nullptr, nullptr);
  const std::string_view repo = file.text().substr(bytes.begin, bytes.end - bytes.begin);
  ProgressBar bar("scanning " + repo_name);
  pgn::ReadOptions read;
  read.threads = threads;
  read.parse.mainline_only = true;
  read.first_number = out.repository_games + where.part.first + 1;
  read.progress = [&](uint64_t done) { file.release_before(bytes.begin + done); };  // memory independent of size
  pgn::for_each_game<MatchedGame>(
      repo, read, [&](const pgn::Game& g, unsigned) { return matched_game(db, g); },
      [&](const pgn::GameInfo& info, MatchedGame&& m) {
        ++out.repository_games;
        if (!info.errors.empty()) {
          bar.finish();
          std::vector<pgn::PgnError> errors = info.errors;
          shift_to_part(errors, bytes);
          for (const pgn::PgnError& e : errors) diag << (pgn::format_error(repo_name, e) + "\n");
        }
        if (!m.positions.empty()) {
          m.file = where.file;
          m.offset = bytes.begin + info.offset;
          m.length = info.length;
          for (uint32_t id : m.positions) ++out.hits[id];
          out.matched.push_back(std::move(m));
        }
        bar.update(info.offset + info.length, repo.size());
        return true;
      });
  bar.finish();
}

void settle(const SubmissionDb& db, bool sort, std::vector<MatchedGame>& matched) {
  std::vector<MatchedGame> kept;
  for (MatchedGame& m : matched) {
    std::erase_if(m.positions, [&](uint32_t id) { return db.excluded(id); });
    if (m.positions.empty()) continue;
    m.least_submission_game = 0;
    for (uint32_t id : m.positions) {
      uint32_t g = db.position(id).game;
      if (m.least_submission_game == 0 || g < m.least_submission_game) m.least_submission_game = g;
    }
    kept.push_back(std::move(m));
  }
  matched = std::move(kept);
  if (sort)
    std::stable_sort(matched.begin(), matched.end(), [](const MatchedGame& a, const MatchedGame& b) {
      return a.least_submission_game < b.least_submission_game;
    });
}

bool write_similar_output(std::ostream& out, const SubmissionDb& db, const std::vector<const pgn::RangeReader*>& repos,
                          const std::vector<MatchedGame>& matched, bool sort, unsigned threads, std::string* error) {
  const size_t chunks = std::min<size_t>(matched.size(), size_t(std::max(1u, threads)) * 8);
  std::vector<std::string> parts(chunks);
  std::atomic<bool> failed{false};
  std::string read_error;
  parallel_for(chunks, threads, [&](size_t c, unsigned) {
    pgn::Game g;
    std::string bytes, err;
    for (size_t i = c * matched.size() / chunks; i < (c + 1) * matched.size() / chunks; ++i) {
      const MatchedGame& m = matched[i];
      if (!repos[m.file]->read(m.offset, m.length, bytes, &err)) {
        if (!failed.exchange(true)) read_error = err;
        return;
      }
      pgn::parse_game(bytes, pgn::GameLocation{m.number, m.offset, 1, 1}, g);
      auto match = cql::similar::match_game(db, g);
      pgn::write_game(g, cql::similar::cql_additions(db, match, m.number, sort), pgn::WriteOptions{}, parts[c]);
    }
  });
  if (failed) {
    if (error) *error = read_error;
    return false;
  }
  for (const std::string& p : parts) out.write(p.data(), std::streamsize(p.size()));
  return true;
}

bool similar_output_games(const SubmissionDb& db, const std::vector<const pgn::RangeReader*>& repos,
                          const std::vector<MatchedGame>& matched, bool sort, const MemoryRun& memory,
                          std::string* error) {
  pgn::Game g;
  std::string bytes;
  for (const MatchedGame& m : matched) {
    if (memory.cancelled()) {
      if (error) *error = kCancelled;
      return false;
    }
    if (!repos[m.file]->read(m.offset, m.length, bytes, error)) return false;
    pgn::parse_game(bytes, pgn::GameLocation{m.number, m.offset, 1, 1}, g);
    const auto added = cql::similar::cql_additions(db, cql::similar::match_game(db, g), m.number, sort);
    OutputGame out = output_game_of(g, added);
    pgn::write_game(g, added, pgn::WriteOptions{}, out.pgn);
    if (!memory.on_game(std::move(out))) break;
  }
  return true;
}

}  // namespace cqlindex::exec
