// Every bound the console's HTTP server holds a client to, in one place
// (.github/SECURITY.md lists them with their reasons). They are applied by
// guarded_server.h before cpp-httplib reads a request, so a client that
// breaks one costs the server at most these figures.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_HTTP_LIMITS_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_HTTP_LIMITS_H_

#include <cstddef>

#include "absl/time/time.h"

namespace arbiter::service::console {

// A request's head (request line and header lines): a page's request with
// its cookie is under 2 KiB. Beyond: 431 (414 for the request line).
inline constexpr size_t kMaxHeadBytes = 16 * 1024;
inline constexpr size_t kMaxLineBytes = 8 * 1024;
inline constexpr int kMaxHeaderLines = 64;
// A request's body, refused from its Content-Length before a byte of it is
// read (413): the largest the console takes is a decision with its note
// (under 2 KiB). Bodies must say their length (411 for chunked ones).
inline constexpr size_t kMaxBodyBytes = 64 * 1024;

// Connections are held by one loop thread (guarded_server.h), which reads
// and checks each request and sends each answer without waiting; a whole
// request is answered by one of kWorkerThreads threads (httplib's routing
// and the handlers). A page following the live feed leaves the server once
// its answer's head is written (followers.h).
inline constexpr int kWorkerThreads = 4;
// Connections open at once, besides the pages following the live feed (at
// most FeedLimits::in_all). A new one beyond closes the connection kept
// alive idle the longest, or, with none, is answered 503 and closed. An
// eighth of the open-file limit when that is less (file_budget.h).
inline constexpr int kMaxConnections = 512;

// Connections the kernel completes before the server accepts them
// (cpp-httplib listens with 5, so a burst of phones reconnecting at once
// waited a second for a SYN retransmit).
inline constexpr int kListenBacklog = 256;

// A request must arrive whole (TLS handshake, head and body) within this
// long of its connection being accepted, or of its first byte on a kept-alive
// connection; else 408 and the connection closes.
inline constexpr absl::Duration kRequestTime = absl::Seconds(10);
// A kept-alive connection waits this long for its next request (and less
// when kMaxConnections are open: the idlest gives way to a new one).
inline constexpr absl::Duration kIdleTime = absl::Seconds(5);
inline constexpr int kMaxRequestsPerConnection = 100;
// An answer's bytes must be taken by the client within this long of each
// other, or the connection closes (a refusal's: within kRefusalStall).
inline constexpr absl::Duration kWriteStall = absl::Seconds(10);
inline constexpr absl::Duration kRefusalStall = absl::Seconds(1);

// Pages following the live feed (/api/feed) at once, `arbiter serve
// --http-feeds N --http-feeds-per-caller N`. A page holds no thread, only
// its socket and a little memory (followers.h), so the server's cap matches
// the gRPC watchers' (--watchers 8192), and so does the per-caller one
// (--watchers-per-caller 1024): one caller (a token; a host while the
// server is open) cannot take every place, and the chief arbiter's and the
// floor's pages still get one. Beyond either: 503 with Retry-After.
struct FeedLimits {
  int in_all = 8192;
  int per_caller = 1024;
  // How a refusal at `in_all` names the followers, and what sets the cap.
  const char* followers = "pages follow the live feed";
  const char* set_by = "arbiter serve --http-feeds";
  // The last eighth of `in_all` (rounded down) is kept for the officials'
  // pages (ARBITER and CHIEF_ARBITER tokens): scoreboards and other
  // software, however many tokens they hold, fill at most the rest, so the
  // chief arbiter's and the floor's pages always get a place.
  int ForOfficialsOnly() const { return in_all / 8; }
};
// The Retry-After of a page refused a place: a closed page's place is free
// at once, a stalled one's within kWriteStall.
inline constexpr absl::Duration kFeedRetryAfter = absl::Seconds(10);

// Sign-ins (POST /login), as token buckets: per client address, and per
// token once the token is known. Beyond: 429 with Retry-After.
inline constexpr int kLoginBurstPerAddress = 20;
inline constexpr absl::Duration kLoginRefillPerAddress = absl::Seconds(3);
inline constexpr int kLoginBurstPerToken = 10;
inline constexpr absl::Duration kLoginRefillPerToken = absl::Seconds(6);

// HSTS, sent on every answer when the console serves TLS.
inline constexpr char kStrictTransportSecurity[] = "max-age=31536000";

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_HTTP_LIMITS_H_
