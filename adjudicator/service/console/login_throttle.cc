#include "adjudicator/service/console/login_throttle.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "adjudicator/service/console/http_limits.h"

namespace arbiter::service::console {

absl::Duration LoginThrottle::TakeAddress(absl::string_view address, absl::Time now) {
  absl::MutexLock lock(&mu_);
  return Take(addresses_, address, kLoginBurstPerAddress, kLoginRefillPerAddress, now);
}

absl::Duration LoginThrottle::TakeToken(absl::string_view token_id, absl::Time now) {
  absl::MutexLock lock(&mu_);
  return Take(tokens_, token_id, kLoginBurstPerToken, kLoginRefillPerToken, now);
}

absl::Duration LoginThrottle::Take(Buckets& buckets, absl::string_view key, int burst,
                                   absl::Duration refill, absl::Time now) {
  if (buckets.size() >= kMaxBuckets) {
    absl::erase_if(buckets, [&](const auto& kv) { return kv.second <= now; });
  }
  absl::Time& full = buckets.try_emplace(key, now).first->second;
  // The bucket holds burst - (full - now) / refill attempts: one is left
  // while `full` is at most (burst - 1) refills away.
  const absl::Time from = std::max(full, now);
  const absl::Duration over = from - now - (burst - 1) * refill;
  if (over > absl::ZeroDuration()) return over;  // refused: the bucket is left as it was
  full = from + refill;
  return absl::ZeroDuration();
}

}  // namespace arbiter::service::console
