// cqlindex similar SUBMISSIONS.pgn -i REPO.pgn [-o OUT.pgn] [--nosort] [--notransform] [--no-index]
//                  [--index DIR] [--threads N] [--ignore-common PERCENT] [--warn-common PERCENT]
//
// What `cql -i REPO.pgn -similarposition [nosort] [notransform] SUBMISSIONS.pgn` does with an empty query,
// byte for byte (engine/cql/similar), but with the candidate games taken from the index: one look-up per
// distinct canonical key of the submissions' positions, then only those games are replayed (read at their
// byte offsets) to place CQL's comments. Without an index the whole repository is scanned in parallel.
//
// stdout: CQL's own lines, "Db: read N games from submission file: F" and "N matches of M games in S seconds
// using T threads to OUT". stderr: PGN problems, how the candidates were found, and the judges' extras:
// submission positions similar to positions of a large share of the repository (warned, or skipped with
// --ignore-common), and per submission game how many repository games it matched and the first of them.
// Exit 0; 2 when a file or the index cannot be used (a stale index is refused, never used); 1 on usage errors.
#include <boost/program_options.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/progress_bar.h"
#include "engine/cql/similar/similar_match.h"
#include "engine/pgn/reader.h"
#include "engine/pgn/writer.h"
#include "indexer/canonical_key.h"
#include "indexer/index_location.h"
#include "store/index_store.h"

namespace cqlindex::cli {

namespace po = boost::program_options;
using cql::similar::SubmissionDb;

namespace {

constexpr double kDefaultWarnPercent = 1.0;

struct Options {
  std::string submissions, repository, output, index_dir;
  bool sort = true, notransform = false, no_index = false;
  unsigned threads = 0;
  std::optional<double> ignore_common;  // percent of the repository's games
  double warn_common = kDefaultWarnPercent;
};

// A repository game that matched: where it is and which submission positions it lists.
struct MatchedGame {
  uint64_t number = 0;  // 1-based
  uint64_t offset = 0, length = 0;
  std::vector<uint32_t> positions;  // submission position ids, ascending, unique
  std::string date;                 // the Date tag ("" when absent)
  uint32_t least_submission_game = 0;
};

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
  if (!m.positions.empty()) m.date = std::string(g.tag("Date").value_or(""));
  return m;
}

// The year of a PGN date, 0 when unknown.
unsigned year_of(std::string_view date) {
  unsigned y = 0, digits = 0;
  for (char c : date.substr(0, 4))
    if (c >= '0' && c <= '9') y = y * 10 + unsigned(c - '0'), ++digits;
  return digits == 4 ? y : 0;
}

// Runs f(i) for i in [0, n) on `threads` threads.
void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& f) {
  threads = std::max(1u, std::min<unsigned>(threads, unsigned(std::min<size_t>(n, 1024))));
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i) f(i);
    return;
  }
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (size_t i; (i = next.fetch_add(1)) < n;) f(i);
    });
  for (auto& t : pool) t.join();
}

// Line and column of byte `offset` of `text`, counted on from a known (line, offset) before it.
struct LineCounter {
  std::string_view text;
  uint64_t at = 0;
  uint32_t line = 1;
  std::pair<uint32_t, uint32_t> locate(uint64_t offset) {
    if (offset < at) at = 0, line = 1;
    for (; at < offset; ++at)
      if (text[at] == '\n') ++line;
    size_t nl = text.rfind('\n', offset ? offset - 1 : 0);
    uint32_t col = (offset == 0 || nl == std::string_view::npos) ? uint32_t(offset + 1) : uint32_t(offset - nl);
    return {line, col};
  }
};

// "1-3, 7, 9-10" for an ascending list.
std::string ranges(const std::vector<uint32_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (!s.empty()) s += ", ";
    s += std::to_string(v[i]);
    if (j > i) {
      s += '-';
      s += std::to_string(v[j]);
    }
    i = j + 1;
  }
  return s;
}

