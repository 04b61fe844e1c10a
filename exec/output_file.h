#pragma once
// Every file a command writes (run -o, similar -o, yacpdb -o): written to a temporary file in the same folder,
// every write checked, then flushed, synced, closed and renamed into place (its pages sent to the disk every
// 4 MiB as it is written, so the sync waits for the last few only), so a full disk or an interrupted
// run never leaves a truncated file in place of the output (or of an older one). The temporary file is locked
// (flock) while it is written; a killed command's is removed by the next command writing the same output. An output that is one of the
// command's inputs (the same file through any path, link or symlink), or lies inside an index folder, is refused
// before anything is written.
// A path that names no regular file (a device such as /dev/full, a FIFO) or standard output or error through
// /dev/stdout, /dev/fd/N or /proc/self/fd/N is written directly (appending to a file behind it), every write
// still checked.
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace cqlindex::exec {

class OutputFile {
 public:
  // Opens the output `path`; nullptr (with `error`, which names the file and the system's reason) when it
  // cannot be written, is one of `inputs` or lies in an index folder (then `*same_as_input` is set, if given).
  static std::unique_ptr<OutputFile> open(const std::string& path, const std::vector<std::string>& inputs,
                                          std::string* error, bool* same_as_input = nullptr);
  // Removes the temporary file unless commit() succeeded.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Returns the stream to write to (it fails, and stays failed, at the first write error).
  std::ostream& stream();
  // Flushes, syncs and closes the file and moves it into place; false (with `error`) on any failure, after
  // which the temporary file is removed and an earlier file at the path is left as it was.
  bool commit(std::string* error);

 private:
  struct Impl;
  explicit OutputFile(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// While it lives, the reason (errno) of a failed write to std::cout is kept for standard_output_error().
class StandardOutputWatch {
 public:
  StandardOutputWatch();
  ~StandardOutputWatch();
  StandardOutputWatch(const StandardOutputWatch&) = delete;
  StandardOutputWatch& operator=(const StandardOutputWatch&) = delete;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Makes a write past the file-size limit (ulimit -f) fail with EFBIG, which every write checks, instead of
// ending the process by SIGXFSZ with its temporary files left behind. Called once at the start of a program.
void fail_writes_past_file_size_limit();

// Ends the process at once with `code` (a fatal error: out of memory, an MPI abort), first removing the temporary
// files of the outputs not committed. Safe in a signal handler.
[[noreturn]] void exit_removing_temporary_outputs(int code);

// Returns true when `a` and `b` name one file: the same inode when both exist, else the same path once made
// absolute and its symlinks resolved (two outputs of a run, neither written yet).
bool same_file(const std::string& a, const std::string& b);

// Flushes standard output and returns the error (with the system's reason when a StandardOutputWatch saw it)
// when any write to it failed (a full disk, /dev/full), else nullopt.
std::optional<std::string> standard_output_error();

}  // namespace cqlindex::exec
