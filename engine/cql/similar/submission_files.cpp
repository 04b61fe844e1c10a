#include "engine/cql/similar/submission_files.h"

#include "engine/pgn/reader.h"

namespace cqlindex::cql::similar {

const SubmissionDb* SubmissionFiles::load(const std::string& path, bool notransform, std::string* error) {
  if (const SubmissionDb* db = find(path, notransform)) return db;
  auto text = pgn::PgnFile::open(path, error);
  if (!text) return nullptr;
  std::vector<pgn::PgnError> problems;
  SubmissionDb db = SubmissionDb::read(text->text(), path, SubmissionDb::Options{notransform, true}, &problems);
  if (db.games() == 0) {  // CQL 6.2's words
    if (error) *error = "Db: unable to read any games from file: " + path;
    return nullptr;
  }
  files_.push_back(std::make_unique<File>(File{path, notransform, std::move(db), std::move(problems)}));
  return &files_.back()->db;
}

const SubmissionDb* SubmissionFiles::find(const std::string& path, bool notransform) const {
  for (const auto& f : files_)
    if (f->path == path && f->notransform == notransform) return &f->db;
  return nullptr;
}

}  // namespace cqlindex::cql::similar
