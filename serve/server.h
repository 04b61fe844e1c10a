#pragma once
// `cqlindex serve`: the served repositories' indexes kept open behind a local HTTP server (the JSON API of
// api.h and the page of page.h), until SIGINT or SIGTERM.
#include "exec/status.h"
#include "serve/serve_settings.h"

namespace cqlindex::serve {

// Opens the repositories and serves them until the process is told to stop; returns Ok then, InputError (the
// reason on stderr) when an index cannot be used or the address cannot be bound.
exec::Status run_server(const ServeSettings& settings);

}  // namespace cqlindex::serve
