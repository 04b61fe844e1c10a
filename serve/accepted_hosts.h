#pragma once
// The Host names a server answers (DNS rebinding: a page of another site points a name of its own at this
// server's address, and the browser then sends that name as Host; only a name can be rebound, so only addresses
// written as numbers and `localhost`, which the system resolves itself, are answered).
#include <string>

namespace cqlindex::serve {

// True for the literal addresses of this machine's loopback interface (127.0.0.0/8 as dotted quads, ::1) and
// `localhost`; not "127.evil.com".
bool is_loopback(const std::string& name);

// True when a request whose Host header is `host_header` ("127.0.0.1:8080", "[::1]:8080", "localhost") may be
// answered by a server bound to `bind`: on a loopback server the loopback names; on one bound to another
// address that address as written in --bind, and the loopback names; on one bound to every address (0.0.0.0,
// ::) any address written as numbers, and the loopback names.
bool host_accepted(const std::string& host_header, const std::string& bind);

}  // namespace cqlindex::serve
