// The refusal of a call over its caller's rate (auth_gatekeeper.h), and
// when the caller may call again: said in the message for a person or a
// log, and carried as the status's payload for the console, which answers
// it as HTTP's Retry-After (RFC 9110 10.2.3).
#ifndef ARBITER_ADJUDICATOR_SERVICE_RATE_LIMITED_H_
#define ARBITER_ADJUDICATOR_SERVICE_RATE_LIMITED_H_

#include <optional>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace arbiter::service {

// RESOURCE_EXHAUSTED: `what` ("rate limit: at most 5 writes per second"),
// then "; the next is allowed in 190 ms: retry then, with backoff", the
// wait rounded up to the millisecond. An infinite wait (a burst of less
// than one call) says that none is ever allowed, and carries no wait.
absl::Status RateLimited(absl::string_view what, absl::Duration wait);

// The wait a RateLimited status carries; none for any other status.
std::optional<absl::Duration> RetryAfter(const absl::Status& status);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_RATE_LIMITED_H_
