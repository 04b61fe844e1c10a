// What judges need beyond CQL's output (stderr of `cqlindex similar`): submission positions similar to
// positions of a large share of the repository, and per submission game its reach in the repository.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

#include "exec/similar_search.h"

namespace cqlindex::exec {

// An ostream onto standard error that writes in 64 KB blocks: std::cerr writes each insertion on its own, so a
// report of a line per submission game (a million empty games) took minutes of system calls. The block goes
// out at destruction (or flush), through stdio, after what std::cerr printed before.
class BufferedStderr : public std::ostream {
 public:
  BufferedStderr() : std::ostream(&buffer_) {}
  ~BufferedStderr() override { flush(); }

 private:
  struct Buffer : std::streambuf {
    char bytes[1 << 16];
    Buffer() { setp(bytes, bytes + sizeof bytes); }
    int overflow(int c) override;
    int sync() override;
  } buffer_;
};

// The submission positions listed in more than `percent` % of the repository's games, ascending.
std::vector<uint32_t> common_positions(const SimilarSearch& search, double percent);

// One line per common position: which submission game and move, its FEN (read again from `submissions`),
// and how many repository games list it; "skipped" instead of "warning" when they are left out.
void report_common(std::ostream& err, const cql::similar::SubmissionDb& db, std::string_view submissions,
                   const SimilarSearch& search, const std::vector<uint32_t>& common, bool skipped);

// Per submission game with matches: how many repository games, the first one and the earliest dated one (its
// date, White and Event);
// then the submission games with none.
void report_reach(std::ostream& err, const cql::similar::SubmissionDb& db, const std::vector<MatchedGame>& matched);

}  // namespace cqlindex::exec
