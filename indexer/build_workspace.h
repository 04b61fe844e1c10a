#pragma once
// The temporary folder of one build, beside the index it replaces: `DIR.cqlindex-build-XXXXXX` holding a lock
// file (held while the build runs), the new index and the sorted runs. A build removes the workspaces that
// earlier builds of the same index left when they were killed (their lock is free), never one that is still in
// use and never a folder without the lock file; SIGINT, SIGTERM and SIGHUP remove the workspace before the
// process ends (indexer/removal_on_exit.h). The new index goes into place with one atomic exchange, so readers see one generation or the
// other.
#include <memory>
#include <string>

namespace cqlindex::indexer {

class RemovalOnExit;

class BuildWorkspace {
 public:
  // Creates the workspace for the index folder `dir` (whose parent must exist) after removing the stale ones;
  // nullptr (with `error`) when it cannot.
  static std::unique_ptr<BuildWorkspace> create(const std::string& dir, std::string* error);
  // Removes the workspace and everything in it (the new index unless it was published, the old one after).
  ~BuildWorkspace();
  BuildWorkspace(const BuildWorkspace&) = delete;
  BuildWorkspace& operator=(const BuildWorkspace&) = delete;

  // Returns the folder where the new index is built (it does not exist until the build creates it).
  std::string index_dir() const { return root_ + "/index"; }
  // Returns the folder for the build's sorted runs (created).
  std::string runs_dir() const { return root_ + "/runs"; }
  // Puts the finished index in place of the index folder (or where none was) in one atomic step; the old index
  // ends in the workspace and goes with it. False (with `error`) when it cannot.
  bool publish(std::string* error);

 private:
  BuildWorkspace(std::string dir, std::string root, int lock_fd);

  std::string dir_;   // the index folder the build replaces
  std::string root_;  // the workspace
  int lock_fd_;
  std::unique_ptr<RemovalOnExit> removal_;  // the workspace removed when a signal ends the process
};

// Returns the number of stale workspaces of builds of the index folder `dir` that were removed (a killed build's
// lock is free); a workspace whose build still runs is left alone.
int remove_stale_workspaces(const std::string& dir);

}  // namespace cqlindex::indexer
