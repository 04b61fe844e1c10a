// `cqlindex verify`: every byte of the index, then the PGN's indexed prefix.
#include "exec/verify_index.h"

#include "indexer/index_location.h"
#include "store/index_store.h"

namespace cqlindex::exec {

VerifySummary verify_index(const VerifySettings& settings) {
  VerifySummary summary;
  summary.index_dir = settings.index_dir.empty() ? indexer::default_index_dir(settings.input) : settings.index_dir;
  store::IndexStore::Verification found;
  if (!store::IndexStore::verify(summary.index_dir, found, &summary.error)) {
    if (store::quotes_system_refusal(summary.error)) summary.refused.push_back(summary.error);
    return stopped(summary, Status::InputError);
  }
  summary.index_found = true;
  summary.checked = std::move(found.checked);
  summary.damaged = std::move(found.damaged);
  summary.refused = std::move(found.refused);
  if (!summary.refused.empty()) return stopped(summary, Status::InputError);  // the rest is not known
  if (!found.meta) return stopped(summary, Status::InputError);
  summary.meta_read = true;
  const store::IndexMeta& meta = *found.meta;
  summary.pgn = settings.input.empty() ? meta.pgn_path : settings.input;
  summary.pgn_size = meta.pgn_size;
  std::string error;
  auto freshness = indexer::check_freshness_in_full(meta, summary.pgn, &error);
  if (!freshness) {
    summary.pgn_error = error;
  } else if (*freshness == indexer::Freshness::Stale) {
    summary.pgn_check = PgnCheck::Differs;
    summary.pgn_error = indexer::refusal_message(*freshness, summary.pgn, summary.index_dir);
  } else {
    summary.pgn_check = *freshness == indexer::Freshness::Appended ? PgnCheck::Appended : PgnCheck::Agrees;
    auto now = indexer::pgn_identity(summary.pgn, &error);
    summary.touched =
        now && (now->mtime_ns != meta.pgn_mtime_ns || now->device != meta.pgn_device || now->inode != meta.pgn_inode);
  }
  const bool pgn_ok = summary.pgn_check == PgnCheck::Agrees || summary.pgn_check == PgnCheck::Appended;
  if (!summary.damaged.empty() || !pgn_ok) return stopped(summary, Status::InputError);
  return summary;
}

}  // namespace cqlindex::exec
