// Calls the server could not take now, tried again: with exponential
// backoff and jitter, a bounded number of times. For `arbiter record`, whose
// bulk import meets the write-rate limit (RESOURCE_EXHAUSTED "rate limit:",
// `serve --write-rate`) or a server restarting (UNAVAILABLE) and must wait,
// not give up. Only a call that is safe to repeat may be retried: an
// AppendEvents whose events carry their idempotency keys is (the server
// answers a repeat with the first acknowledgement and records nothing twice).
#ifndef ARBITER_CLI_RETRY_H_
#define ARBITER_CLI_RETRY_H_

#include <functional>

#include "absl/time/time.h"
#include "grpcpp/support/status.h"

namespace arbiter::cli {

struct RetryPolicy {
  int retries = 6;  // tries after the first; 0: none
  absl::Duration first = absl::Milliseconds(100);
  absl::Duration longest = absl::Seconds(5);
};

// True for a status a later try can pass: RESOURCE_EXHAUSTED (a rate limit;
// not gRPC's message-too-large, exit_codes.h), UNAVAILABLE, and
// DEADLINE_EXCEEDED.
bool IsTransient(const grpc::Status& status);

// The wait before retry `retry` (1, 2, ...): `first` doubled each time, at
// most `longest`, of which a random part (up to half) is taken off, so that
// clients refused together do not all come back together.
absl::Duration Backoff(const RetryPolicy& policy, int retry);

// The wait a rate-limit refusal names ("the next is allowed in 190 ms",
// rate_limited.h on the server); zero for any other status.
absl::Duration AllowedIn(const grpc::Status& status);

// Calls `call` until it succeeds, fails for good, or `policy.retries` retries
// are spent; before each retry `notice` hears the status, the retry's
// number and the wait (the backoff, or the wait the refusal names when that
// is longer: a retry before it would be refused again), then the wait is
// slept. The last call's status.
grpc::Status CallWithRetries(
    const RetryPolicy& policy, const std::function<grpc::Status()>& call,
    const std::function<void(const grpc::Status&, int retry, absl::Duration wait)>& notice);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_RETRY_H_
