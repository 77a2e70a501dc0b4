#include "ledger/internal/unsigned_tail.h"

#include <algorithm>

namespace arbiter::ledger {

bool UnsignedTail::Read(uint64_t head, uint64_t signed_size, absl::Time read_at) {
  const absl::Time was = Due();
  if (head > seen_) {
    found_.emplace_back(head, read_ ? last_read_ : read_at);
    seen_ = head;
  }
  read_ = true;
  last_read_ = read_at;
  Signed(signed_size);
  return Due() < was;
}

void UnsignedTail::Signed(uint64_t tree_size) {
  signed_ = std::max(signed_, tree_size);
  while (!found_.empty() && found_.front().first <= signed_) found_.pop_front();
}

void UnsignedTail::Reset() {
  read_ = false;
  seen_ = 0;
  found_.clear();
}

absl::Time UnsignedTail::Due() const {
  if (sign_within_ <= absl::ZeroDuration() || found_.empty()) return absl::InfiniteFuture();
  return std::max(found_.front().second + sign_within_, not_before_);
}

}  // namespace arbiter::ledger
