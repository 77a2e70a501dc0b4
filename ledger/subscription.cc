#include "ledger/subscription.h"

namespace arbiter::ledger {

void CommitWatch::Publish(uint64_t head, std::vector<v1::LedgerEntry> committed) {
  {
    absl::MutexLock lock(&mu_);
    if (head > head_) head_ = head;
  }
  feed_.Publish(head, std::move(committed));
}

void CommitWatch::Close() {
  {
    absl::MutexLock lock(&mu_);
    closed_ = true;
  }
  feed_.Close();
}

uint64_t CommitWatch::head() {
  absl::MutexLock lock(&mu_);
  return head_;
}

std::pair<uint64_t, bool> CommitWatch::WaitBeyond(uint64_t after, absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  auto ready = [this, after]()
                   ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return closed_ || head_ > after; };
  mu_.AwaitWithTimeout(absl::Condition(&ready), timeout);
  return {head_, !closed_};
}

std::unique_ptr<Subscription> Subscription::ForLog(std::unique_ptr<LogSource> reader,
                                                   std::shared_ptr<CommitWatch> watch,
                                                   uint64_t after_position) {
  return std::unique_ptr<Subscription>(
      new Subscription(std::move(reader), std::move(watch), std::nullopt, after_position));
}

std::unique_ptr<Subscription> Subscription::ForGame(std::unique_ptr<LogSource> reader,
                                                    std::shared_ptr<CommitWatch> watch,
                                                    std::string game_id, uint64_t after_revision) {
  return std::unique_ptr<Subscription>(
      new Subscription(std::move(reader), std::move(watch), std::move(game_id), after_revision));
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Subscription::Next(absl::Duration timeout,
                                                                size_t max) {
  absl::Time deadline = absl::Now() + timeout;
  for (;;) {
    // Read the head before querying: any commit after this bumps it, so
    // waiting for a larger head cannot miss a wake-up.
    uint64_t head = watch_->head();
    absl::StatusOr<std::vector<v1::LedgerEntry>> got =
        game_id_ ? reader_->ReadGame(*game_id_, cursor_, max) : reader_->ReadLog(cursor_, max);
    if (!got.ok()) return got.status();
    if (!got->empty()) {
      cursor_ = game_id_ ? got->back().revision() : got->back().position();
      return got;
    }
    absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) return got;
    auto [now, open] = watch_->WaitBeyond(head, left);
    if (!open) return absl::CancelledError("the ledger has closed");
    if (now == head) return std::vector<v1::LedgerEntry>();
  }
}

}  // namespace arbiter::ledger
