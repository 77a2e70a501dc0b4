// What the console's server makes of the bytes a connection has sent, before
// cpp-httplib reads any of them: whether a whole request is there yet, and
// whether it may be served at all. A refusal is decided from the head alone,
// so an oversized body is never read and a header flood stops at the limit
// (http_limits.h).
//
// Host (DNS rebinding): a page on another site whose name an attacker
// points at this server sends its own name as Host. A request is served only
// when its Host names the address the client connected to (an IP literal),
// `localhost` on a loopback connection, or one of the names the operator
// gave (`arbiter serve --http-host NAME`); otherwise 421.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_REQUEST_HEAD_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_REQUEST_HEAD_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace arbiter::service::console {

// The names a request's Host may carry on one connection.
struct HostRule {
  std::vector<std::string> names;  // --http-host, lower case
  std::string local_ip;            // the address the client connected to
  bool loopback = false;           // that address is a loopback one
};

struct RequestVerdict {
  enum class Kind { kIncomplete, kComplete, kRefused };
  Kind kind = Kind::kIncomplete;
  size_t size = 0;      // kComplete: the request's bytes, head and body
  int status = 0;       // kRefused: 400, 411, 413, 414, 421 or 431
  std::string message;  // kRefused: one line saying why
};

// Examines the start of `buffered` (one request, perhaps followed by the
// next): kIncomplete while more bytes may make it whole, kComplete once head
// and body are there, kRefused as soon as the head breaks a limit or its
// Host is not this server's.
RequestVerdict ExamineRequest(absl::string_view buffered, const HostRule& hosts);

// Whether `ip`, an address a client connected to, is a loopback one
// (127.0.0.0/8, ::1, or 127.x as an IPv4-mapped IPv6 address).
bool IsLoopbackIp(absl::string_view ip);

// Whether `origin` (an Origin header's value, or a Referer's, whose path
// is ignored) is this console's own, as a sign-in must come from it (login
// CSRF): `scheme` ("http" or "https"), a host the Host check takes on this
// connection (`hosts`), and the console's `port`, written or, for the
// scheme's default port, left out. "null", user info and anything that is
// not scheme://host[:port] are not.
bool IsOwnOrigin(absl::string_view origin, absl::string_view scheme, int port,
                 const HostRule& hosts);

// The host name of a Host header's value: lower case, without port,
// brackets or a trailing dot ("[::1]:8080" -> "::1").
std::string HostName(absl::string_view host_header);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_REQUEST_HEAD_H_
