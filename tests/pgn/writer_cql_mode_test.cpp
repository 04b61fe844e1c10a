// Golden test of the writer on CQL's real inputs: each game of a CQL 6.2 output file is looked up (by its
// `Game number N`) in the input file CQL read, and that input game, written with the comments CQL added,
// must give CQL's bytes. This checks what the round trip cannot: tag order and normalisation from raw input
// tags, comment normalisation of CRLF/Latin-1 input, SAN regenerated from the input's moves, the result.
//
// CQL's additions per position are taken from the output itself: the output comment minus the input comment
// (the merge rule of merge_cql_comment). Everything else is compared byte for byte.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/pgn/game_splitter.h"
#include "engine/pgn/reader.h"
#include "engine/pgn/writer.h"
#include "support/shared_data.h"

namespace fs = std::filesystem;
using namespace cqlindex;

namespace {

fs::path data_dir() { return cqlindex::test::shared_data(""); }
const fs::path kExpected = data_dir() / "cql-examples" / "expected-output";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// An input file CQL read, with where each of its games is.
struct Input {
  std::string text;
  std::vector<pgn::GameSpan> spans;  // by game number - 1
};

// The bytes `xz -dc` makes of an .xz file; empty if that fails.
std::string xz_decompress(const fs::path& p) {
  std::string out;
  std::string cmd = "xz -dc '" + p.string() + "' 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return out;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  if (pclose(pipe) != 0) out.clear();
  return out;
}

const Input& input_file(const fs::path& p) {
  static std::map<fs::path, std::unique_ptr<Input>> cache;
  auto& slot = cache[p];
  if (!slot) {
    slot = std::make_unique<Input>();
    slot->text = p.extension() == ".xz" ? xz_decompress(p) : slurp(p);
    pgn::GameSplitter splitter(slot->text);
    pgn::GameSpan span;
    while (splitter.next(span)) slot->spans.push_back(span);
  }
  return *slot;
}

// The comment text CQL wrote, its own line breaks undone: a break that replaced a space becomes the space
// again, a break after a space or at either end goes.
std::string unwrap_text(std::string_view s) {
  std::string r;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\n') {
      r += s[i];
    } else if (i != 0 && i + 1 != s.size() && s[i - 1] != ' ') {
      r += ' ';
    }
  }
  return r;
}
std::optional<std::string> unwrap(const pgn::GameComments::Text& s) {
  if (!s) return std::nullopt;
  return unwrap_text(*s);
}
// A comment place's text as an owned string.
std::optional<std::string> owned(const pgn::GameComments::Text& s) {
  if (!s) return std::nullopt;
  return std::string(*s);
}

// The number N of the last "Game number N" in the text, 0 if none.
uint64_t game_number(std::string_view s) {
  size_t at = s.rfind("Game number ");
  if (at == std::string_view::npos) return 0;
  uint64_t n = 0;
  for (size_t i = at + 12; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) n = n * 10 + uint64_t(s[i] - '0');
  return n;
}

// Input game `n` of `in` parsed into `g`; false if there is no such game.
bool parse_input_game(const Input& in, uint64_t n, pgn::Game& g) {
  if (n == 0 || n > in.spans.size()) return false;
  const pgn::GameSpan& s = in.spans[n - 1];
  pgn::parse_game(std::string_view(in.text).substr(s.offset, s.length),
                  pgn::GameLocation{s.number, s.offset, s.first_line, s.first_col}, g);
  return true;
}

// What CQL added at one place: the output comment minus the input comment; false when the output comment
// does not extend the input comment that way.
bool derive_addition(const std::optional<std::string>& out, const std::optional<std::string>& in,
                     std::optional<std::string>& added) {
  added.reset();
  if (out == in) return true;
  if (!out) return false;
  std::string prefix;
  if (in && !in->empty()) {
    // The input comment as CQL rewrites it when it appends (the cleaning), plus the joining space.
    std::string probe = *pgn::merge_cql_comment(std::string_view(*in), std::vector<std::string_view>{"x"});
    prefix = probe.substr(0, probe.size() - 1);
  }
  if (out->compare(0, prefix.size(), prefix) != 0) return false;
  added = out->substr(prefix.size());
  return !added->empty();
}

struct SetResult {
  size_t files = 0, passed = 0, games = 0;
  std::vector<std::string> failures;
  std::vector<std::string> excepted;  // files with no usable input, named in the report
};

