// How often the console lets anyone try to sign in (POST /login): token
// buckets per client address, checked before the token is looked up, and
// per token, checked once it is known (http_limits.h has the figures). A
// flood of sign-ins then costs its sender 429s, not the store's lookups, and
// cannot mint sessions faster than a person would (sessions.h caps how many
// one token holds).
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
  // Takes one attempt from `address`'s bucket: zero when allowed, else how
  // long until the next one is.
  absl::Duration TakeAddress(absl::string_view address);
  // The same for the token whose id is `token_id`.
  absl::Duration TakeToken(absl::string_view token_id);

 private:
  struct Bucket {
    double tokens;
    absl::Time refilled;
  };
  // At most this many buckets of each kind are kept; beyond, the full ones
  // (which a fresh bucket equals) are forgotten.
  static constexpr size_t kMaxBuckets = 10000;

  absl::Duration Take(absl::flat_hash_map<std::string, Bucket>& buckets, absl::string_view key,
                      double burst, absl::Duration refill) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Bucket> addresses_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, Bucket> tokens_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_LOGIN_THROTTLE_H_
