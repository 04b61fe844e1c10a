#pragma once
// Standard error written a whole line at a time. The ranks of an MPI job share one stderr through mpirun, which
// forwards each rank's bytes as it reads them; a line written in pieces (std::cerr is unbuffered: a write(2) for
// each `<<`) can then be cut by another rank's line. cqlindex-mpi writes its stderr through this.
#include <iostream>
#include <streambuf>
#include <string>

namespace cqlindex::exec {

// A stream buffer that writes only whole lines to `fd`: the complete lines it holds in one write(2) when a
// newline comes; what follows the last newline waits for its end, or for a flush (sync), which writes it all.
class WholeLineBuffer : public std::streambuf {
 public:
  explicit WholeLineBuffer(int fd) : fd_(fd) {}
  ~WholeLineBuffer() override { write_held(held_.size()); }
  WholeLineBuffer(const WholeLineBuffer&) = delete;
  WholeLineBuffer& operator=(const WholeLineBuffer&) = delete;

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override { return write_held(held_.size()) ? 0 : -1; }

 private:
  // Writes the held bytes [0, end) and drops them; false when the write failed (they are dropped too).
  bool write_held(size_t end);
  // Writes the held complete lines.
  bool write_lines();

  int fd_;
  std::string held_;
};

// While it lives, std::cerr writes through a WholeLineBuffer on standard error, and without unitbuf (a flush
// after each `<<` would write the pieces again).
class WholeLineStandardError {
 public:
  WholeLineStandardError();
  ~WholeLineStandardError();
  WholeLineStandardError(const WholeLineStandardError&) = delete;
  WholeLineStandardError& operator=(const WholeLineStandardError&) = delete;

 private:
  WholeLineBuffer buffer_;
  std::streambuf* saved_;
  std::ios::fmtflags flags_;
};

}  // namespace cqlindex::exec
