// A small hand-written parser for CQL's options: they take a variable number of words
// (`-similarposition nosort notransform FILE`, `-gamenumber 5 10`), which Boost.Program_options fits badly.
#include "cli/run_options.h"

#include "cli/command_line.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace cqlindex::cli {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool is_integer(const std::string& s) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  return i < s.size() && std::all_of(s.begin() + i, s.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string cql_quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += "\"\\\"\"";
    else if (c == '\\') out += "\"\\\\\"";
    else out += c;
  }
  return out + "\"";
}

// The command line's words after the command, and the one being read.
class Words {
 public:
  explicit Words(std::vector<std::string> words) : words_(std::move(words)) {}
  // Returns whether every word has been read.
  bool done() const { return at_ >= words_.size(); }
  // Returns the word being read.
  const std::string& current() const { return words_[at_]; }
  void advance() { ++at_; }
  // Returns the word after the current one, or nothing at the end.
  std::optional<std::string> peek() const {
    if (at_ + 1 >= words_.size()) return std::nullopt;
    return words_[at_ + 1];
  }
  // Returns the word after the current one, which becomes the current one; nothing at the end.
  std::optional<std::string> take() {
    if (at_ + 1 >= words_.size()) return std::nullopt;
    return words_[++at_];
  }
  // Returns whether one integer, or two, follow: read into `r` (one integer is the range lo..lo).
  bool take_range(std::optional<std::pair<long, long>>& r) {
    if (!peek() || !is_integer(*peek())) return false;
    long lo = std::strtol(take()->c_str(), nullptr, 10), hi = lo;
    if (peek() && is_integer(*peek())) hi = std::strtol(take()->c_str(), nullptr, 10);
    r = std::make_pair(lo, hi);
    return true;
  }

 private:
  std::vector<std::string> words_;
  size_t at_ = 0;
};

// What an option family answers for an option `opt` (lowercase, dashes dropped; `a` as written): nothing when
// the option is not one of its own, "" when it is taken, else the message refusing it.
using Answer = std::optional<std::string>;
constexpr const char* kTaken = "";

// Returns the answer for the options naming the input, the output, the index and what to stop after.
Answer file_option(const std::string& opt, const std::string& a, Words& w, RunOptions& o) {
  std::optional<std::string> v;
  if (opt == "i" || opt == "input") {
    if (!(v = w.take())) return "option " + a + " needs a file name";
    (o.input.empty() ? o.input : o.more_inputs.emplace_back()) = *v;  // repeated: a repository
  } else if (opt == "o" || opt == "output") {
    if (!(v = w.take())) return "option " + a + " needs a file name";
    o.output = *v;
  } else if (opt == "index") {
    if (!(v = w.take())) return "option " + a + " needs a directory";
    o.index_dir = *v;
  } else if (opt == "no-index" || opt == "noindex") {
    o.no_index = true;
  } else if (opt == "parse") {
    o.parse_only = true;
  } else if (opt == "lex") {
    o.lex_only = true;
  } else {
    return std::nullopt;
  }
  return kTaken;
}

// Returns the answer for the options that add CQL filters to the query (ANDed with its body, like CQL's
// {filters}), and the transforms applied to it.
Answer filter_option(const std::string& opt, const std::string& a, Words& w, RunOptions& o) {
  static const char* kTransforms[] = {"flip", "flipcolor", "flipvertical", "fliphorizontal", "shift",
                                      "shifthorizontal", "shiftvertical", "rotate90", "rotate45", "reversecolor"};
  std::optional<std::string> v;
  if (opt == "cql") {
    if (!(v = w.take())) return "option " + a + " needs CQL filters";
    o.preamble.push_back(*v);
  } else if (opt == "similarposition") {
    std::string text = "similarposition";
    while (w.peek() && (lower(*w.peek()) == "nosort" || lower(*w.peek()) == "notransform"))
      text += " " + lower(*w.take());
    if (!(v = w.take())) return "option " + a + " needs a .pgn file";
    o.preamble.push_back(text + " " + cql_quote(*v));
  } else if (opt == "fen") {
    if (!(v = w.take())) return "option " + a + " needs a FEN";
    o.preamble.push_back("fen " + cql_quote(*v));
  } else if (opt == "event" || opt == "site") {
    if (!(v = w.take())) return "option " + a + " needs a text";
    o.preamble.push_back(cql_quote(*v) + " in " + opt);
  } else if (opt == "white" || opt == "black") {
    if (!(v = w.take())) return "option " + a + " needs a text";
    o.preamble.push_back("player " + opt + " ~~ " + cql_quote(*v));
  } else if (opt == "player") {
    if (!(v = w.take())) return "option " + a + " needs a name";
    if (!o.player.empty()) return "only one -player is allowed";
    o.player = *v;
  } else if (opt == "result") {
    if (!(v = w.take()) || (*v != "1-0" && *v != "0-1" && *v != "1/2-1/2"))
      return "option " + a + " needs 1-0, 0-1 or 1/2-1/2";
    o.preamble.push_back("result " + *v);
  } else if (opt == "wtm" || opt == "btm" || opt == "virtualmainline") {
    o.preamble.push_back(opt);
    if (opt == "virtualmainline") o.variations = true;
  } else if (std::find(std::begin(kTransforms), std::end(kTransforms), opt) != std::end(kTransforms)) {
    o.transforms.push_back(opt);
  } else if (opt == "assign") {
    const std::optional<std::string> name = w.take(), value = w.take();
    if (!value) return "option " + a + " needs a name and a value";
    o.preamble.push_back(*name + " = " + (is_integer(*value) ? *value : cql_quote(*value)));
  } else {
    return std::nullopt;
  }
  return kTaken;
}

