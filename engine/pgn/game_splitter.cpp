// Game boundaries: a line-aware byte scan that knows tags, comments and game-termination markers.
#include "engine/pgn/game_splitter.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "engine/pgn/lexer.h"

namespace cqlindex::pgn {
namespace {

bool is_break(char c) { return c == '\n' || c == '\r'; }

// True if the line starting at q opens with an `[Event ` tag (leading blanks allowed).
bool is_event_line(std::string_view t, size_t q) {
  while (q < t.size() && (t[q] == ' ' || t[q] == '\t')) ++q;
  if (t.substr(q, 6) != "[Event") return false;
  q += 6;
  return q < t.size() && (t[q] == ' ' || t[q] == '\t' || t[q] == '"');
}

// Bytes after which a movetext line needs the careful scan: a line without them holds only moves, move
// numbers, NAGs and variations, which never end a game or open a comment.
constexpr std::string_view kLineStopBytes = "\n\r{;-*[%";
struct LineStops {
  bool v[256] = {};
  constexpr LineStops() {
    for (unsigned char c : kLineStopBytes) v[c] = true;
  }
};
constexpr LineStops kLineStops{};

// Returns the position of the first byte of kLineStops at or after `from` in t, or t.size(). (Sixteen bytes at a
// time where SSE2 is there, every x86-64: a table look-up a byte was a quarter of the splitter's time.)
size_t first_line_stop(std::string_view t, size_t from) {
  const size_t n = t.size();
#ifdef __SSE2__
  __m128i stops[kLineStopBytes.size()];
  for (size_t i = 0; i < kLineStopBytes.size(); ++i) stops[i] = _mm_set1_epi8(kLineStopBytes[i]);
  for (; from + 16 <= n; from += 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t.data() + from));
    __m128i hit = _mm_setzero_si128();
    for (const __m128i& stop : stops) hit = _mm_or_si128(hit, _mm_cmpeq_epi8(bytes, stop));
    if (const int mask = _mm_movemask_epi8(hit)) return from + size_t(__builtin_ctz(unsigned(mask)));
  }
#endif
  while (from < n && !kLineStops.v[uint8_t(t[from])]) ++from;
  return from;
}

// The position of the first non-blank byte of the line starting at q.
size_t first_nonblank(std::string_view t, size_t q) {
  while (q < t.size() && (t[q] == ' ' || t[q] == '\t')) ++q;
  return q;
}

}  // namespace

GameSplitter::GameSplitter(std::string_view text, uint64_t first_number) : text_(text), number_(first_number - 1) {
  if (text_.size() >= 3 && uint8_t(text_[0]) == 0xEF && uint8_t(text_[1]) == 0xBB && uint8_t(text_[2]) == 0xBF)
    p_ = line_start_ = 3;
}

size_t GameSplitter::line_nonblank() {
  if (nonblank_line_ != line_start_) {
    nonblank_line_ = line_start_;
    nonblank_at_ = first_nonblank(text_, line_start_);
  }
  return nonblank_at_;
}

void GameSplitter::new_line(size_t next_line_start) {
  ++line_;
  line_start_ = next_line_start;
}

bool GameSplitter::begin_game(size_t q, State state, GameSpan& span) {
  bool completed = false;
  if (started_) {
    span.number = number_;
    span.offset = start_;
    span.length = q - start_;
    span.first_line = start_line_;
    span.first_col = start_col_;
    completed = true;
  }
  started_ = true;
  seen_event_ = false;
  start_ = q;
  start_line_ = line_;
  start_col_ = uint32_t(q - line_start_ + 1);
  ++number_;
  state_ = state;
  return completed;
}

