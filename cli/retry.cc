#include "cli/retry.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "cli/exit_codes.h"

namespace arbiter::cli {

bool IsTransient(const grpc::Status& status) {
  switch (status.error_code()) {
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return !IsMessageTooLarge(status);
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return true;
    default:
      return false;
  }
}

absl::Duration Backoff(const RetryPolicy& policy, int retry) {
  absl::Duration wait = policy.first;
  for (int i = 1; i < retry && wait < policy.longest; ++i) wait *= 2;
  wait = std::min(wait, policy.longest);
  static thread_local std::mt19937_64 random{std::random_device{}()};
  std::uniform_real_distribution<double> part(0.5, 1.0);
  return wait * part(random);
}

absl::Duration AllowedIn(const grpc::Status& status) {
  if (status.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED) return absl::ZeroDuration();
  constexpr absl::string_view kSaid = "the next is allowed in ";
  const std::string said = status.error_message();
  absl::string_view message = said;
  const size_t at = message.find(kSaid);
  if (at == absl::string_view::npos) return absl::ZeroDuration();
  message.remove_prefix(at + kSaid.size());
  int64_t ms = 0;
  if (!absl::SimpleAtoi(message.substr(0, message.find(" ms")), &ms) || ms < 0) {
    return absl::ZeroDuration();
  }
  return absl::Milliseconds(ms);
}

grpc::Status CallWithRetries(
    const RetryPolicy& policy, const std::function<grpc::Status()>& call,
    const std::function<void(const grpc::Status&, int retry, absl::Duration wait)>& notice) {
  for (int retry = 1;; ++retry) {
    grpc::Status status = call();
    if (status.ok() || !IsTransient(status) || retry > policy.retries) return status;
    const absl::Duration wait = std::max(Backoff(policy, retry), AllowedIn(status));
    notice(status, retry, wait);
    absl::SleepFor(wait);
  }
}

}  // namespace arbiter::cli
