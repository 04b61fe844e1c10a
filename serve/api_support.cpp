// JSON in and out for the API, the page of games a run delivers, and a run's lines.
#include "serve/api_support.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "exec/served_repository.h"

namespace cqlindex::serve {
namespace {

constexpr uint64_t kDefaultLimit = 50;
constexpr uint64_t kMaxLimit = 1000;  // a page's games are PGN text: a few MB at most
constexpr size_t kMaxLines = 200;     // a file full of PGN problems must not make the answer huge

// Returns the lines of `text` (at most kMaxLines, then one line saying how many more there were).
json lines_of(const std::string& text) {
  json lines = json::array();
  size_t count = 0, begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    if (count++ < kMaxLines) lines.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  if (count > kMaxLines) lines.push_back("(" + std::to_string(count - kMaxLines) + " more lines)");
  return lines;
}

// Reads the non-negative integer field `name` into `out` (unchanged when absent); false with `refusal`.
bool count_field(const json& request, const char* name, uint64_t& out, Answer& refusal) {
  auto it = request.find(name);
  if (it == request.end()) return true;
  if (!it->is_number_unsigned()) {
    refusal = error_answer(400, std::string("\"") + name + "\" must be a non-negative integer");
    return false;
  }
  out = it->get<uint64_t>();
  return true;
}

}  // namespace

Answer error_answer(int status, const std::string& message) { return json_answer(status, json{{"error", message}}); }

std::string json_text(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

Answer json_answer(int status, const json& value) { return Answer{status, json_text(value)}; }

std::optional<json> parse_body(const std::string& body, Answer& refusal) {
  json request;
  try {
    request = json::parse(body);
  } catch (const json::exception& e) {  // the message says where the JSON stops making sense
    refusal = error_answer(400, std::string("malformed JSON: ") + e.what());
    return std::nullopt;
  }
  if (!request.is_object()) {
    refusal = error_answer(400, "the body must be a JSON object");
    return std::nullopt;
  }
  return request;
}

bool string_field(const json& request, const char* name, std::optional<std::string>& out, Answer& refusal) {
  auto it = request.find(name);
  if (it == request.end()) return true;
  if (!it->is_string()) {
    refusal = error_answer(400, std::string("\"") + name + "\" must be a string");
    return false;
  }
  out = it->get<std::string>();
  return true;
}

bool bool_field(const json& request, const char* name, bool fallback, bool& out, Answer& refusal) {
  out = fallback;
  auto it = request.find(name);
  if (it == request.end()) return true;
  if (!it->is_boolean()) {
    refusal = error_answer(400, std::string("\"") + name + "\" must be true or false");
    return false;
  }
  out = it->get<bool>();
  return true;
}

Answer unknown_repository(const ApiContext& context, const std::string& name) {
  return error_answer(400, "no repository '" + name + "' is served here; the server serves " +
                               context.repositories.names());
}

const exec::ServedRepository* chosen_repository(const ApiContext& context, const std::optional<std::string>& name,
                                                Answer& refusal) {
  if (const NamedRepository* found = context.repositories.find(name)) return found->repository.get();
  refusal = unknown_repository(context, *name);
  return nullptr;
}

const exec::ServedRepository* chosen_repository(const ApiContext& context, const json& request, Answer& refusal) {
  std::optional<std::string> name;
  if (!string_field(request, "repo", name, refusal)) return nullptr;
  return chosen_repository(context, name, refusal);
}

bool ResultPage::read(const json& request, uint64_t cap, Answer& refusal) {
  cap_ = std::max<uint64_t>(cap, 1);
  limit_ = kDefaultLimit;
  if (!count_field(request, "offset", offset_, refusal) || !count_field(request, "limit", limit_, refusal))
    return false;
  if (limit_ > kMaxLimit) {
    refusal = error_answer(400, "\"limit\" is at most " + std::to_string(kMaxLimit));
    return false;
  }
  return true;
}

bool ResultPage::take(exec::OutputGame&& game) {
  if (delivered_ >= offset_ && delivered_ - offset_ < limit_) {
    json comments = json::array();
    for (const exec::AddedText& c : game.comments)
      comments.push_back(json{{"ply", c.ply}, {"mainline", c.mainline}, {"text", c.text}});
    json tags = json::array();
    for (const auto& [name, value] : game.tags) tags.push_back(json::array({name, value}));
    results_.push_back(json{{"number", game.number}, {"tags", std::move(tags)}, {"comments", std::move(comments)},
                            {"pgn", std::move(game.pgn)}});
  }
  if (++delivered_ >= cap_) {
    capped_ = true;
    return false;
  }
  return true;
}

void ResultPage::write(json& answer) const {
  answer["offset"] = offset_;
  answer["limit"] = limit_;
  answer["complete"] = !capped_;
  answer["results"] = results_;
}

void RunLines::write(json& answer) const {
  answer["messages"] = lines_of(messages.str());
  answer["diagnostics"] = lines_of(diagnostics.str());
}

std::optional<Answer> stopped_answer(const ApiContext& context, const exec::MemoryRun& memory) {
  if (!memory.cancelled()) return std::nullopt;
  if (context.stopping) return error_answer(503, "the server is stopping");
  std::ostringstream s;
  s << "the query ran longer than the server's limit of " << context.settings.timeout_seconds
    << " s and was stopped (cqlindex serve --timeout sets the limit; the command line has none)";
  return error_answer(503, s.str());
}

std::optional<Answer> server_side_failure(const exec::ServedRepository& repository, bool failed,
                                          const std::string& diagnostics) {
  if (std::string stale = repository.staleness(); !stale.empty())
    return error_answer(503, "the repository changed while the query read it: " + stale);
  if (!failed) return std::nullopt;
  const bool said = diagnostics.find(std::strerror(EMFILE)) != std::string::npos ||
                    diagnostics.find(std::strerror(ENFILE)) != std::string::npos;
  const int probe = said ? -1 : ::fcntl(0, F_DUPFD_CLOEXEC, 0);
  if (!said && probe >= 0) {
    ::close(probe);
    return std::nullopt;
  }
  if (!said && errno != EMFILE && errno != ENFILE) return std::nullopt;
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  return error_answer(503, "the server has run out of file descriptors (it may hold " +
                               std::to_string(limit.rlim_cur) +
                               ", ulimit -n; each connection and each open index file takes some): try again "
                               "later, or restart it with a higher limit");
}

void set_limits(const ApiContext& context, exec::MemoryRun& memory) {
  memory.cancel = &context.stopping;
  memory.deadline = std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(context.settings.timeout_seconds));
}

}  // namespace cqlindex::serve
