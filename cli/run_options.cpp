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

}  // namespace

std::optional<std::string> parse_run_options(int argc, char** argv, RunOptions& o) {
  std::vector<std::string> args(argv + 1, argv + argc);
  size_t i = 0;
  auto need = [&](const std::string&) -> std::optional<std::string> {
    if (i + 1 >= args.size()) return std::nullopt;
    return args[++i];
  };
  auto range = [&](std::optional<std::pair<long, long>>& r, const std::string& opt) -> bool {
    if (i + 1 >= args.size() || !is_integer(args[i + 1])) return false;
    long lo = std::strtol(args[++i].c_str(), nullptr, 10), hi = lo;
    if (i + 1 < args.size() && is_integer(args[i + 1])) hi = std::strtol(args[++i].c_str(), nullptr, 10);
    (void)opt;
    r = std::make_pair(lo, hi);
    return true;
  };
  static const char* kTransforms[] = {"flip", "flipcolor", "flipvertical", "fliphorizontal", "shift",
                                      "shifthorizontal", "shiftvertical", "rotate90", "rotate45", "reversecolor"};
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-') {
      if (!o.query_file.empty()) return "more than one query file: '" + o.query_file + "' and '" + a + "'";
      o.query_file = a;
      continue;
    }
    std::string opt = lower(a.substr(a[1] == '-' ? 2 : 1));
    std::optional<std::string> v;
    if (opt == "i" || opt == "input") {
      if (!(v = need(a))) return "option " + a + " needs a file name";
      (o.input.empty() ? o.input : o.more_inputs.emplace_back()) = *v;  // repeated: a repository
    } else if (opt == "o" || opt == "output") {
      if (!(v = need(a))) return "option " + a + " needs a file name";
      o.output = *v;
    } else if (opt == "index") {
      if (!(v = need(a))) return "option " + a + " needs a directory";
      o.index_dir = *v;
    } else if (opt == "no-index" || opt == "noindex") {
      o.no_index = true;
    } else if (opt == "parse") {
      o.parse_only = true;
    } else if (opt == "lex") {
      o.lex_only = true;
    } else if (opt == "cql") {
      if (!(v = need(a))) return "option " + a + " needs CQL filters";
      o.preamble.push_back(*v);  // its filters are ANDed with the body, like CQL's {filters}
    } else if (opt == "similarposition") {
      std::string text = "similarposition";
      while (i + 1 < args.size() && (lower(args[i + 1]) == "nosort" || lower(args[i + 1]) == "notransform"))
        text += " " + lower(args[++i]);
      if (!(v = need(a))) return "option " + a + " needs a .pgn file";
      o.preamble.push_back(text + " " + cql_quote(*v));
    } else if (opt == "fen") {
      if (!(v = need(a))) return "option " + a + " needs a FEN";
      o.preamble.push_back("fen " + cql_quote(*v));
    } else if (opt == "event" || opt == "site") {
      if (!(v = need(a))) return "option " + a + " needs a text";
      o.preamble.push_back(cql_quote(*v) + " in " + opt);
    } else if (opt == "white" || opt == "black") {
      if (!(v = need(a))) return "option " + a + " needs a text";
      o.preamble.push_back("player " + opt + " ~~ " + cql_quote(*v));
    } else if (opt == "player") {
      if (!(v = need(a))) return "option " + a + " needs a name";
      if (!o.player.empty()) return "only one -player is allowed";
      o.player = *v;
    } else if (opt == "result") {
      if (!(v = need(a)) || (*v != "1-0" && *v != "0-1" && *v != "1/2-1/2"))
        return "option " + a + " needs 1-0, 0-1 or 1/2-1/2";
      o.preamble.push_back("result " + *v);
    } else if (opt == "wtm" || opt == "btm" || opt == "virtualmainline") {
      o.preamble.push_back(opt);
      if (opt == "virtualmainline") o.variations = true;
    } else if (opt == "year") {
      if (!range(o.year, a)) return "option " + a + " needs a year (or two)";
    } else if (opt == "g" || opt == "gamenumber") {
      if (!range(o.gamenumber, a)) return "option " + a + " needs a game number (or two)";
    } else if (opt == "matchcount") {
      if (!range(o.matchcount, a)) return "option " + a + " needs a count (or two)";
    } else if (opt == "variations") {
      o.variations = true;
    } else if (opt == "mainline") {
      o.mainline = true;
    } else if (std::find(std::begin(kTransforms), std::end(kTransforms), opt) != std::end(kTransforms)) {
      o.transforms.push_back(opt);
    } else if (opt == "assign") {
      if (i + 2 >= args.size()) return "option " + a + " needs a name and a value";
      std::string name = args[++i], value = args[++i];
      o.preamble.push_back(name + " = " + (is_integer(value) ? value : cql_quote(value)));
    } else if (opt == "matchstring") {
      if (!(v = need(a))) return "option " + a + " needs a text";
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
    } else if (opt == "threads") {
      if (!(v = need(a)) || !is_integer(*v)) return "option " + a + " needs a positive number";
      if (v->size() > 18) return "option " + a + ": " + thread_count_range(false) + ", not " + *v;  // (atoll overflows)
      const long long threads = std::atoll(v->c_str());
      if (std::string why = thread_count_error(threads, false); !why.empty()) return "option " + a + ": " + why;
      o.threads = int(threads);
    } else if (opt == "s" || opt == "singlethreaded") {
      o.threads = 1;
    } else if (opt == "m" || opt == "multithreaded") {
      o.threads = 0;
    } else if (opt == "showmatches") {
      o.showmatches = true;
    } else if (opt == "d" || opt == "debug" || opt == "showoutput" || opt == "showthread" || opt == "nooutputstatus") {
      // progress / debug display only
    } else if (opt == "lineincrement" || opt == "outputbuffer") {
      if (!(v = need(a)) || !is_integer(*v)) return "option " + a + " needs a number";
    } else {
      return "invalid option: " + a;
    }
  }
  return std::nullopt;
}

}  // namespace cqlindex::cli