// The FENs of submission positions `ids` (their games read again from the submissions text), by id.
std::map<uint32_t, std::string> submission_fens(std::string_view text, const SubmissionDb& db,
                                                const std::vector<uint32_t>& ids) {
  std::map<uint64_t, std::vector<uint32_t>> by_game;
  for (uint32_t id : ids) by_game[db.position(id).game].push_back(id);
  std::map<uint32_t, std::string> fens;
  pgn::ParseOptions parse;
  parse.mainline_only = true;
  pgn::GameSplitter splitter(text);
  pgn::GameSpan span;
  pgn::Game g;
  while (!by_game.empty() && splitter.next(span)) {
    auto wanted = by_game.find(span.number);
    if (wanted == by_game.end()) continue;
    pgn::parse_game(text.substr(span.offset, span.length), pgn::GameLocation{span.number, span.offset, 1, 1}, g,
                    parse);
    chess::Position pos = g.start;
    pgn::NodeIndex n = 0;
    for (uint32_t ply = 0;; ++ply) {
      for (uint32_t id : wanted->second)
        if (db.position(id).ply == ply) fens[id] = pos.fen();
      if (g.nodes[n].first_child == pgn::kNoNode) break;
      n = g.nodes[n].first_child;
      pos.do_move(g.nodes[n].move);
    }
    by_game.erase(wanted);
  }
  return fens;
}

std::string describe_position(const cql::similar::SubmissionPosition& p) {
  return "submission game " + std::to_string(p.game) + " at move " + std::to_string(p.move) +
         (p.side == chess::WHITE ? " wtm" : " btm");
}

std::string percent(uint64_t part, uint64_t whole) {
  std::ostringstream s;
  s.precision(1);
  s << std::fixed << (whole ? 100.0 * double(part) / double(whole) : 0.0) << "%";
  return s.str();
}

