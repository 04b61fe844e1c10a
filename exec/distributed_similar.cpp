// A similar search over MPI ranks: the pipeline of similar_query.cpp with its collective steps (SimilarShare)
// done here: rank 0's set-up decides, the repository is shared as a run is (distributed_share.h), and each
// rank sends rank 0 its matched games (where they are, which submission positions they list, their tags for the
// judges' report) and its hits per submission position.
#include "exec/distributed_similar.h"

#include <iostream>
#include <sstream>

#include "exec/distributed_agreement.h"
#include "exec/distributed_share.h"
#include "exec/similar_search.h"

namespace cqlindex::exec {
namespace {

constexpr int kTagReport = 11, kTagBytes = 12;


// Returns a rank's search as bytes: its hits, then its matched games.
std::string encode_search(const SimilarSearch& search) {
  std::string out;
  put_word(out, search.hits.size());
  for (uint64_t h : search.hits) put_word(out, h);
  put_word(out, search.matched.size());
  for (const MatchedGame& m : search.matched) {
    put_word(out, m.number), put_word(out, m.file), put_word(out, m.offset), put_word(out, m.length);
    put_word(out, m.positions.size());
    for (uint32_t id : m.positions) put_word(out, id);
    put_text(out, m.date), put_text(out, m.white), put_text(out, m.event);
  }
  return out;
}

// Adds what encode_search wrote to `into`: the hits summed, the games appended.
class SearchReader : MessageReader {
 public:
  using MessageReader::MessageReader;
  // Sums the hits into `into`'s and appends the games to its own.
  void add_to(SimilarSearch& into) {
    const uint64_t positions = word();
    if (into.hits.size() < positions) into.hits.resize(positions, 0);
    for (uint64_t i = 0; i < positions; ++i) into.hits[i] += word();
    for (uint64_t n = word(); n > 0; --n) {
      MatchedGame m;
      m.number = word(), m.file = uint32_t(word()), m.offset = word(), m.length = word();
      for (uint64_t ids = word(); ids > 0; --ids) m.positions.push_back(uint32_t(word()));
      m.date = text(), m.white = text(), m.event = text();
      into.matched.push_back(std::move(m));
    }
  }
};

}  // namespace

SimilarSummary run_similar_distributed(const SimilarRequest& request) {
  const int rank = world_rank(), size = world_size();
  if (size == 1) return run_similar(request);
  uint64_t total = 0;  // the repository's games
  SimilarShare share;
  share.speaks = rank == 0;
  std::ostringstream lines;  // the other ranks' stderr lines, which rank 0 writes in game order
  if (rank != 0) share.lines = &lines;
  share.agree = [&](bool ok) {
    const bool go_on = broadcast(ok ? 1 : 0) != 0;
    if (go_on && !ok) {  // rank 0 could: the files changed under the search (the message is out)
      std::cerr << "cqlindex " << request.command << ": rank " << rank << " cannot follow rank 0\n";
      abort_run(2);
    }
    return go_on;
  };
  share.pieces = [&](const std::vector<std::string>& files, const RepositoryIndexes& indexes, bool indexed)
      -> std::optional<std::vector<SimilarShare::Piece>> {
    // the same submissions and repository on every rank (other folders, other files under one name)
    std::vector<std::string> read = files;
    read.push_back(request.submissions);
    if (!ranks_agree(file_facts(read), request.command)) return std::nullopt;
    RepositoryShare mine;
    if (!share_repository(files, indexes, indexed, request.command, mine)) return std::nullopt;
    total = mine.total;
    std::vector<SimilarShare::Piece> pieces;
    for (const SharePiece& p : mine.pieces) pieces.push_back(SimilarShare::Piece{uint32_t(p.file), p.part, p.offset});
    return pieces;
  };
  share.merge = [&](SimilarSearch& search, Status status) -> std::optional<Status> {
    if (rank != 0) {
      const std::string said = lines.str();
      const std::string bytes = (status == Status::Ok ? encode_search(search) : std::string()) + said;
      uint64_t report[3] = {uint64_t(status), bytes.size(), said.size()};  // the lines follow the search
      MPI_Request sent;
      MPI_Isend(report, 3, MPI_UINT64_T, 0, kTagReport, MPI_COMM_WORLD, &sent);
      wait_for(sent);
      send_bytes(bytes, kTagBytes);
      return std::nullopt;
    }
    // Rank 0: the other ranks' games in rank order, which is game order. The CPU time of the merge leaves out
    // the waits for a rank's report.
    double merge_seconds = 0;
    for (int from = 1; from < size; ++from) {
      wait_for_message(from, kTagReport);
      const double received = cpu_seconds();
      uint64_t report[3];
      MPI_Recv(report, 3, MPI_UINT64_T, from, kTagReport, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const std::string bytes = receive_bytes(from, report[1], kTagBytes);
      if (status == Status::Ok) std::cerr << bytes.substr(bytes.size() - report[2]);  // as one process says them
      if (status == Status::Ok) status = Status(report[0]);
      if (status == Status::Ok) SearchReader(bytes).add_to(search);  // else only drained
      merge_seconds += cpu_seconds() - received;
    }
    std::cerr << "cqlindex " << request.command << ": " << size << " ranks; rank 0 spent " << merge_seconds
              << " CPU seconds merging the other ranks' games\n";
    search.repository_games = total;
    return status;
  };
  SimilarRequest shared = request;
  shared.share = &share;
  const unsigned node_share = threads_per_rank();  // collective: every rank asks
  if (shared.threads == 0) shared.threads = node_share;  // its share of the node's cores, not every core
  return run_similar(shared);
}

}  // namespace cqlindex::exec
