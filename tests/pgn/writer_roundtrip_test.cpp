// Golden test of the writer: every PGN file CQL 6.2 wrote (shared/data/cql-examples/expected-output), read with
// our reader and written back with our writer, must come out byte for byte the same. One TEST_CASE per set;
// every failing file is named with the first line that differs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/pgn/reader.h"
#include "engine/pgn/writer.h"
#include "support/shared_data.h"

namespace fs = std::filesystem;
using namespace cqlindex;

namespace {

fs::path expected_dir() { return cqlindex::test::shared_data("cql-examples/expected-output"); }

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The file read game by game and written back as CQL writes it.
std::string rewrite(const std::string& text, size_t* games) {
  std::string out;
  out.reserve(text.size() + 64);
  pgn::GameReader reader(text);
  pgn::Game game;
  pgn::WriteOptions options;
  options.comment_text = pgn::CommentText::Verbatim;  // CQL's output is already normalised and wrapped
  *games = 0;
  while (reader.next(game)) {
    pgn::write_game(game, {}, options, out);
    ++*games;
  }
  return out;
}

// "" when equal, else where and how the texts first differ.
std::string first_difference(const std::string& want, const std::string& got) {
  if (want == got) return {};
  size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  size_t line = 1 + size_t(std::count(want.begin(), want.begin() + long(i), '\n'));
  auto line_at = [&](const std::string& s) {
    size_t b = s.rfind('\n', i == 0 ? 0 : i - 1);
    b = (b == std::string::npos || i == 0) ? 0 : b + 1;
    size_t e = s.find('\n', i);
    return s.substr(b, (e == std::string::npos ? s.size() : e) - b);
  };
  return "line " + std::to_string(line) + "\n    want: " + line_at(want) + "\n    got:  " + line_at(got);
}

// Files CQL wrote that cannot come back unchanged for a reason outside the writer. Empty: none known.
const std::map<std::string, std::string> kKnownDifferences = {};

struct SetResult {
  size_t files = 0, passed = 0, games = 0;
  std::vector<std::string> failures;
};

SetResult check_set(const fs::path& dir) {
  SetResult r;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".pgn") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::string rel = fs::relative(f, expected_dir()).generic_string();
    if (kKnownDifferences.count(rel)) continue;
    ++r.files;
    std::string want = slurp(f);
    size_t games = 0;
    std::string diff = first_difference(want, rewrite(want, &games));
    r.games += games;
    if (diff.empty()) ++r.passed;
    else r.failures.push_back(rel + ": " + diff);
  }
  return r;
}

void report(const char* set, const SetResult& r) {
  CHECK(r.files > 0);
  std::string failures;
  for (const std::string& f : r.failures) failures += "\n  differs: " + f;
  INFO(set << ": " << r.passed << " of " << r.files << " files (" << r.games << " games) round-trip" << failures);
  CHECK(r.failures.empty());
  WARN(set << ": " << r.passed << "/" << r.files << " files, " << r.games << " games round-trip");
}

}  // namespace

TEST_CASE("writer round-trips CQL 6.2 output: exalpha-on-cql-sample", "[pgn][writer][golden]") {
  report("exalpha-on-cql-sample", check_set(expected_dir() / "exalpha-on-cql-sample"));
}

TEST_CASE("writer round-trips CQL 6.2 output: opening-tactics-rerun-cql62", "[pgn][writer][golden]") {
  report("opening-tactics-rerun-cql62", check_set(expected_dir() / "opening-tactics-rerun-cql62"));
}

TEST_CASE("writer round-trips CQL 6.2 output: similarposition", "[pgn][writer][golden]") {
  report("similarposition", check_set(expected_dir() / "similarposition"));
}

TEST_CASE("writer round-trips CQL 6.2 output: corpus-runs", "[pgn][writer][golden]") {
  report("corpus-runs", check_set(expected_dir() / "corpus-runs"));
}
