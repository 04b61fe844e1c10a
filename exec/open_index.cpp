#include "exec/open_index.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <vector>

#include "indexer/index_location.h"

namespace cqlindex::exec {

// When the index could not be opened because the system refused (no permission, the limit of open files),
// not because it is damaged: what the system said, else empty. Looked for only after a failure: every file
// of the folder is opened once, and the store's message is searched for the errors it may quote.
std::string os_refusal(const std::string& dir, const std::string& store_error) {
  auto refused = [](int e) { return e == EACCES || e == EPERM || e == EMFILE || e == ENFILE || e == ENOMEM; };
  auto explain = [](int e) {
    std::string what = std::strerror(e);
    rlimit files{};
    if ((e == EMFILE || e == ENFILE) && ::getrlimit(RLIMIT_NOFILE, &files) == 0)
      what += " (the limit of open files, ulimit -n, is " + std::to_string(files.rlim_cur) + ")";
    return what;
  };
  std::error_code ec;
  std::vector<std::string> paths{dir};
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) paths.push_back(entry.path().string());
  if (ec && refused(ec.value())) return explain(ec.value());
  for (const std::string& path : paths) {
    // non-blocking: a named pipe among them must not wait for a writer
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0) {
      ::close(fd);
    } else if (refused(errno)) {
      const int e = errno;
      return path + ": " + explain(e);
    }
  }
  for (int e : {EACCES, EPERM, EMFILE, ENFILE})
    if (store_error.find(std::strerror(e)) != std::string::npos) return explain(e);
  return "";
}

Status open_fresh_index(const IndexRequest& request, std::unique_ptr<store::IndexStore>& index, std::string* dir_out,
                        std::ostream& err) {
  const bool named = !request.named_dir.empty();
  const std::string dir = named ? request.named_dir : indexer::default_index_dir(request.input);
  if (dir_out) *dir_out = dir;
  const std::string prefix = "cqlindex " + request.command + ": ";
  if (std::string problem = indexer::index_path_problem(dir); !problem.empty()) {
    err << prefix << problem << " (use --no-index to scan the file)\n";
    return Status::InputError;
  }
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    if (!named) return Status::Ok;
    err << prefix << "no index at " << dir << "\n";
    return Status::InputError;
  }
  // A folder this tool did not build is not offered to `build`, which would refuse to replace it anyway.
  if (!indexer::is_index_folder(dir)) {
    if (std::string os = os_refusal(dir, ""); !os.empty()) {
      err << prefix << "cannot read the index " << dir << ": " << os << " (use --no-index to scan the file)\n";
      return Status::InputError;
    }
    err << prefix << dir << " is not an index built by cqlindex (name the index folder with --index, or use "
              << "--no-index)\n";
    return Status::InputError;
  }
  std::string error;
  index = indexer::open_index_for_reading(dir, &error, request.families);
  if (!index) {
    if (std::string os = os_refusal(dir, error); !os.empty()) {
      err << prefix << "cannot read the index " << dir << ": " << os << " (use --no-index to scan the file)\n";
      return Status::InputError;
    }
    err << prefix << error << " (rebuild it with 'cqlindex build " << request.input
              << (named ? " --index " + dir : std::string()) << request.build_flags << "', or use --no-index)\n";
    return Status::InputError;
  }
  indexer::FreshnessEvidence evidence{};
  auto freshness = indexer::check_freshness(index->meta(), request.input, &error, &evidence);
  if (!freshness) {
    err << prefix << error << "\n";
    index.reset();
    return Status::InputError;
  }
  if (*freshness != indexer::Freshness::Fresh) {
    const auto why = request.appendable ? *freshness : indexer::Freshness::Stale;
    err << prefix << indexer::refusal_message(why, request.input, dir, request.build_flags) << "\n";
    index.reset();
    return Status::InputError;
  }
  if (evidence == indexer::FreshnessEvidence::WholeRead)
    err << prefix << indexer::whole_read_note(request.input, request.build_flags) << "\n";
  return Status::Ok;
}

}  // namespace cqlindex::exec
