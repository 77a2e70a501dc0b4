#include "adjudicator/service/rate_limited.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/types/optional.h"

namespace arbiter::service {
namespace {

// The payload's type URL; its value is the wait in milliseconds, decimal.
constexpr absl::string_view kRetryAfterUrl = "type.arbiter.dev/arbiter.RetryAfterMillis";

}  // namespace

absl::Status RateLimited(absl::string_view what, absl::Duration wait) {
  if (wait == absl::InfiniteDuration()) {
    return absl::ResourceExhaustedError(
        absl::StrCat(what, ", in bursts of less than one call: none is ever allowed"));
  }
  const int64_t ms = std::max<int64_t>(1, std::ceil(absl::ToDoubleMilliseconds(wait)));
  absl::Status status = absl::ResourceExhaustedError(
      absl::StrCat(what, "; the next is allowed in ", ms, " ms: retry then, with backoff"));
  status.SetPayload(kRetryAfterUrl, absl::Cord(absl::StrCat(ms)));
  return status;
}

std::optional<absl::Duration> RetryAfter(const absl::Status& status) {
  const absl::optional<absl::Cord> payload = status.GetPayload(kRetryAfterUrl);
  int64_t ms = 0;
  if (!payload.has_value() || !absl::SimpleAtoi(std::string(*payload), &ms) || ms < 0) {
    return std::nullopt;
  }
  return absl::Milliseconds(ms);
}

}  // namespace arbiter::service
