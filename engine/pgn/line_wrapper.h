// The line filler CQL 6.2 writes its PGN through (the text buffer of the Scid code CQL is built on): words are
// appended to the current line and a word that would reach the wrap column starts a new line. The exact rules
// (which decide every byte of CQL's output) are listed at the top of writer.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace cqlindex::pgn {

class LineWrapper {
 public:
  static constexpr size_t kWrapColumn = 80;  // a line never reaches this column through word()/space()/ch()
  static constexpr size_t kNoWrap = SIZE_MAX / 2;

  explicit LineWrapper(std::string& out) : out_(out) {}
  ~LineWrapper() { flush(); }
  LineWrapper(const LineWrapper&) = delete;
  LineWrapper& operator=(const LineWrapper&) = delete;

  // Appends the bytes held so far to `out` (done on destruction too): `out` holds all the text only after it.
  void flush();

  void set_wrap_column(size_t c) { wrap_ = c; }
  size_t column() const { return column_; }

  // A word: a line break first when column + bytes >= the wrap column (even on an empty line), then its bytes.
  // A byte 0xC3 and the byte after it are written as one byte (next + 64), as CQL's buffer does.
  void word(std::string_view w);
  // word() for a word known to hold no byte 0xC3 (move numbers, SAN, NAGs, braces): no byte is looked at. (Not
  // only ASCII: other bytes pass through word() unchanged too.)
  void ascii_word(std::string_view w) {
    if (column_ + w.size() >= wrap_ && !(after_text_break_ && column_ == 0)) newline();
    if (!w.empty()) after_text_break_ = false;
    put(w.data(), w.size());
    column_ += w.size();
  }
  // A space, or a line break instead when the space would reach the wrap column.
  void space() {
    after_text_break_ = false;
    if (column_ + 1 >= wrap_) {
      newline();
    } else {
      put(' ');
      ++column_;
    }
  }
  // One character, after a line break when it would reach the wrap column.
  void ch(char c);
  // A line break.
  void newline();
  // Words split at ' ' and '\n': between words a space() for ' ', a newline() for '\n'.
  void string(std::string_view s) { words(s, false); }
  // Like string(), for text that already holds the line breaks CQL made (its own output read back): a word
  // right after such a break is not wrapped again, so a word longer than a line does not gain an empty line.
  void string_rewrapped(std::string_view s);
  // Bytes appended with no wrapping check, then a line break.
  void line(std::string_view s);

  // Appends to `out` what string(s) writes with no wrap column (the tag section): the bytes as they are, but a
  // 0xC3 and the byte after it in its word made one byte, as word() does.
  static void append_unwrapped(std::string& out, std::string_view s);

 private:
  // string() and string_rewrapped(): the latter when the text's line breaks are CQL's own.
  void words(std::string_view s, bool breaks_are_cqls);

  // Appends one byte, or `n` bytes, to the held text.
  void put(char c) {
    if (held_ == kHeld) flush();
    held_text_[held_++] = c;
  }
  void put(const char* bytes, size_t n) {
    if (held_ + n > kHeld || n > 16) return put_long(bytes, n);
    copy_short(held_text_ + held_, bytes, n);
    held_ += n;
  }
  // put() for the rare word that does not fit the held text or is longer than 16 bytes.
  void put_long(const char* bytes, size_t n);
  // Copies n <= 16 bytes with at most two fixed-size moves each way (words are short: a call to memcpy cost
  // more than the copy).
  static void copy_short(char* to, const char* from, size_t n) {
    if (n >= 8) {
      uint64_t a, b;
      std::memcpy(&a, from, 8);
      std::memcpy(&b, from + n - 8, 8);
      std::memcpy(to, &a, 8);
      std::memcpy(to + n - 8, &b, 8);
    } else if (n >= 4) {
      uint32_t a, b;
      std::memcpy(&a, from, 4);
      std::memcpy(&b, from + n - 4, 4);
      std::memcpy(to, &a, 4);
      std::memcpy(to + n - 4, &b, 4);
    } else if (n > 0) {
      to[0] = from[0];
      to[n / 2] = from[n / 2];
      to[n - 1] = from[n - 1];
    }
  }

  // The text is gathered here and appended to out_ a few thousand bytes at a time: a PGN game is ~500 words
  // and spaces, and one append each cost more than laying them out.
  static constexpr size_t kHeld = 4096;
  char held_text_[kHeld];
  size_t held_ = 0;
  std::string& out_;
  size_t column_ = 0;
  size_t wrap_ = kWrapColumn;
  bool after_text_break_ = false;  // the last output was a line break taken from string_rewrapped()'s text
};

}  // namespace cqlindex::pgn
