// CandidateSlices: a file's candidates read from the index a slice ahead of their replay.
#include "exec/candidate_slices.h"

#include <algorithm>
#include <system_error>
#include <utility>

#include "store/index_store.h"

namespace cqlindex::exec {

CandidateSlices::CandidateSlices(const store::IndexStore& index, const Roaring& ids, uint64_t first_number,
                                 std::optional<cql::Range> games, size_t slice)
    : index_(index), ids_(ids), at_(ids.begin()), first_number_(first_number), games_(games), slice_(slice) {}

CandidateSlices::~CandidateSlices() {
  if (ahead_.joinable()) ahead_.join();
}

void CandidateSlices::read(Slice& s) {
  s.spans.clear();
  s.ok = true;
  // the first slices are short (1/8, 1/4, 1/2 of a slice): the workers start after a short read, and each slice
  // read ahead is at most twice the one replayed meanwhile
  const size_t size = std::max<size_t>(1, slice_ >> (3 - std::min(3u, slices_read_)));
  ++slices_read_;
  std::vector<uint32_t> ids;
  ids.reserve(size);
  for (; at_ != ids_.end() && ids.size() < size; ++at_) {
    if (games_ && int64_t(first_number_ + *at_) + 1 > games_->max) break;
    ids.push_back(*at_);
  }
  more_ = ids.size() == size && at_ != ids_.end();
  if (ids.empty()) return;
  s.spans.reserve(ids.size());
  s.ok = index_.games(
      ids,
      [&](uint32_t id, const store::GameRecord& r) {
        s.spans.push_back(pgn::GameSpan{first_number_ + id + 1, r.offset, r.length, r.first_line, r.first_col});
      },
      &s.error);
}

bool CandidateSlices::next(std::vector<pgn::GameSpan>& spans, std::string* error) {
  Slice now;
  if (ahead_.joinable()) {
    ahead_.join();
    now = std::move(ahead_slice_);
  } else if (more_) {
    read(now);
  }
  if (!now.ok) {
    if (error) *error = now.error;
    more_ = false;
    return false;
  }
  spans = std::move(now.spans);
  if (more_) {
    try {
      ahead_ = std::thread([this] { read(ahead_slice_); });
    } catch (const std::system_error&) {  // the system gives no more threads: the next call reads it
    }
  }
  return true;
}

}  // namespace cqlindex::exec
