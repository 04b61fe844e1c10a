#include "engine/yacpdb/problem.h"

#include <cctype>

#include "engine/pgn/reader.h"
#include "engine/yacpdb/replay.h"
#include "engine/yacpdb/yaml_entries.h"

namespace cqlindex::yacpdb {

namespace {

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string> split_list(std::string_view s) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t semi = s.find(';', pos);
    if (semi == std::string_view::npos) semi = s.size();
    std::string item = trim(s.substr(pos, semi - pos));
    if (!item.empty()) out.push_back(item);
    pos = semi + 1;
  }
  return out;
}

// "2009.02.??" -> {2009, 2, 0}; digits only, '?' fields unknown.
EntryDate parse_pgn_date(std::string_view s) {
  EntryDate d;
  auto field = [&](size_t at, size_t len) {
    if (at + len > s.size()) return 0;
    int v = 0;
    for (size_t i = at; i < at + len; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(s[i]))) return 0;
      v = v * 10 + (s[i] - '0');
    }
    return v;
  };
  d.year = field(0, 4);
  if (d.year && s.size() >= 7 && s[4] == '.') d.month = field(5, 2);
  if (d.month && s.size() >= 10 && s[7] == '.') d.day = field(8, 2);
  if (d.month > 12) d.month = d.day = 0;
  if (d.day > 31) d.day = 0;
  return d;
}

char code_of(chess::PieceType pt) {
  switch (pt) {
    case chess::KING: return 'K';
    case chess::QUEEN: return 'Q';
    case chess::ROOK: return 'R';
    case chess::BISHOP: return 'B';
    case chess::KNIGHT: return 'S';
    default: return 'P';
  }
}

// Copies the PGN tree under pgn node `from` to tree node `to`.
void copy_children(const pgn::Game& game, pgn::NodeIndex from, SolutionTree& tree, int32_t to) {
  for (pgn::NodeIndex c = game.nodes[from].first_child; c != pgn::kNoNode; c = game.nodes[c].next_sibling) {
    TreeNode node;
    node.move = game.nodes[c].move;
    node.kind = node.move.is_null() ? TreeNode::Kind::Null : TreeNode::Kind::Move;
    node.position = tree.nodes[to].position;
    node.position.do_move(node.move);
    int32_t index = tree.add(to, std::move(node));
    copy_children(game, c, tree, index);
  }
}

}  // namespace

Problem problem_from_game(const pgn::Game& game, std::string_view text, const std::string& file) {
  Problem p;
  Entry& e = p.entry;
  e.format = Entry::Format::Pgn;
  e.file = file;
  e.number = static_cast<int>(game.number);
  e.line = static_cast<int>(game.first_line);
  e.text = std::string(text);
  auto tag = [&](std::string_view name) { return std::string(game.tag(name).value_or("")); };
  e.authors = split_list(tag("Composer"));
  if (e.authors.empty()) e.authors = split_list(tag("White"));
  e.source = tag("Source");
  if (e.source.empty()) e.source = tag("Event");
  e.date = parse_pgn_date(tag("Date"));
  e.stipulation = tag("Stipulation");
  e.options = split_list(tag("Options"));
  e.keywords = split_list(tag("Keywords"));
  e.judges = split_list(tag("Judge"));
  e.reprint_types = split_list(tag("ReprintType"));
  e.tourney = tag("Tourney");
  e.distinction = tag("Award");
  e.source_id = tag("SourceId");
  e.issue_id = tag("IssueId");
  std::string id = trim(tag("YacpdbId"));
  if (!id.empty() && id.size() < 12 && id.find_first_not_of("0123456789") == std::string::npos) e.id = std::stoll(id);
  if (auto fen = game.tag("FEN")) e.fen = std::string(*fen);
  for (chess::Bitboard b = game.start.pieces(); b;) {
    chess::Square s = chess::pop_lsb(b);
    chess::Piece pc = game.start.piece_on(s);
    e.pieces.push_back(DiagramPiece{
        chess::color_of(pc) == chess::WHITE ? 'w' : 'b', std::string(1, code_of(chess::type_of(pc))), {}, int(s)});
  }

  TreeNode root;
  root.kind = TreeNode::Kind::Root;
  root.position = game.start;
  p.tree.add(-1, root);
  TreeNode twin = root;
  twin.kind = TreeNode::Kind::Twin;
  twin.label = "a";
  int32_t twin_index = p.tree.add(0, std::move(twin));
  copy_children(game, 0, p.tree, twin_index);
  p.tree.complete = game.status == pgn::GameStatus::Ok;
  for (const pgn::PgnError& err : game.errors)
    if (err.severity != pgn::Severity::Warning) {
      p.tree.complete = false;
      p.tree.error = std::to_string(err.line) + ":" + std::to_string(err.col) + ": " + err.message;
      break;
    }
  if (!p.tree.complete && p.tree.error.empty()) p.tree.error = "the game could not be read";
  return p;
}

ProblemFile read_pgn_problems(std::string_view text, const std::string& file) {
  ProblemFile out;
  pgn::GameReader reader(text);
  pgn::Game game;
  while (reader.next(game)) {
    for (const pgn::PgnError& err : game.errors) out.errors.push_back(pgn::format_error(file, err));
    out.problems.push_back(problem_from_game(game, text.substr(game.offset, game.length), file));
  }
  return out;
}

bool is_yaml_file(const std::string& path) {
  auto ends_with = [&](std::string_view suffix) {
    if (path.size() < suffix.size()) return false;
    for (size_t i = 0; i < suffix.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(path[path.size() - suffix.size() + i])) != suffix[i]) return false;
    return true;
  };
  return ends_with(".olv") || ends_with(".yaml") || ends_with(".yml");
}

ProblemFile read_problem_file(const std::string& path) {
  ProblemFile out;
  if (is_yaml_file(path)) {
    YamlReadResult yaml = read_yaml_file(path);
    out.errors = std::move(yaml.errors);
    for (Entry& e : yaml.entries) {
      for (const std::string& problem : e.problems) out.errors.push_back(path + ":" + problem);
      Problem p;
      p.tree = replay_solution(e);
      p.entry = std::move(e);
      out.problems.push_back(std::move(p));
    }
    return out;
  }
  std::string error;
  auto file = pgn::PgnFile::open(path, &error);
  if (!file) {
    out.errors.push_back(path + ": " + error);
    return out;
  }
  ProblemFile read = read_pgn_problems(file->text(), path);
  if (file->shrunk()) {  // its lost pages read as zeros (a server's: pgn::PgnFile::survive_shrinking)
    out.errors.push_back(path + " changed while it was read (it is now shorter than when it was opened): run "
                                "again once nothing writes to it");
    return out;  // no problems: the read fails
  }
  return read;
}

}  // namespace cqlindex::yacpdb
