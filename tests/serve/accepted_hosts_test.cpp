// The Host names `cqlindex serve` answers (serve/accepted_hosts.h): addresses written as numbers and localhost,
// never a name another site's DNS could point at the server, whatever --bind says.
#include <catch2/catch.hpp>

#include "serve/accepted_hosts.h"

using cqlindex::serve::host_accepted;

TEST_CASE("serve: a loopback server answers only the loopback addresses and localhost", "[serve][hosts]") {
  for (const char* host :
       {"127.0.0.1:8080", "127.0.0.1", "127.255.0.9:1", "localhost:8080", "localhost", "[::1]:8080"}) {
    INFO(host);
    CHECK(host_accepted(host, "127.0.0.1"));
    CHECK(host_accepted(host, "::1"));
    CHECK(host_accepted(host, "localhost"));
  }
  for (const char* host : {"127.evil.com:8080", "127.0.0.1.evil.com", "localhost.evil.com", "127.1:8080",
                           "0x7f000001", "127.0.0.256", "evil.com", "[::2]:8080", "10.0.0.1:8080", ""}) {
    INFO(host);
    CHECK(!host_accepted(host, "127.0.0.1"));
  }
}

TEST_CASE("serve: a server bound to another address answers that address and the loopback ones", "[serve][hosts]") {
  CHECK(host_accepted("192.168.1.5:8080", "192.168.1.5"));
  CHECK(host_accepted("127.0.0.1:8080", "192.168.1.5"));
  CHECK(host_accepted("localhost:8080", "192.168.1.5"));
  CHECK(!host_accepted("192.168.1.6:8080", "192.168.1.5"));
  CHECK(!host_accepted("evil.com:8080", "192.168.1.5"));
  CHECK(!host_accepted("192.168.1.5.evil.com:8080", "192.168.1.5"));
  CHECK(host_accepted("[fe80::1]:8080", "fe80::1"));
  CHECK(!host_accepted("[fe80::2]:8080", "fe80::1"));
}

TEST_CASE("serve: a server bound to every address answers any address written as numbers", "[serve][hosts]") {
  for (const char* bind : {"0.0.0.0", "::"}) {
    INFO(bind);
    CHECK(host_accepted("10.1.2.3:8080", bind));
    CHECK(host_accepted("[2001:db8::1]:8080", bind));
    CHECK(host_accepted("localhost:8080", bind));
    CHECK(!host_accepted("evil.com:8080", bind));
    CHECK(!host_accepted("10.1.2.3.evil.com", bind));
    CHECK(!host_accepted("machine.lan:8080", bind));
  }
}
