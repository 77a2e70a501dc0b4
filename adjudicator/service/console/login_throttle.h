// How often the console lets anyone try to sign in (POST /login): token
// buckets per client address, checked before the token is looked up, and
// per token, checked once it is known (http_limits.h has the figures). A
// flood of sign-ins then costs its sender 429s, not the store's lookups, and
// cannot mint sessions faster than a person would (sessions.h caps how many
// one token holds).
//
// Each bucket is kept as the time it is next full (the generic cell rate
// algorithm): a sign-in moves it one refill period later, a refusal leaves
// it alone. So the arithmetic is exact (absl::Duration, no rounding), and a
// client retrying at any pace, faster than Retry-After included, gets one
// sign-in per refill period once its burst is spent.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_LOGIN_THROTTLE_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_LOGIN_THROTTLE_H_

#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace arbiter::service::console {

class LoginThrottle {
 public:
  // Takes one attempt at `now` from `address`'s bucket: zero when allowed,
  // else how long until the next one is.
  absl::Duration TakeAddress(absl::string_view address, absl::Time now);
  // The same for the token whose id is `token_id`.
  absl::Duration TakeToken(absl::string_view token_id, absl::Time now);

 private:
  // At most this many buckets of each kind are kept; beyond, the full ones
  // (which a fresh bucket equals) are forgotten.
  static constexpr size_t kMaxBuckets = 10000;

  // A bucket is the time at which it holds `burst` attempts again; one
  // not in the map is full.
  using Buckets = absl::flat_hash_map<std::string, absl::Time>;
  absl::Duration Take(Buckets& buckets, absl::string_view key, int burst, absl::Duration refill,
                      absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Mutex mu_;
  Buckets addresses_ ABSL_GUARDED_BY(mu_);
  Buckets tokens_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_LOGIN_THROTTLE_H_