// Returns the answer for the options choosing the games and the moves searched.
Answer games_option(const std::string& opt, const std::string& a, Words& w, RunOptions& o) {
  if (opt == "year") {
    if (!w.take_range(o.year)) return "option " + a + " needs a year (or two)";
  } else if (opt == "g" || opt == "gamenumber") {
    if (!w.take_range(o.gamenumber)) return "option " + a + " needs a game number (or two)";
  } else if (opt == "matchcount") {
    if (!w.take_range(o.matchcount)) return "option " + a + " needs a count (or two)";
  } else if (opt == "variations") {
    o.variations = true;
  } else if (opt == "mainline") {
    o.mainline = true;
  } else {
    return std::nullopt;
  }
  return kTaken;
}

// Returns the answer for the options shaping the output, its comments and what the run shows.
Answer output_option(const std::string& opt, const std::string& a, Words& w, RunOptions& o) {
  std::optional<std::string> v;
  if (opt == "matchstring") {
    if (!(v = w.take())) return "option " + a + " needs a text";
    o.matchstring = *v;
  } else if (opt == "silent") {
    o.silent = true;
  } else if (opt == "quiet") {
    o.quiet = true;
  } else if (opt == "noheader" || opt == "noheaders") {
    o.noheader = true;
  } else if (opt == "alwayscomment") {
    o.alwayscomment = true;
  } else if (opt == "nouniquecomments") {
    o.nouniquecomments = true;
  } else if (opt == "uniquecomments") {
    o.nouniquecomments = false;
  } else if (opt == "nosortcomments") {
    o.nosortcomments = true;
  } else if (opt == "noremovecomment") {
    o.noremovecomment = true;
  } else if (opt == "nosettag") {
    o.nosettag = true;
  } else if (opt == "showmatches") {
    o.showmatches = true;
  } else if (opt == "d" || opt == "debug" || opt == "showoutput" || opt == "showthread" || opt == "nooutputstatus") {
    // progress / debug display only
  } else if (opt == "lineincrement" || opt == "outputbuffer") {
    if (!(v = w.take()) || !is_integer(*v)) return "option " + a + " needs a number";
  } else {
    return std::nullopt;
  }
  return kTaken;
}

// Returns the answer for the options setting the number of threads.
Answer thread_option(const std::string& opt, const std::string& a, Words& w, RunOptions& o) {
  if (opt == "threads") {
    const std::optional<std::string> v = w.take();
    if (!v || !is_integer(*v)) return "option " + a + " needs a positive number";
    if (v->size() > 18) return "option " + a + ": " + thread_count_range(false) + ", not " + *v;  // (atoll overflows)
    const long long threads = std::atoll(v->c_str());
    if (std::string why = thread_count_error(threads, false); !why.empty()) return "option " + a + ": " + why;
    o.threads = int(threads);
  } else if (opt == "s" || opt == "singlethreaded") {
    o.threads = 1;
  } else if (opt == "m" || opt == "multithreaded") {
    o.threads = 0;
  } else {
    return std::nullopt;
  }
  return kTaken;
}

}  // namespace

std::optional<std::string> parse_run_options(int argc, char** argv, RunOptions& o) {
  using Family = Answer (*)(const std::string& opt, const std::string& a, Words& w, RunOptions& o);
  static constexpr Family kFamilies[] = {file_option, filter_option, games_option, output_option, thread_option};
  for (Words w(std::vector<std::string>(argv + 1, argv + argc)); !w.done(); w.advance()) {
    const std::string a = w.current();
    if (a.size() < 2 || a[0] != '-') {
      if (!o.query_file.empty()) return "more than one query file: '" + o.query_file + "' and '" + a + "'";
      o.query_file = a;
      continue;
    }
    const std::string opt = lower(a.substr(a[1] == '-' ? 2 : 1));
    Answer answer;
    for (Family family : kFamilies)
      if ((answer = family(opt, a, w, o))) break;
    if (!answer) return "invalid option: " + a;
    if (!answer->empty()) return *answer;
  }
  return std::nullopt;
}

}  // namespace cqlindex::cli