int parse_options(int argc, char** argv, Options& o) {
  po::options_description visible(
      "usage: cqlindex similar SUBMISSIONS.pgn -i REPO.pgn [-o OUT.pgn] [--nosort] [--notransform]\n"
      "                        [--no-index | --index DIR] [--threads N] [--ignore-common PERCENT]");
  visible.add_options()("help,h", "this help")("input,i", po::value<std::string>(), "the repository (PGN)")(
      "output,o", po::value<std::string>(), "output file (default: SUBMISSIONS-out.pgn, as CQL names it)")(
      "nosort", "keep the repository's order (default: by least matching submission game)")(
      "notransform", "identical boards only (no reflections, rotations or shifts)")(
      "no-index", "scan the whole repository even when it is indexed")(
      "index", po::value<std::string>(), "index folder (default: REPO.pgn.cqlidx)")(
      "threads", po::value<unsigned>()->default_value(0), "threads (0 = all cores)")(
      "ignore-common", po::value<double>(),
      "skip submission positions similar to positions of more than PERCENT % of the repository's games")(
      "warn-common", po::value<double>()->default_value(kDefaultWarnPercent),
      "warn about submission positions similar to positions of more than PERCENT % of the games");
  po::options_description all;
  all.add(visible).add_options()("file", po::value<std::string>());
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "cqlindex similar: " << e.what() << "\n" << visible;
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << visible;
    return -1;
  }
  if (!vm.count("file") || !vm.count("input")) {
    std::cerr << "cqlindex similar: name SUBMISSIONS.pgn and -i REPO.pgn\n" << visible;
    return kExitUsage;
  }
  o.submissions = vm["file"].as<std::string>();
  o.repository = vm["input"].as<std::string>();
  if (vm.count("output")) {
    o.output = vm["output"].as<std::string>();
  } else {
    std::filesystem::path p(o.submissions);
    o.output = p.stem().string() + "-out.pgn";
  }
  o.sort = !vm.count("nosort");
  o.notransform = vm.count("notransform") > 0;
  o.no_index = vm.count("no-index") > 0;
  if (vm.count("index")) o.index_dir = vm["index"].as<std::string>();
  if (o.no_index && !o.index_dir.empty()) {
    std::cerr << "cqlindex similar: --no-index and --index exclude each other\n";
    return kExitUsage;
  }
  o.threads = vm["threads"].as<unsigned>();
  if (vm.count("ignore-common")) o.ignore_common = vm["ignore-common"].as<double>();
  o.warn_common = o.ignore_common ? *o.ignore_common : vm["warn-common"].as<double>();
  if ((o.ignore_common && !(*o.ignore_common >= 0 && *o.ignore_common <= 100)) ||
      !(o.warn_common >= 0 && o.warn_common <= 100)) {
    std::cerr << "cqlindex similar: a PERCENT must be between 0 and 100\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace

int command_similar(int argc, char** argv) {
  Options opt;
  if (int rc = parse_options(argc, argv, opt); rc != kExitOk) return rc < 0 ? kExitOk : rc;
  const auto start = std::chrono::steady_clock::now();
  const unsigned threads = pgn::resolve_threads(opt.threads);
  std::string error;

  std::error_code ec;
  if (!std::filesystem::is_regular_file(opt.repository, ec)) {
    std::cerr << "cqlindex similar: cannot read the repository " << opt.repository << "\n";
    return kExitInput;
  }
  // The index, if there is a usable one; a stale or damaged one is refused.
  std::unique_ptr<store::IndexStore> index;
  if (!opt.no_index) {
    const bool explicit_dir = !opt.index_dir.empty();
    const std::string dir = explicit_dir ? opt.index_dir : indexer::default_index_dir(opt.repository);
    if (!std::filesystem::exists(dir, ec)) {
      if (explicit_dir) {
        std::cerr << "cqlindex similar: no index at " << dir << "\n";
        return kExitInput;
      }
      std::cerr << "cqlindex similar: " << opt.repository << " is not indexed (no " << dir
                << "): scanning every game; 'cqlindex build " << opt.repository << "' makes this fast\n";
    } else {
      index = store::IndexStore::open_for_reading(dir, &error);
      if (!index) {
        std::cerr << "cqlindex similar: " << error << "\n";
        return kExitInput;
      }
      auto freshness = indexer::check_freshness(index->meta(), opt.repository, &error);
      if (!freshness) {
        std::cerr << "cqlindex similar: " << error << "\n";
        return kExitInput;
      }
      if (*freshness != indexer::Freshness::Fresh) {
        std::cerr << "cqlindex similar: " << indexer::refusal_message(*freshness, opt.repository, dir) << "\n";
        return kExitInput;
      }
    }
  }

  // The submissions, with the canonical key of each position when the index will be asked.
  auto submissions_file = pgn::PgnFile::open(opt.submissions, &error);
  if (!submissions_file) {
    std::cerr << "cqlindex similar: " << error << "\n";
    return kExitInput;
  }
  std::vector<std::string> keys;                    // distinct canonical keys, first-seen order
  std::vector<uint32_t> key_of_position;            // position id -> index in keys
  std::unordered_map<std::string, uint32_t> key_ids;
  SubmissionDb::PositionVisitor visit;
  if (index)
    visit = [&](uint32_t, const chess::Position& pos, const cql::similar::SubmissionPosition&) {
      auto [it, added] = key_ids.try_emplace(indexer::canonical_key(pos), uint32_t(keys.size()));
      if (added) keys.push_back(it->first);
      key_of_position.push_back(it->second);
    };
  std::vector<pgn::PgnError> problems;
  SubmissionDb db = SubmissionDb::read(submissions_file->text(), opt.submissions,
                                       SubmissionDb::Options{opt.notransform}, &problems, visit);
  for (const pgn::PgnError& e : problems) std::cerr << pgn::format_error(opt.submissions, e) << "\n";
  std::cout << cql::similar::read_message(db) << std::endl;
  if (db.games() == 0) {
    std::cerr << "cqlindex similar: Db: unable to read any games from file: " << opt.submissions << "\n";
    return kExitInput;
  }

  auto repo_file = pgn::PgnFile::open(opt.repository, &error);
  if (!repo_file) {
    std::cerr << "cqlindex similar: " << error << "\n";
    return kExitInput;
  }
  const std::string_view repo = repo_file->text();

  uint64_t repository_games = 0;
  std::vector<MatchedGame> matched;
  std::vector<uint64_t> hits(db.positions(), 0);  // repository games each submission position is listed in

  if (index) {
    // Candidates: the union of the posting lists of the submissions' canonical keys.
    repository_games = index->meta().game_count;
    const double limit = opt.ignore_common ? *opt.ignore_common / 100.0 * double(repository_games) : -1;
    Roaring candidates;
    std::vector<uint64_t> common_key_games(keys.size(), 0);  // games of each key skipped as common
    for (uint32_t k = 0; k < keys.size(); ++k) {
      auto list = index->postings(store::Family::Similar, keys[k], &error);
      if (!list) {
        std::cerr << "cqlindex similar: " << error << "\n";
        return kExitInput;
      }
      // With transforms a key's posting list is exactly the games its positions match: common keys can be
      // skipped before any replay. (With notransform it is only an upper bound; replay decides.)
      if (opt.ignore_common && !opt.notransform && double(list->size()) > limit) {
        common_key_games[k] = list->size();
        continue;
      }
      candidates |= list->bits();
    }
    for (uint32_t id = 0; id < db.positions(); ++id)
      if (uint64_t games = common_key_games[key_of_position[id]]) {
        hits[id] = games;
        db.exclude(id);
      }
    std::vector<uint32_t> ids(candidates.cardinality());
    candidates.toUint32Array(ids.data());
    std::cerr << "cqlindex similar: " << keys.size() << " distinct positions looked up in the index: "
              << ids.size() << " candidate games of " << repository_games << "\n";

    std::vector<MatchedGame> found(ids.size());
    std::vector<std::vector<pgn::PgnError>> game_problems(ids.size());
    std::atomic<bool> failed{false};
    std::string read_error;
    pgn::ParseOptions parse;
    parse.mainline_only = true;
    parallel_for(ids.size(), threads, [&](size_t i) {
      std::string err;
      auto record = index->game(ids[i], &err);
      if (!record || record->offset + record->length > repo.size()) {
        if (!failed.exchange(true)) read_error = record ? "index and PGN disagree about game offsets" : err;
        return;
      }
      pgn::Game g;
      pgn::parse_game(repo.substr(record->offset, record->length),
                      pgn::GameLocation{uint64_t(ids[i]) + 1, record->offset, 1, 1}, g, parse);
      found[i] = matched_game(db, g);
      found[i].offset = record->offset;
      found[i].length = record->length;
      game_problems[i] = std::move(g.errors);
    });
    if (failed) {
      std::cerr << "cqlindex similar: " << read_error << "\n";
      return kExitInput;
    }
    LineCounter lines{repo};
    for (size_t i = 0; i < ids.size(); ++i) {
      if (!game_problems[i].empty()) {
        auto [line, col] = lines.locate(found[i].offset);
        for (pgn::PgnError e : game_problems[i]) {  // parsed as if at line 1, column 1
          if (e.line == 1) e.col += col - 1;
          e.line += line - 1;
          std::cerr << pgn::format_error(opt.repository, e) << "\n";
        }
      }
      if (!found[i].positions.empty()) matched.push_back(std::move(found[i]));
    }
  } else {
    ProgressBar bar("scanning " + opt.repository);
    pgn::ReadOptions read;
    read.threads = threads;
    read.parse.mainline_only = true;
    pgn::for_each_game<MatchedGame>(
        repo, read, [&](const pgn::Game& g, unsigned) { return matched_game(db, g); },
        [&](const pgn::GameInfo& info, MatchedGame&& r) {
          ++repository_games;
          if (!info.errors.empty()) {
            bar.finish();
            for (const pgn::PgnError& e : info.errors) std::cerr << pgn::format_error(opt.repository, e) << "\n";
          }
          if (!r.positions.empty()) {
            r.offset = info.offset;
            r.length = info.length;
            matched.push_back(std::move(r));
          }
          bar.update(info.offset + info.length, repo.size());
          return true;
        });
    bar.finish();
  }

  // Judges' extras: submission positions that match a large share of the repository.
  for (const MatchedGame& m : matched)
    for (uint32_t id : m.positions) ++hits[id];
  const double warn_limit = opt.warn_common / 100.0 * double(repository_games);
  std::vector<uint32_t> common;
  for (uint32_t id = 0; id < db.positions(); ++id)
    if (hits[id] > 0 && double(hits[id]) > warn_limit) common.push_back(id);
  const auto fens = submission_fens(submissions_file->text(), db, common);
  for (uint32_t id : common) {
    const auto& p = db.position(id);
    auto fen = fens.find(id);
    std::cerr << "cqlindex similar: " << (opt.ignore_common ? "skipped: " : "warning: ") << describe_position(p)
              << " (" << (fen == fens.end() ? "?" : fen->second) << ") is similar to positions of " << hits[id]
              << " of the " << repository_games << " repository games (" << percent(hits[id], repository_games)
              << ")" << (opt.ignore_common ? "" : "; --ignore-common PERCENT skips such positions") << "\n";
    if (opt.ignore_common) db.exclude(id);
  }
  if (opt.ignore_common) {
    std::vector<MatchedGame> kept;
    for (MatchedGame& m : matched) {
      std::erase_if(m.positions, [&](uint32_t id) { return db.excluded(id); });
      if (!m.positions.empty()) kept.push_back(std::move(m));
    }
    matched = std::move(kept);
  }
  for (MatchedGame& m : matched)
    for (uint32_t id : m.positions) {
      uint32_t g = db.position(id).game;
      if (m.least_submission_game == 0 || g < m.least_submission_game) m.least_submission_game = g;
    }
  if (opt.sort)
    std::stable_sort(matched.begin(), matched.end(), [](const MatchedGame& a, const MatchedGame& b) {
      return a.least_submission_game < b.least_submission_game;
    });

  // The output: each matched game read in full (variations and comments) and written as CQL writes it.
  const size_t chunks = std::min<size_t>(matched.size(), size_t(threads) * 8);
  std::vector<std::string> parts(chunks);
  parallel_for(chunks, threads, [&](size_t c) {
    pgn::Game g;
    for (size_t i = c * matched.size() / chunks; i < (c + 1) * matched.size() / chunks; ++i) {
      const MatchedGame& m = matched[i];
      pgn::parse_game(repo.substr(m.offset, m.length), pgn::GameLocation{m.number, m.offset, 1, 1}, g);
      auto match = cql::similar::match_game(db, g);
      pgn::write_game(g, cql::similar::cql_additions(db, match, m.number, opt.sort), pgn::WriteOptions{}, parts[c]);
    }
  });
  {
    std::ofstream out(opt.output, std::ios::binary | std::ios::trunc);
    for (const std::string& p : parts) out.write(p.data(), std::streamsize(p.size()));
    if (!out.flush()) {
      std::cerr << "cqlindex similar: cannot write " << opt.output << "\n";
      return kExitInput;
    }
  }

  // Per submission game: how many repository games it matched, the first of them, the earliest dated one.
  struct Reach {
    uint64_t games = 0;
    const MatchedGame* first = nullptr;
    const MatchedGame* earliest = nullptr;  // least year, then least date text; undated games not counted
  };
  std::map<uint32_t, Reach> per_submission;
  for (const MatchedGame& m : matched) {
    std::vector<uint32_t> games;
    for (uint32_t id : m.positions) games.push_back(db.position(id).game);
    std::sort(games.begin(), games.end());
    games.erase(std::unique(games.begin(), games.end()), games.end());
    for (uint32_t s : games) {
      Reach& r = per_submission[s];
      ++r.games;
      if (!r.first || m.number < r.first->number) r.first = &m;
      unsigned y = year_of(m.date);
      if (y && (!r.earliest || y < year_of(r.earliest->date) ||
                (y == year_of(r.earliest->date) && (m.date < r.earliest->date ||
                                                    (m.date == r.earliest->date && m.number < r.earliest->number)))))
        r.earliest = &m;
    }
  }
  for (const auto& [s, r] : per_submission) {
    std::cerr << "submission game " << s << ": similar positions in " << r.games << " repository game"
              << (r.games == 1 ? "" : "s") << " (first: game " << r.first->number;
    if (r.earliest) std::cerr << "; earliest dated: game " << r.earliest->number << ", " << r.earliest->date;
    std::cerr << ")\n";
  }
  std::vector<uint32_t> unmatched;
  for (uint32_t s = 1; s <= db.games(); ++s)
    if (!per_submission.count(s)) unmatched.push_back(s);
  if (!unmatched.empty())
    std::cerr << "submission games with no similar position in the repository (" << unmatched.size() << " of "
              << db.games() << "): " << ranges(unmatched) << "\n";

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ostringstream line;
  line.precision(3);
  line << matched.size() << " matches of " << repository_games << " games in " << seconds << " seconds using "
       << threads << (threads == 1 ? " thread" : " threads") << " to " << opt.output;
  std::cout << line.str() << std::endl;
  return kExitOk;
}

}  // namespace cqlindex::cli
