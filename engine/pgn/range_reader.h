#pragma once
// Reading chosen games of a PGN file by their byte ranges (pread), never the whole file: what a query that an
// index narrowed reads, so that its memory and I/O follow its candidates, not the size of the file.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace cqlindex::pgn {

class RangeReader {
 public:
  // nullptr and a message in *error when `path` cannot be opened.
  static std::unique_ptr<RangeReader> open(const std::string& path, std::string* error);
  ~RangeReader();
  RangeReader(const RangeReader&) = delete;
  RangeReader& operator=(const RangeReader&) = delete;

  const std::string& path() const { return path_; }
  // Reads bytes [offset, offset + length) into `out` (replacing what it held); false (with `error`) when they
  // cannot be read, the file being shorter among other reasons. Safe on several threads at once.
  bool read(uint64_t offset, uint64_t length, std::string& out, std::string* error) const;

 private:
  RangeReader() = default;
  std::string path_;
  int fd_ = -1;
};

}  // namespace cqlindex::pgn
