// Standard error written a whole line at a time (whole_lines.h).
#include "exec/whole_lines.h"

#include <cerrno>

#include <unistd.h>

namespace cqlindex::exec {

WholeLineBuffer::int_type WholeLineBuffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  held_.push_back(traits_type::to_char_type(c));
  if (c == '\n' && !write_lines()) return traits_type::eof();
  return c;
}

std::streamsize WholeLineBuffer::xsputn(const char* s, std::streamsize n) {
  held_.append(s, size_t(n));
  return write_lines() ? n : 0;
}

bool WholeLineBuffer::write_lines() {
  const size_t last = held_.rfind('\n');
  return last == std::string::npos || write_held(last + 1);
}

bool WholeLineBuffer::write_held(size_t end) {
  bool ok = true;
  for (size_t at = 0; at < end;) {  // one write(2) unless the kernel takes less (a pipe's PIPE_BUF at least)
    const ssize_t wrote = ::write(fd_, held_.data() + at, end - at);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      ok = false;
      break;
    }
    at += size_t(wrote);
  }
  held_.erase(0, end);
  return ok;
}

WholeLineStandardError::WholeLineStandardError()
    : buffer_(STDERR_FILENO), saved_(std::cerr.rdbuf(&buffer_)), flags_(std::cerr.flags()) {
  std::cerr.unsetf(std::ios::unitbuf);
}

WholeLineStandardError::~WholeLineStandardError() {
  std::cerr.flush();
  std::cerr.rdbuf(saved_);
  std::cerr.flags(flags_);
}

}  // namespace cqlindex::exec
