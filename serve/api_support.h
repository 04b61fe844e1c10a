#pragma once
// What the API's calls share: reading a JSON body and its paging fields, writing JSON (never failing on the
// bytes of a PGN that are not UTF-8), the page of games a run delivers, and a run's lines.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exec/memory_run.h"
#include "serve/api.h"

namespace cqlindex::serve {

using nlohmann::json;

// Returns `value` as JSON text; bytes that are not UTF-8 (Latin-1 tags of old PGN files) become U+FFFD.
std::string json_text(const json& value);
// Returns an answer with `status` and `value`.
Answer json_answer(int status, const json& value);

// Returns the body as a JSON object, or nullopt with `refusal` set (400: malformed JSON, or not an object).
std::optional<json> parse_body(const std::string& body, Answer& refusal);
// Returns the string field `name` of `request` (nullopt when absent); false with `refusal` when it is not a string.
bool string_field(const json& request, const char* name, std::optional<std::string>& out, Answer& refusal);
// Returns the boolean field `name` (`fallback` when absent); false with `refusal` when it is not a boolean.
bool bool_field(const json& request, const char* name, bool fallback, bool& out, Answer& refusal);

// Returns the 400 answer to a repository name not served, listing those that are.
Answer unknown_repository(const ApiContext& context, const std::string& name);
// Returns the repository `name` chooses (nullopt: the first served), or nullptr with `refusal` (400: a name not
// served, the message listing those that are).
const exec::ServedRepository* chosen_repository(const ApiContext& context, const std::optional<std::string>& name,
                                                Answer& refusal);
// Returns the repository the body's "repo" field chooses, or nullptr with `refusal` (400: not a string, or not
// served).
const exec::ServedRepository* chosen_repository(const ApiContext& context, const json& request, Answer& refusal);

// The games of one page, gathered as a run delivers them: those from `offset` on, at most `limit`, and the
// run stopped once `cap` games were delivered.
class ResultPage {
 public:
  // Reads "offset" and "limit" from `request` (default 0 and 50, limit at most 1000); false with `refusal`.
  bool read(const json& request, uint64_t cap, Answer& refusal);
  // Stops the run at the page's end (similar: its matches are all counted before any game is written).
  void stop_after_page() { cap_ = std::min(cap_, offset_ + limit_); }
  // The games a run must write for this page (those before its end); the others are only counted.
  uint64_t games_wanted() const { return offset_ + limit_; }
  uint64_t offset() const { return offset_; }
  // The callback for exec::MemoryRun::on_game.
  bool take(exec::OutputGame&& game);
  uint64_t delivered() const { return delivered_; }
  bool capped() const { return capped_; }
  // {"offset", "limit", "results": [...]}, plus "complete": false when the cap stopped the run.
  void write(json& answer) const;

 private:
  uint64_t offset_ = 0, limit_ = 50, cap_ = 0, delivered_ = 0;
  bool capped_ = false;
  json results_ = json::array();
};

// A run's lines kept for the answer: "messages" (stdout) and "diagnostics" (stderr), at most 200 lines each.
struct RunLines {
  std::ostringstream messages, diagnostics;
  void write(json& answer) const;
};

// The answer to a run that did not finish because the server stopped it (its time limit, or the server
// stopping), else nullopt. Asked only of a run that did not finish: one that finished is answered.
std::optional<Answer> stopped_answer(const ApiContext& context, const exec::MemoryRun& memory);

// The answer to a run whose failure (or answer) is not the request's fault, else nullopt: 503 when `repository`
// changed while the run read it (its answer may mix the old and the new file), or when a run that `failed` ran
// out of file descriptors (its diagnostics say so, or none is free now). Asked after every run.
std::optional<Answer> server_side_failure(const exec::ServedRepository& repository, bool failed,
                                          const std::string& diagnostics);

// Sets the limits of a served run: the server's stop flag and its time limit from now.
void set_limits(const ApiContext& context, exec::MemoryRun& memory);

}  // namespace cqlindex::serve
