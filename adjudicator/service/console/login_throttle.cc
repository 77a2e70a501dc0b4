#include "adjudicator/service/console/login_throttle.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/time/clock.h"
#include "adjudicator/service/console/http_limits.h"

namespace arbiter::service::console {

absl::Duration LoginThrottle::TakeAddress(absl::string_view address) {
  absl::MutexLock lock(&mu_);
  return Take(addresses_, address, kLoginBurstPerAddress, kLoginRefillPerAddress);
}

absl::Duration LoginThrottle::TakeToken(absl::string_view token_id) {
  absl::MutexLock lock(&mu_);
  return Take(tokens_, token_id, kLoginBurstPerToken, kLoginRefillPerToken);
}

absl::Duration LoginThrottle::Take(absl::flat_hash_map<std::string, Bucket>& buckets,
                                   absl::string_view key, double burst, absl::Duration refill) {
  const absl::Time now = absl::Now();
  auto refilled = [&](const Bucket& b) {
    return std::min(burst, b.tokens + (now - b.refilled) / refill);
  };
  if (buckets.size() >= kMaxBuckets) {
    absl::erase_if(buckets, [&](const auto& kv) { return refilled(kv.second) >= burst; });
  }
  auto [it, fresh] = buckets.try_emplace(key, Bucket{burst, now});
  Bucket& b = it->second;
  b.tokens = refilled(b);
  b.refilled = now;
  if (b.tokens >= 1) {
    b.tokens -= 1;
    return absl::ZeroDuration();
  }
  return (1 - b.tokens) * refill;
}

}  // namespace arbiter::service::console
