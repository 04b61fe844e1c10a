// The ranks' agreement on their arguments and files: rank 0's facts broadcast, each rank comparing its own.
#include "exec/distributed_agreement.h"

#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <sys/stat.h>

#include "exec/distributed_share.h"
#include "store/content_fingerprint.h"

namespace cqlindex::exec {
namespace {

// Returns rank 0's `bytes` on every rank.
std::string broadcast_bytes(const std::string& bytes) {
  uint64_t size = bytes.size();
  MPI_Request request;
  MPI_Ibcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &request);
  wait_for(request);
  std::string out = world_rank() == 0 ? bytes : std::string(size, '\0');
  for (uint64_t at = 0; at < size;) {  // in pieces an int can count
    const int piece = int(std::min<uint64_t>(size - at, 1 << 30));
    MPI_Ibcast(out.data() + at, piece, MPI_BYTE, 0, MPI_COMM_WORLD, &request);
    wait_for(request);
    at += uint64_t(piece);
  }
  return out;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

}  // namespace

bool ranks_agree(const std::vector<RankFact>& facts, const std::string& command) {
  const int rank = world_rank();
  std::string mine;
  put_word(mine, facts.size());
  for (const RankFact& f : facts) put_text(mine, f.name), put_text(mine, f.value);
  const std::string first = broadcast_bytes(mine);
  bool differs = false;
  if (rank != 0 && first != mine) {
    differs = true;
    MessageReader reader(first);
    std::vector<RankFact> theirs(reader.word());
    for (RankFact& f : theirs) f.name = reader.text(), f.value = reader.text();
    std::string said;
    for (size_t i = 0; i < std::max(facts.size(), theirs.size()) && said.empty(); ++i) {
      if (i >= facts.size()) said = "there is no " + theirs[i].name + ", but on rank 0 it is " + quoted(theirs[i].value);
      else if (i >= theirs.size()) said = facts[i].name + " is " + quoted(facts[i].value) + ", but rank 0 has none";
      else if (facts[i].name != theirs[i].name || facts[i].value != theirs[i].value)
        said = facts[i].name + " is " + quoted(facts[i].value) + ", but on rank 0 " +
               (facts[i].name == theirs[i].name ? "it" : theirs[i].name) + " is " + quoted(theirs[i].value);
    }
    std::cerr << "cqlindex " << command << ": rank " << rank << ": " << said << "\n";
  }
  if (max_over_ranks(differs ? 1 : 0) == 0) return true;
  if (rank == 0)
    std::cerr << "cqlindex " << command << ": the ranks were not started alike (other arguments, or other files "
              << "under the same names): start every rank with the same command on the same files\n";
  return false;
}

std::vector<RankFact> argument_facts(int argc, char** argv) {
  std::string line;  // each argument as a shell would need it: one that is empty or holds a blank or quote quoted
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (i > 0) line += ' ';
    if (!a.empty() && a.find_first_of(" \t\n'\"\\") == std::string::npos) {
      line += a;
      continue;
    }
    line += '\'';
    for (char c : a) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return {{"the command line", line}};
}

std::vector<RankFact> file_facts(const std::vector<std::string>& paths) {
  std::vector<RankFact> facts;
  for (const std::string& path : paths) {
    struct stat st {};
    std::string value, error;
    if (::stat(path.c_str(), &st) != 0) {
      value = "unreadable";
    } else if (auto hash = store::fingerprint_file_samples(path, uint64_t(st.st_size), &error)) {
      char text[80];
      std::snprintf(text, sizeof text, "%" PRIu64 " bytes, sampled XXH3-64 %016" PRIx64, uint64_t(st.st_size), *hash);
      value = text;
    } else {
      value = "unreadable";
    }
    facts.push_back({path, value});
  }
  return facts;
}

}  // namespace cqlindex::exec
