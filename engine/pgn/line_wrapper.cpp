// LineWrapper: CQL 6.2's word-wrapping text buffer, byte for byte.
#include "engine/pgn/line_wrapper.h"

namespace cqlindex::pgn {

void LineWrapper::flush() {
  out_.append(held_text_, held_);
  held_ = 0;
}

void LineWrapper::put_long(const char* bytes, size_t n) {
  if (held_ + n > kHeld) {
    flush();
    if (n > kHeld) {
      out_.append(bytes, n);
      return;
    }
  }
  std::memcpy(held_text_ + held_, bytes, n);
  held_ += n;
}

void LineWrapper::word(std::string_view w) {
  if (column_ + w.size() >= wrap_ && !(after_text_break_ && column_ == 0)) newline();
  if (!w.empty()) after_text_break_ = false;
  bool plain = true;  // (a loop: the words are too short for memchr to pay)
  for (char c : w) plain &= static_cast<unsigned char>(c) != 0xC3;
  if (plain) {  // the common case: the bytes as they are
    put(w.data(), w.size());
    column_ += w.size();
    return;
  }
  for (size_t i = 0; i < w.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(w[i]);
    if (c == 0xC3) {  // CQL folds a UTF-8 lead byte 0xC3 and its follower into one Latin-1 byte
      unsigned char next = i + 1 < w.size() ? static_cast<unsigned char>(w[i + 1]) : 0;
      c = static_cast<unsigned char>(next + 64);
      ++i;
    }
    put(static_cast<char>(c));
    ++column_;
  }
}

void LineWrapper::ch(char c) {
  after_text_break_ = false;
  if (column_ + 1 >= wrap_) newline();
  put(c);
  ++column_;
}

void LineWrapper::newline() {
  put('\n');
  column_ = 0;
  after_text_break_ = false;
}

void LineWrapper::string_rewrapped(std::string_view s) { words(s, true); }


void LineWrapper::words(std::string_view s, bool breaks_are_cqls) {
  const char* const data = s.data();
  const size_t size = s.size();
  size_t i = 0;
  while (i < size) {
    size_t end = i;
    bool plain = true;  // no 0xC3 in the word: looked for in the same pass
    for (; end < size; ++end) {
      const unsigned char c = static_cast<unsigned char>(data[end]);
      if (c == ' ' || c == '\n') break;
      plain &= c != 0xC3;
    }
    if (plain) ascii_word(std::string_view(data + i, end - i));
    else word(std::string_view(data + i, end - i));
    if (end == size) return;
    if (data[end] == '\n') {
      newline();
      after_text_break_ = breaks_are_cqls;
    } else {
      space();
    }
    i = end + 1;
  }
}

void LineWrapper::append_unwrapped(std::string& out, std::string_view s) {
  size_t done = 0;
  for (size_t at; (at = s.find('\xC3', done)) != std::string_view::npos; done = at + 1) {
    out.append(s.substr(done, at - done));
    // the follower is the word's next byte; a word ending in 0xC3 folds it with 0 (word())
    const bool follower = at + 1 < s.size() && s[at + 1] != ' ' && s[at + 1] != '\n';
    const unsigned char next = follower ? static_cast<unsigned char>(s[at + 1]) : 0;
    out += static_cast<char>(static_cast<unsigned char>(next + 64));
    if (follower) ++at;
  }
  out.append(s.substr(done));
}

void LineWrapper::line(std::string_view s) {
  after_text_break_ = false;
  put(s.data(), s.size());
  column_ += s.size();
  newline();
}

}  // namespace cqlindex::pgn
