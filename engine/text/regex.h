#pragma once
// The one regular-expression engine of cqlindex (CQL's `~~` and `while (s ~~ re)`, -player, YACPDB's Stip and
// the solution-text scanners): PCRE2's interpretive matcher, which keeps its backtracking frames on the heap (a
// long subject cannot overflow the machine stack, as std::regex's recursion per character did) and stops after
// a bounded amount of work (an exponential pattern is refused, never left running). The syntax is ECMAScript's
// as far as PCRE2 follows it, which covers what CQL 6.2 (std::regex, ECMAScript) accepts in practice: classes,
// groups, alternation, greedy and lazy repeats, backreferences, lookahead, \d \w \s \b.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cqlindex::text {

// A pattern that does not compile; what() names the reason and the offset in the pattern.
struct RegexError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A match that needed more work or memory than a match may take (see Regex::kMatchLimit); what() says so.
struct RegexTooCostly : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Where a group of a match lies in the subject; begin < 0: the group took no part in the match.
struct RegexGroup {
  std::ptrdiff_t begin = -1, end = -1;
  bool matched() const { return begin >= 0; }
  // The group's text in the subject it was matched in (empty when it did not take part).
  std::string_view in(std::string_view subject) const {
    return matched() ? subject.substr(std::size_t(begin), std::size_t(end - begin)) : std::string_view();
  }
};

class Regex {
 public:
  // Backtracking steps one match may take, and the heap its frames may hold: far above what a sane pattern
  // needs on a long game's text, and a bounded delay (about a second at most) before an exponential one stops.
  static constexpr uint32_t kMatchLimit = 5'000'000;
  static constexpr uint32_t kHeapLimitKiB = 256 * 1024;

  // Throws RegexError when the pattern does not compile.
  explicit Regex(std::string_view pattern, bool ignore_case = false);
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;

  // Whether the pattern matches somewhere in subject at or after `from` (the search's start; `^` still means
  // the subject's start); the groups (0: the whole match) go to `groups` when given. anchored: only a match
  // beginning at `from`; not_empty_at_start: no empty match at `from` (what a global iteration needs after an
  // empty match). Throws RegexTooCostly when the match limit is reached.
  bool search(std::string_view subject, std::vector<RegexGroup>* groups = nullptr, std::size_t from = 0,
              bool anchored = false, bool not_empty_at_start = false) const;
  // Whether the pattern matches the whole subject (std::regex_match).
  bool match_whole(std::string_view subject, std::vector<RegexGroup>* groups = nullptr) const;
  // Calls f(groups) for each successive non-overlapping match in subject, as std::sregex_iterator visits them
  // (after an empty match the next one may not be empty at the same place); stops when f returns false.
  template <class F> void for_each_match(std::string_view subject, F f) const {
    std::vector<RegexGroup> g;
    std::size_t at = 0;
    bool after_empty = false;
    while (at <= subject.size()) {
      if (!search(subject, &g, at, after_empty, after_empty)) {
        if (!after_empty) return;
        after_empty = false;  // no non-empty match at the empty match's place: the search moves on one byte
        ++at;
        continue;
      }
      if (!f(static_cast<const std::vector<RegexGroup>&>(g))) return;
      after_empty = g[0].begin == g[0].end;
      at = std::size_t(g[0].end);
    }
  }
  std::size_t group_count() const;  // the groups of the pattern, the whole match included

 private:
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace cqlindex::text
