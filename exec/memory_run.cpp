// A served run's view of an output game: its tags, and the comments the query adds by ply.
#include "exec/memory_run.h"

#include "engine/pgn/game.h"
#include "engine/pgn/reader.h"
#include "engine/pgn/writer.h"

namespace cqlindex::exec {

void survive_truncated_inputs() { pgn::PgnFile::survive_shrinking(); }

OutputGame output_game_of(const pgn::Game& game, const std::vector<pgn::AddedComment>& comments) {
  OutputGame out;
  out.number = game.number;
  for (const pgn::Tag& t : game.tags) out.tags.emplace_back(std::string(t.name), std::string(t.value));
  std::vector<bool> on_mainline(game.nodes.size(), false);
  for (pgn::NodeIndex n = 0; n != pgn::kNoNode && n < game.nodes.size(); n = game.nodes[n].first_child)
    on_mainline[n] = true;
  for (const pgn::AddedComment& c : comments) {
    if (c.remove_original || c.node >= game.nodes.size()) continue;
    out.comments.push_back(AddedText{game.nodes[c.node].ply, bool(on_mainline[c.node]), c.text});
  }
  return out;
}

}  // namespace cqlindex::exec