bool GameSplitter::next(GameSpan& span) {
  const std::string_view t = text_;
  const size_t n = t.size();
  while (p_ < n) {
    const char c = t[p_];
    if (is_break(c)) {
      size_t q = p_ + 1;
      if (c == '\r' && q < n && t[q] == '\n') ++q;
      new_line(q);
      p_ = q;
      continue;
    }
    if (p_ == line_start_) {
      if (state_ == State::Movetext && !in_comment_ && !open_quote_) {  // fast path: a plain line skipped whole
        size_t e = p_;
        for (;;) {
          e = first_line_stop(t, e);
          // A '-' between two O's is castling (O-O, O-O-O), never a marker: a third of a game's movetext lines
          // hold one, and they left this path for the token by token scan.
          if (e + 1 < n && t[e] == '-' && e > p_ && t[e - 1] == 'O' && t[e + 1] == 'O') {
            ++e;
            continue;
          }
          break;
        }
        if (e == n || t[e] == '\n') {
          p_ = e;
          continue;
        }
        // The tokens before the stop's are plain moves: the token by token scan starts at the stop's token (a
        // line ending in its marker was scanned token by token from its start).
        size_t token = e;
        while (token > p_ && !charclass::is_delim(t[token - 1])) --token;
        if (token > p_) {
          p_ = token;
          continue;
        }
      }
      if (in_comment_) {
        if (is_event_line(t, p_)) {
          in_comment_ = false;  // an unterminated comment ends where a new game clearly starts
        } else {
          while (p_ < n && t[p_] != '}' && !is_break(t[p_])) ++p_;
          if (p_ < n && t[p_] == '}') {
            in_comment_ = false;
            ++p_;
          }
          continue;
        }
      } else if (open_quote_) {
        open_quote_ = false;
        size_t q = p_;
        while (q < n && (t[q] == ' ' || t[q] == '\t')) ++q;
        if (q < n && !is_break(t[q]) && t[q] != '[') {
          size_t e = q;
          bool closed = false;
          for (; e < n && !is_break(t[e]); ++e) {
            if (t[e] == '\\' && e + 1 < n && !is_break(t[e + 1])) {
              ++e;
            } else if (t[e] == '"') {
              closed = true;
            }
          }
          if (closed) {  // the rest of a broken tag value: skip the line, stay in the tag section
            p_ = e;
            continue;
          }
        }
      }
      if (c == '%') {  // escape line
        while (p_ < n && !is_break(t[p_])) ++p_;
        continue;
      }
    }
    if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
      ++p_;
      continue;
    }

    // '[' opens a tag pair in the tag section (or where a game may start); after movetext only as the first
    // non-blank of a line (a new game if it is `[Event `, else a stray tag the parser reports).
    if (c == '[') {
      bool tag = state_ != State::Movetext;
      const size_t nonblank = line_nonblank();
      if (!tag) tag = nonblank == p_;
      if (tag) {
        bool completed = false;
        const bool event = p_ == nonblank && is_event_line(t, p_);
        if (state_ == State::Start || state_ == State::AfterResult ||
            ((state_ == State::Movetext || (state_ == State::Tags && seen_event_)) && event))
          completed = begin_game(p_, State::Tags, span);
        else if (state_ == State::Prelude)
          state_ = State::Tags;
        if (event) seen_event_ = true;
        bool in_q = false;
        size_t e = p_ + 1;
        for (; e < n && !is_break(t[e]); ++e) {
          if (in_q && t[e] == '\\' && e + 1 < n && !is_break(t[e + 1]))
            ++e;
          else if (t[e] == '"')
            in_q = !in_q;
          else if (t[e] == ']' && !in_q)
            break;
        }
        open_quote_ = in_q;
        p_ = e < n && t[e] == ']' ? e + 1 : e;
        if (completed) return true;
        continue;
      }
    }

    // Movetext.
    bool completed = false;
    if (state_ == State::AfterResult) {
      if (c != '{' && c != ';') completed = begin_game(p_, State::Movetext, span);
    } else if (state_ == State::Start) {
      begin_game(p_, c == '{' || c == ';' ? State::Prelude : State::Movetext, span);
    } else if (state_ == State::Prelude) {
      if (c != '{' && c != ';') state_ = State::Movetext;
    } else if (state_ == State::Tags) {
      state_ = State::Movetext;
    }
    if (c == '{') {
      ++p_;
      while (p_ < n && t[p_] != '}' && !is_break(t[p_])) ++p_;
      if (p_ < n && t[p_] == '}')
        ++p_;
      else
        in_comment_ = true;
    } else if (c == ';') {
      while (p_ < n && !is_break(t[p_])) ++p_;
    } else if (charclass::is_delim(c)) {
      ++p_;
    } else {
      size_t q = p_;
      while (q < n && !charclass::is_delim(t[q])) ++q;
      if (is_result_word(t.substr(p_, q - p_))) state_ = State::AfterResult;
      p_ = q;
    }
    if (completed) return true;
  }
  if (started_) {
    started_ = false;
    span.number = number_;
    span.offset = start_;
    span.length = n - start_;
    span.first_line = start_line_;
    span.first_col = start_col_;
    return true;
  }
  return false;
}

}  // namespace cqlindex::pgn
