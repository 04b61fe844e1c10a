#include "exec/near_run.h"

#include <chrono>
#include <iostream>
#include <optional>

#include "exec/near_facts.h"
#include "exec/near_report.h"
#include "exec/similar_report.h"

namespace cqlindex::exec {

Status run_near(const SimilarRequest& opt, cql::similar::SubmissionDb& db,
                const store::IndexStore* index, const pgn::RangeReader& repo, std::string_view submissions_text,
                OutputFile* report, unsigned threads, NearSummary& counted) {
  const MemoryRun* memory = opt.memory;
  // The lines go where the search's other lines went: stderr, or a served run's diagnostics.
  std::ostream& diag = memory ? *memory->diagnostics : std::cerr;
  auto fail = [&](const std::string& message) {
    diag << "cqlindex " << opt.command << ": " << message << "\n";
    return Status::InputError;
  };
  const auto start = std::chrono::steady_clock::now();
  const unsigned limit = opt.near.value_or(0);
  std::string error;
  NearSearch near;
  if (index && limit <= kIndexedNearLimit) {
    if (!search_near_with_index(*index, db, limit, repo, threads, near, &error, memory)) return fail(error);
    diag << "cqlindex " << opt.command << ": near search: " << near.looked_up
         << " distinct neighbour keys looked up in the index: " << near.candidates << " candidate games of "
         << near.repository_games << "\n";
  } else if (memory) {  // a scan of every game is no answer to wait for
    return fail("a served near search goes through the index: a distance of at most " +
                std::to_string(kIndexedNearLimit));
  } else {
    if (index)
      diag << "cqlindex " << opt.command << ": --near " << limit << " is answered by scanning every game (the "
           << "index holds the neighbourhoods of distance " << kIndexedNearLimit << " only)\n";
    auto file = pgn::PgnFile::open(opt.repository, &error);
    if (!file) return fail(error);
    search_near_by_scan(db, limit, *file, threads, near);
  }
  // stderr in blocks (similar_report.h), a served run's diagnostics as they are
  auto lines = [&](std::optional<BufferedStderr>& buffered) -> std::ostream& {
    return memory ? diag : buffered.emplace();
  };
  std::vector<uint32_t> common;
  {
    std::optional<BufferedStderr> buffered;
    common = report_common_near(lines(buffered), db, near, opt.warn_common, opt.ignore_common.has_value());
    if (opt.ignore_common)
      for (uint32_t id : common) db.exclude(id);
  }
  settle_near(db, near);
  const std::vector<NearPair> pairs = near_pairs(db, near.games);
  if (opt.near) {
    std::optional<BufferedStderr> buffered;
    report_near(lines(buffered), db, near, pairs);
  }
  counted = NearSummary{near.limit, pairs.size(), pairs_by_distance(pairs, near.limit)};
  if (memory && memory->on_near)
    for (const NearPair& p : pairs) {
      if (memory->cancelled()) return fail(kCancelled);
      NearFacts facts;
      if (!near_facts(db, repo, p, facts, &error)) return fail(error);
      if (!memory->on_near(std::move(facts))) break;
    }
  const double search_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (report) {
    const auto report_start = std::chrono::steady_clock::now();
    const ReportInput in{.db = db, .submissions_text = submissions_text, .repo = repo, .search = near,
                         .pairs = pairs, .submissions_name = opt.submissions, .repository_name = opt.repository,
                         .common = common, .common_skipped = opt.ignore_common.has_value()};
    if (!write_near_report(report->stream(), in, &error)) return fail(error);
    if (!report->commit(&error)) return fail(error);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - report_start).count();
    diag << "cqlindex " << opt.command << ": report of " << pairs.size() << " matches written to " << opt.report
         << " in " << seconds << " s (near search " << search_seconds << " s)\n";
  } else {
    diag << "cqlindex " << opt.command << ": near search took " << search_seconds << " s\n";
  }
  return Status::Ok;
}

}  // namespace cqlindex::exec
