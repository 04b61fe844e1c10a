#include "engine/yacpdb/metadata.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "engine/yacpdb/diagram.h"
#include "engine/yacpdb/piece_list.h"
#include "engine/yacpdb/query_parser.h"

namespace cqlindex::yacpdb {

namespace {

char fold(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool is_any(char c) { return c == '*' || c == '%'; }

// Glob match with backtracking over the last wildcard (linear for practical patterns).
bool glob(std::string_view p, std::string_view v) {
  size_t pi = 0, vi = 0, star = std::string_view::npos, mark = 0;
  while (vi < v.size()) {
    if (pi < p.size() && is_any(p[pi])) {
      star = pi++;
      mark = vi;
    } else if (pi < p.size() && fold(p[pi]) == fold(v[vi])) {
      ++pi;
      ++vi;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      vi = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && is_any(p[pi])) ++pi;
  return pi == p.size();
}

bool any_like(std::string_view pattern, const std::vector<std::string>& values) {
  return std::any_of(values.begin(), values.end(), [&](const std::string& v) { return like_match(pattern, v); });
}

// The earliest day an entry date can stand for, as yyyymmdd (0 when the year is unknown).
int earliest_day(const EntryDate& d) {
  if (!d.year) return 0;
  return d.year * 10000 + std::max(d.month, 1) * 100 + std::max(d.day, 1);
}

bool published_after(const Entry& e, const DateSpec& d) {
  int day = earliest_day(e.date);
  if (!day) return false;
  if (d.day) return day > d.year * 10000 + d.month * 100 + d.day;  // a full date: strictly after it
  return day >= d.year * 10000 + std::max(d.month, 1) * 100 + 1;
}

bool with_pieces(const Entry& e, std::string_view list) {
  std::vector<PieceSpec> need = parse_piece_list(list).pieces;
  std::vector<bool> used(e.pieces.size(), false);
  for (const PieceSpec& p : need) {  // each listed piece takes one diagram piece of its kind
    bool found = false;
    for (size_t i = 0; i < e.pieces.size() && !found; ++i)
      if (!used[i] && e.pieces[i].color == p.color && e.pieces[i].code == p.code) used[i] = found = true;
    if (!found) return false;
  }
  return true;
}

int64_t entity_value(std::string_view type, bool any_type, std::string_view name, const Entry& e) {
  auto is = [&](std::string_view t) { return any_type || type == t; };
  bool hit = (is("author") && any_like(name, e.authors)) || (is("judge") && any_like(name, e.judges)) ||
             (is("source") && !e.source.empty() && like_match(name, e.source)) ||
             (is("tourney") && !e.tourney.empty() && like_match(name, e.tourney)) ||
             (is("reprint") && any_like(name, e.reprints)) || (is("keyword") && any_like(name, e.keywords));
  return hit ? 1 : 0;
}

}  // namespace

bool like_match(std::string_view pattern, std::string_view value) { return glob(pattern, value); }

bool text_contains(std::string_view needle, std::string_view haystack) {
  std::string p = "%";
  p += needle;
  p += "%";
  return glob(p, haystack);
}

bool matrix_match(const Entry& e, std::string_view list, bool xshift, bool yshift, std::string_view transforms) {
  PlacementList pattern = parse_placement_list(list);
  if (pattern.error || pattern.pieces.empty()) return false;
  const DiagramPiece* board[64] = {};
  for (const DiagramPiece& d : e.pieces) board[d.square] = &d;
  // the 8 symmetries of the square board about its centre, identity first, left-right reflection second
  auto transform = [](int t, int f, int r) -> std::pair<int, int> {
    switch (t) {
      case 0: return {f, r};
      case 1: return {7 - f, r};
      case 2: return {f, 7 - r};
      case 3: return {7 - f, 7 - r};
      case 4: return {r, f};
      case 5: return {7 - r, f};
      case 6: return {r, 7 - f};
      default: return {7 - r, 7 - f};
    }
  };
  int count = transforms == "None" ? 1 : transforms == "Mirror" ? 2 : 8;
  std::vector<std::pair<int, int>> squares(pattern.pieces.size());
  for (int t = 0; t < count; ++t) {
    for (size_t i = 0; i < pattern.pieces.size(); ++i)
      squares[i] = transform(t, pattern.pieces[i].file, pattern.pieces[i].rank);
    // the first pattern piece fixes the shift: try it on every diagram piece of its kind
    const PieceSpec& pivot = pattern.pieces[0].piece;
    for (const DiagramPiece& d : e.pieces) {
      if (d.color != pivot.color || d.code != pivot.code) continue;
      int dx = d.square % 8 - squares[0].first, dy = d.square / 8 - squares[0].second;
      if ((!xshift && dx) || (!yshift && dy)) continue;
      bool all = true;
      for (size_t i = 1; i < squares.size() && all; ++i) {
        int f = squares[i].first + dx, r = squares[i].second + dy;
        const DiagramPiece* q = f >= 0 && f < 8 && r >= 0 && r < 8 ? board[r * 8 + f] : nullptr;
        all = q && q->color == pattern.pieces[i].piece.color && q->code == pattern.pieces[i].piece.code;
      }
      if (all) return true;
    }
  }
  return false;
}

int64_t metadata_value(const PredicateCall& call, const Entry& e, const text::Regex* stip_regex) {
  const std::vector<Param>& ps = call.params;
  auto any = [&](size_t i) { return ps[i].wildcard; };
  switch (call.info->id) {
    case PredicateId::Matrix: return !any(0) && matrix_match(e, ps[0].text, true, true, "All");
    case PredicateId::MatrixExtended:
      return !any(0) &&
             matrix_match(e, ps[0].text, any(1) || ps[1].boolean, any(2) || ps[2].boolean, any(3) ? "All" : ps[3].text);
    case PredicateId::Entity: return any(1) ? 1 : entity_value(ps[0].text, any(0), ps[1].text, e);
    case PredicateId::Author: return any(0) ? !e.authors.empty() : any_like(ps[0].text, e.authors);
    case PredicateId::Source: return any(0) ? !e.source.empty() : like_match(ps[0].text, e.source);
    case PredicateId::ReprintType: return any(0) ? !e.reprint_types.empty() : any_like(ps[0].text, e.reprint_types);
    case PredicateId::SourceId: return any(0) ? !e.source_id.empty() : like_match(ps[0].text, e.source_id);
    case PredicateId::IssueId: return any(0) ? !e.issue_id.empty() : like_match(ps[0].text, e.issue_id);
    case PredicateId::PublishedAfter: return any(0) ? earliest_day(e.date) != 0 : published_after(e, ps[0].date);
    case PredicateId::Stip:
      if (any(0)) return !e.stipulation.empty();
      try {
        return stip_regex && stip_regex->match_whole(e.stipulation);
      } catch (const text::RegexTooCostly& error) {
        throw QueryError(ps[0].column, std::string("Stip: ") + error.what());
      }
    case PredicateId::Option: return any(0) ? static_cast<int64_t>(e.options.size()) : any_like(ps[0].text, e.options);
    case PredicateId::Keyword: return any(0) ? !e.keywords.empty() : any_like(ps[0].text, e.keywords);
    case PredicateId::PCount: {
      int64_t n = 0;
      for (const DiagramPiece& d : e.pieces) n += any(0) || d.color == ps[0].color;
      return n;
    }
    case PredicateId::With: return any(0) ? 1 : with_pieces(e, ps[0].text);
    case PredicateId::Fairy: return is_fairy(e);
    case PredicateId::Id: {
      int64_t id = e.id ? *e.id : e.number;
      return any(0) || id == ps[0].integer;
    }
    case PredicateId::Text: return any(0) || text_contains(ps[0].text, e.text);
    default: return 0;
  }
}

}  // namespace cqlindex::yacpdb
