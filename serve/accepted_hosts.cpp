// The Host names a server answers: addresses written as numbers and `localhost`, never a name another site's
// DNS could point at this server.
#include "serve/accepted_hosts.h"

#include <arpa/inet.h>
#include <netinet/in.h>

namespace cqlindex::serve {
namespace {

// Returns the host of a Host header ("127.0.0.1:8080" -> "127.0.0.1", "[::1]:8080" -> "::1").
std::string host_name(const std::string& host) {
  if (!host.empty() && host[0] == '[') return host.substr(1, host.find(']') - 1);
  return host.substr(0, host.rfind(':') == std::string::npos ? host.size() : host.rfind(':'));
}

// True for a dotted quad of 127.0.0.0/8 ("127.0.0.1"; not "127.evil.com", a name anyone can register).
bool is_loopback_quad(const std::string& name) {
  in_addr address{};
  if (::inet_pton(AF_INET, name.c_str(), &address) != 1) return false;  // four decimal parts, each 0-255
  return (ntohl(address.s_addr) >> 24) == 127;
}

// True for an address written as numbers (IPv4 dotted quad, or IPv6 as inside the brackets of a Host header).
bool is_address_literal(const std::string& name) {
  in6_addr v6{};
  in_addr v4{};
  return ::inet_pton(AF_INET, name.c_str(), &v4) == 1 || ::inet_pton(AF_INET6, name.c_str(), &v6) == 1;
}

}  // namespace

bool is_loopback(const std::string& name) {
  return name == "localhost" || name == "::1" || is_loopback_quad(name);
}

bool host_accepted(const std::string& host_header, const std::string& bind) {
  const std::string host = host_name(host_header);
  if (is_loopback(host)) return true;
  if (is_loopback(bind)) return false;
  if (bind == "0.0.0.0" || bind == "::" || bind.empty()) return is_address_literal(host);
  return host == bind;
}

}  // namespace cqlindex::serve
