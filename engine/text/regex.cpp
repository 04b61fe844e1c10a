#define PCRE2_CODE_UNIT_WIDTH 8
#include "engine/text/regex.h"

#include <pcre2.h>

namespace cqlindex::text {
namespace {

std::string pcre2_message(int code) {
  PCRE2_UCHAR buffer[256];
  const int n = pcre2_get_error_message(code, buffer, sizeof buffer);
  return n < 0 ? "error " + std::to_string(code) : std::string(reinterpret_cast<const char*>(buffer), size_t(n));
}

// The limits every match runs under (one context, shared: it is only read).
const pcre2_match_context* limits() {
  static pcre2_match_context* const context = [] {
    pcre2_match_context* c = pcre2_match_context_create(nullptr);
    pcre2_set_match_limit(c, Regex::kMatchLimit);
    pcre2_set_heap_limit(c, Regex::kHeapLimitKiB);
    return c;
  }();
  return context;
}

// A thread's match data (the groups' offsets and the matcher's heap frames, kept from one match to the next),
// grown to the most groups a pattern matched on this thread has needed.
pcre2_match_data* match_data_for(uint32_t pairs) {
  struct Held {
    pcre2_match_data* data = nullptr;
    uint32_t pairs = 0;
    ~Held() { pcre2_match_data_free(data); }
  };
  thread_local Held held;
  if (held.pairs < pairs) {
    pcre2_match_data_free(held.data);
    held.data = pcre2_match_data_create(pairs, nullptr);
    if (!held.data) throw std::bad_alloc();
    held.pairs = pairs;
  }
  return held.data;
}

}  // namespace

struct Regex::Compiled {
  pcre2_code* code = nullptr;
  uint32_t groups = 1;
  ~Compiled() { pcre2_code_free(code); }
};

Regex::Regex(std::string_view pattern, bool ignore_case) : compiled_(std::make_unique<Compiled>()) {
  // ECMAScript's reading where PCRE2 differs by default: `$` only at the very end, \u and \x as ECMAScript
  // writes them, a backreference to a group that did not take part matches the empty string, and `.` stops at
  // CR as at LF
  uint32_t options = PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_BSUX | PCRE2_MATCH_UNSET_BACKREF;
  if (ignore_case) options |= PCRE2_CASELESS;
  pcre2_compile_context* cc = pcre2_compile_context_create(nullptr);
  if (!cc) throw std::bad_alloc();
  pcre2_set_newline(cc, PCRE2_NEWLINE_ANYCRLF);
  int error = 0;
  PCRE2_SIZE offset = 0;
  compiled_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), options, &error,
                                  &offset, cc);
  pcre2_compile_context_free(cc);
  if (!compiled_->code)
    throw RegexError(pcre2_message(error) + " at offset " + std::to_string(offset) + " of the pattern");
  uint32_t captures = 0;
  pcre2_pattern_info(compiled_->code, PCRE2_INFO_CAPTURECOUNT, &captures);
  compiled_->groups = captures + 1;
}

Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

std::size_t Regex::group_count() const { return compiled_->groups; }

// Runs one match of `code` on subject from `from` with the matcher's options; the groups to `groups`.
static bool run_match(const pcre2_code* code, uint32_t group_count, std::string_view subject,
                      std::vector<RegexGroup>* groups, std::size_t from, uint32_t options) {
  pcre2_match_data* data = match_data_for(group_count);
  const int rc = pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), from, options, data,
                             const_cast<pcre2_match_context*>(limits()));
  if (rc == PCRE2_ERROR_NOMATCH) return false;
  if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT)
    throw RegexTooCostly("the regular expression needs more work than a match may take on a text of " +
                         std::to_string(subject.size()) + " bytes (" + pcre2_message(rc) + ")");
  if (rc == PCRE2_ERROR_NOMEMORY) throw std::bad_alloc();
  if (rc < 0) throw RegexTooCostly("the regular expression could not be matched: " + pcre2_message(rc));
  if (groups) {
    const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(data);
    groups->assign(group_count, RegexGroup{});
    for (uint32_t i = 0; i < group_count && i < uint32_t(rc); ++i)
      if (ov[2 * i] != PCRE2_UNSET) (*groups)[i] = {std::ptrdiff_t(ov[2 * i]), std::ptrdiff_t(ov[2 * i + 1])};
  }
  return true;
}

bool Regex::search(std::string_view subject, std::vector<RegexGroup>* groups, std::size_t from, bool anchored,
                   bool not_empty_at_start) const {
  uint32_t options = 0;
  if (anchored) options |= PCRE2_ANCHORED;
  if (not_empty_at_start) options |= PCRE2_NOTEMPTY_ATSTART;
  return run_match(compiled_->code, compiled_->groups, subject, groups, from, options);
}

bool Regex::match_whole(std::string_view subject, std::vector<RegexGroup>* groups) const {
  return run_match(compiled_->code, compiled_->groups, subject, groups, 0, PCRE2_ANCHORED | PCRE2_ENDANCHORED);
}

}  // namespace cqlindex::text