// Checks one CQL output file against its input; "" when every game matches.
std::string check_file(const fs::path& golden_path, const Input& input, size_t* games) {
  std::string golden_text = slurp(golden_path);
  pgn::GameReader reader(golden_text);
  pgn::Game golden, in;
  pgn::WriteOptions verbatim;
  verbatim.comment_text = pgn::CommentText::Verbatim;
  while (reader.next(golden)) {
    ++*games;
    std::string where = "output game " + std::to_string(golden.number);
    pgn::GameComments out_comments = pgn::cql_comments(golden, pgn::CommentText::Verbatim);
    uint64_t n = out_comments.game ? game_number(unwrap_text(*out_comments.game)) : 0;
    if (!parse_input_game(input, n, in)) return where + ": no input game " + std::to_string(n);
    where += " (input game " + std::to_string(n) + ")";
    if (in.nodes.size() != golden.nodes.size()) return where + ": move trees differ in size";
    for (size_t i = 1; i < in.nodes.size(); ++i)
      if (in.nodes[i].move != golden.nodes[i].move || in.nodes[i].parent != golden.nodes[i].parent)
        return where + ": move trees differ at node " + std::to_string(i);

    pgn::GameComments in_comments = pgn::cql_comments(in, pgn::CommentText::AsCqlReads);
    std::vector<pgn::AddedComment> added;
    std::optional<std::string> a;
    if (!derive_addition(unwrap(out_comments.game), owned(in_comments.game), a))
      return where + ": game comment is not the input's plus additions";
    if (a) added.push_back({0, *a});
    for (size_t i = 1; i < in.nodes.size(); ++i) {
      if (!derive_addition(unwrap(out_comments.after[i]), owned(in_comments.after[i]), a))
        return where + ": comment after node " + std::to_string(i) + " is not the input's plus additions";
      if (a) added.push_back({pgn::NodeIndex(i), *a});
      if (unwrap(out_comments.variation_start[i]) != owned(in_comments.variation_start[i]))
        return where + ": comment opening the variation at node " + std::to_string(i) + " differs";
    }

    std::string want, got;
    pgn::write_game(golden, {}, verbatim, want);  // == the file's bytes (see writer_roundtrip_test)
    pgn::write_game(in, added, pgn::WriteOptions{}, got);
    if (want != got) {
      size_t i = 0;
      while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
      size_t b = want.rfind('\n', i ? i - 1 : 0);
      b = (b == std::string::npos || i == 0) ? 0 : b + 1;
      return where + ": differs\n    want: " + want.substr(b, want.find('\n', i) - b) +
             "\n    got:  " + got.substr(b, got.find('\n', i) - b);
    }
  }
  return {};
}

SetResult check_set(const fs::path& dir, const std::function<fs::path(const fs::path&)>& input_of) {
  SetResult r;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".pgn") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::string rel = fs::relative(f, kExpected).generic_string();
    fs::path input = input_of(f);
    if (input.extension() == ".xz" && input_file(input).spans.empty()) {
      r.excepted.push_back(rel + " (its input " + input.filename().string() + " could not be decompressed: no xz?)");
      continue;
    }
    ++r.files;
    std::string diff = check_file(f, input_file(input), &r.games);
    if (diff.empty()) ++r.passed;
    else r.failures.push_back(rel + ": " + diff);
  }
  return r;
}

void report(const char* set, const SetResult& r) {
  CHECK(r.files > 0);
  std::string failures;
  for (const std::string& f : r.failures) failures += "\n  " + f;
  for (const std::string& f : r.excepted) WARN(set << ": not compared: " << f);
  INFO(set << ": " << r.passed << " of " << r.files << " files (" << r.games << " games) written as CQL wrote them"
           << failures);
  CHECK(r.failures.empty());
  WARN(set << ": " << r.passed << "/" << r.files << " files, " << r.games << " games written from their input");
}

}  // namespace

TEST_CASE("writer reproduces CQL 6.2 from its input: exalpha-on-cql-sample", "[pgn][writer][golden]") {
  report("exalpha-on-cql-sample", check_set(kExpected / "exalpha-on-cql-sample", [](const fs::path&) {
           return data_dir() / "studies" / "cql-sample.pgn";
         }));
}

TEST_CASE("writer reproduces CQL 6.2 from its input: opening-tactics-rerun-cql62", "[pgn][writer][golden]") {
  report("opening-tactics-rerun-cql62", check_set(kExpected / "opening-tactics-rerun-cql62", [](const fs::path& f) {
           return data_dir() / "cql-examples" / "opening-tactics-frequency" / "output" / f.filename();
         }));
}

TEST_CASE("writer reproduces CQL 6.2 from its input: similarposition", "[pgn][writer][golden]") {
  report("similarposition", check_set(kExpected / "similarposition", [](const fs::path& f) -> fs::path {
           // The repository of this run is the 116,573-game train file, kept as .xz (decompressed by xz).
           if (f.filename().string().rfind("cql-sample-fen-vs-gnuchess-train", 0) == 0)
             return data_dir() / "gnuchess-book" / "book_1.02.train-116573.pgn.xz";
           return data_dir() / "studies" / "cql-sample.pgn";
         }));
}

TEST_CASE("writer reproduces CQL 6.2 from its input: corpus-runs", "[pgn][writer][golden]") {
  static const std::map<std::string, fs::path> inputs = {
      {"book_1.02.small-1005", data_dir() / "gnuchess-book" / "book_1.02.small-1005.pgn"},
      {"world_matches.train", data_dir() / "jvanreek-annotated" / "world_matches.train.pgn"},
      {"dortmund1928.train", data_dir() / "jvanreek-annotated" / "dortmund1928.train.pgn"},
      {"mate_in_2", data_dir() / "problems" / "mate-in-n-from-games" / "mate_in_2.pgn"},
  };
  report("corpus-runs", check_set(kExpected / "corpus-runs", [](const fs::path& f) {
           std::string input = fs::relative(f, kExpected / "corpus-runs").begin()->string();
           return inputs.at(input);
         }));
}
