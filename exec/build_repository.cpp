// `cqlindex build`: the target checked, the build run with its progress and problems, its size measured.
#include "exec/build_repository.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <optional>

#include "exec/index_info.h"
#include "exec/progress_bar.h"
#include "exec/worker_pool.h"
#include "engine/pgn/reader.h"
#include "indexer/index_builder.h"
#include "indexer/index_location.h"

namespace cqlindex::exec {

BuildRunSummary build_repository(const BuildSettings& settings) {
  BuildRunSummary out;
  const std::string& path = settings.input;
  indexer::BuildOptions options;
  options.index_dir = settings.index_dir;
  options.threads = settings.threads;
  options.append = settings.append;
  options.yacpdb = settings.yacpdb;
  options.explore = settings.explore;
  const std::string target = options.index_dir.empty() ? indexer::default_index_dir(path) : options.index_dir;
  if (std::string problem = indexer::index_target_problem(target, path); !problem.empty()) {
    std::cerr << ("cqlindex build: " + problem + "\n");
    return stopped(out, options.index_dir.empty() ? Status::InputError : Status::QueryError);
  }
  ProgressBar bar("indexing " + path);
  if (settings.progress) options.progress = [&](uint64_t done, uint64_t total) { bar.update(done, total); };
  // each message in one write: builds running at once share stderr
  options.on_problem = [&](const pgn::GameInfo& info) {
    bar.finish();
    for (const pgn::PgnError& e : info.errors) std::cerr << (pgn::format_error(path, e) + '\n');
  };
  options.on_problem_text = [&](const std::string& message) {
    bar.finish();
    std::cerr << (message + '\n');
  };

  // An index locates games by byte offset in the file for the queries to read them again: a pipe or device
  // cannot be read again (and would be read twice, once to parse and once to fingerprint it).
  std::error_code ec;
  if (const auto status = std::filesystem::status(path, ec); !ec && !std::filesystem::is_regular_file(status)) {
    std::cerr << "cqlindex build: " << path
              << (std::filesystem::is_directory(status) ? " is a folder" : " is not a regular file (a pipe or device)")
              << ": only a file can be indexed (save the games to a file first; 'cqlindex check' reads pipes)\n";
    return stopped(out, Status::InputError);
  }

  const auto start = std::chrono::steady_clock::now();
  indexer::BuildSummary summary;
  std::string error;
  const bool ok = indexer::build_index(path, options, &summary, &error);
  bar.finish();
  if (!ok) {
    std::cerr << ("cqlindex build: " + error + "\n");
    return stopped(out, Status::InputError);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.index_dir = summary.index_dir;
  out.games = summary.games;
  out.new_games = summary.new_games;
  out.appended = summary.appended;
  out.errors = summary.read.errors;
  out.skipped = summary.read.skipped;
  out.positions = summary.positions;
  out.entries = summary.entries;
  out.note = summary.note;
  for (size_t i = 0; i < out.phases.size(); ++i) out.phases[i] = {summary.phases[i].wall, summary.phases[i].cpu};
  out.bytes = folder_bytes(summary.index_dir);
  return out;
}

BuildSchedule schedule_builds(const std::vector<uint64_t>& bytes, unsigned threads) {
  BuildSchedule schedule;
  uint64_t total = 0;
  for (uint64_t b : bytes) total += b;
  for (size_t k = 0; k < bytes.size(); ++k) {
    const bool big = threads <= 1 || bytes.size() == 1 || bytes[k] * 2 > total;
    (big ? schedule.alone : schedule.together).push_back(k);
  }
  std::stable_sort(schedule.together.begin(), schedule.together.end(),
                   [&](size_t a, size_t b) { return bytes[a] > bytes[b]; });
  const unsigned at_once = unsigned(std::clamp<size_t>(schedule.together.size(), 1, std::max(1u, threads)));
  schedule.threads_each = std::max(1u, threads / at_once);
  schedule.at_once = std::max(1u, threads / schedule.threads_each);
  return schedule;
}

std::vector<size_t> build_share(const std::vector<uint64_t>& bytes, int rank, int ranks) {
  std::vector<size_t> order(bytes.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return bytes[a] > bytes[b]; });
  std::vector<uint64_t> load(size_t(std::max(1, ranks)), 0);
  std::vector<size_t> mine;
  for (size_t k : order) {
    const size_t least = size_t(std::min_element(load.begin(), load.end()) - load.begin());
    load[least] += std::max<uint64_t>(bytes[k], 1);  // an empty file still counts as a build
    if (int(least) == rank) mine.push_back(k);
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

void build_files(const std::vector<std::string>& files, const std::vector<size_t>& which, const BuildSettings& settings,
                 const std::function<void(size_t, const BuildRunSummary&)>& done) {
  const unsigned threads = pgn::resolve_threads(settings.threads);
  std::vector<uint64_t> bytes;
  for (size_t k : which) {
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(files[k], ec);
    bytes.push_back(ec ? 0 : size);  // not a file: its build says why
  }
  const BuildSchedule schedule = schedule_builds(bytes, threads);
  std::mutex said;
  for (size_t i : schedule.alone) {
    BuildSettings one = settings;
    one.input = files[which[i]];
    one.threads = threads;
    const BuildRunSummary summary = build_repository(one);
    std::lock_guard lock(said);
    done(which[i], summary);
  }
  parallel_for(schedule.together.size(), schedule.at_once, [&](size_t j, unsigned) {
    BuildSettings one = settings;
    one.input = files[which[schedule.together[j]]];
    one.threads = schedule.threads_each;
    one.progress = false;  // several lines would overwrite each other
    const BuildRunSummary summary = build_repository(one);
    std::lock_guard lock(said);
    done(which[schedule.together[j]], summary);
  });
}

Status check_append_prefix(const std::vector<std::string>& files) {
  std::string error;
  for (size_t k = 0; k + 1 < files.size(); ++k) {
    // the meta family alone tells freshness (as RepositoryIndexes::check opens it): no other table is loaded
    auto index = indexer::open_index_for_reading(indexer::default_index_dir(files[k]), &error, {store::Family::Meta});
    std::optional<indexer::Freshness> freshness;
    if (index) freshness = indexer::check_freshness(index->meta(), files[k], &error);
    if (!freshness || *freshness != indexer::Freshness::Fresh) {
      std::cerr << "cqlindex build: " << files[k] << ": " << (freshness ? "its index is not up to date" : error)
                << ": --append extends the last file of a repository only (rebuild this one with 'cqlindex build "
                << files[k] << "')\n";
      return Status::InputError;
    }
  }
  return Status::Ok;
}

}  // namespace cqlindex::exec
