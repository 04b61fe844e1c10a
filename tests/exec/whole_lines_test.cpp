// Standard error a whole line at a time (exec/whole_lines.h): a line written in pieces reaches the file descriptor
// in one write, only when it is complete; a flush writes what is held; the std::cerr guard restores the stream.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <iostream>
#include <ostream>
#include <string>

#include "exec/whole_lines.h"

using namespace cqlindex::exec;

namespace {

// A pipe whose read end does not block: each read returns what the writes so far put there.
struct Pipe {
  int fds[2] = {-1, -1};
  Pipe() {
    REQUIRE(pipe(fds) == 0);
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  }
  ~Pipe() {
    close(fds[0]);
    close(fds[1]);
  }
  // Returns the bytes written so far and not yet read.
  std::string drain() const {
    std::string got;
    char buffer[4096];
    for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) got.append(buffer, size_t(n));
    return got;
  }
};

}  // namespace

TEST_CASE("a line written in pieces reaches the descriptor whole, when its end comes", "[exec]") {
  Pipe pipe;
  WholeLineBuffer buffer(pipe.fds[1]);
  std::ostream out(&buffer);
  out << "dirty.pgn:" << 12 << ":" << 3 << ": game " << 4;
  out.put(':');
  CHECK(pipe.drain().empty());
  out << " missing move\nnext:";
  CHECK(pipe.drain() == "dirty.pgn:12:3: game 4: missing move\n");
  out << " two\n" << "lines\n";
  CHECK(pipe.drain() == "next: two\nlines\n");
  out << "no end";
  CHECK(pipe.drain().empty());
  out.flush();  // an explicit flush writes the rest
  CHECK(pipe.drain() == "no end");
  out << "held at the end";
  buffer.pubsync();
  CHECK(pipe.drain() == "held at the end");
}

TEST_CASE("std::cerr writes whole lines while the guard lives, and as before after it", "[exec]") {
  std::streambuf* before = std::cerr.rdbuf();
  const bool unitbuf = (std::cerr.flags() & std::ios::unitbuf) != 0;
  {
    const WholeLineStandardError guard;
    CHECK(std::cerr.rdbuf() != before);
    CHECK((std::cerr.flags() & std::ios::unitbuf) == 0);  // a flush after every << would cut the lines
  }
  CHECK(std::cerr.rdbuf() == before);
  CHECK(((std::cerr.flags() & std::ios::unitbuf) != 0) == unitbuf);
}
