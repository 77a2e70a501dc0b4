#include "ledger/commit_feed.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "ledger/internal/append_job.h"

namespace arbiter::ledger {

void CommitFeed::Restart(uint64_t head) {
  kept_.clear();
  kept_bytes_ = 0;
  head_ = head;
}

void CommitFeed::Publish(uint64_t head, std::vector<v1::LedgerEntry> committed) {
  {
    absl::MutexLock lock(&mu_);
    if (closed_ || head <= head_) return;
    std::erase_if(committed, [this](const v1::LedgerEntry& e) { return e.position() <= head_; });
    std::sort(committed.begin(), committed.end(),
              [](const v1::LedgerEntry& a, const v1::LedgerEntry& b) {
                return a.position() < b.position();
              });
    bool joins = committed.size() == head - head_;
    for (size_t i = 0; joins && i < committed.size(); ++i) {
      joins = committed[i].position() == head_ + 1 + i;
    }
    if (!joins) {
      Restart(head);
    } else {
      for (v1::LedgerEntry& e : committed) {
        const size_t bytes = e.ByteSizeLong();
        bytes_through_ += bytes;
        kept_bytes_ += bytes;
        kept_.push_back(
            Kept{std::make_shared<const v1::LedgerEntry>(std::move(e)), bytes, bytes_through_});
      }
      head_ = head;
      while (!kept_.empty() &&
             (kept_.size() > limits_.max_entries || kept_bytes_ > limits_.max_bytes)) {
        kept_bytes_ -= kept_.front().bytes;
        kept_.pop_front();
      }
    }
  }
  Tell(head);
}

void CommitFeed::PublishCheckpoint(uint64_t tree_size) {
  uint64_t head;
  {
    absl::MutexLock lock(&mu_);
    if (closed_ || tree_size <= checkpointed_) return;
    checkpointed_ = tree_size;
    head = head_;
  }
  Tell(head);
}

void CommitFeed::Close() {
  uint64_t head;
  {
    absl::MutexLock lock(&mu_);
    if (closed_) return;
    closed_ = true;
    head = head_;
  }
  Tell(head);
}

void CommitFeed::Tell(uint64_t head) {
  absl::MutexLock lock(&listeners_mu_);
  for (auto& [id, listener] : listeners_) listener(head);
}

CommitFeed::Slice CommitFeed::Read(uint64_t after, size_t max) {
  absl::MutexLock lock(&mu_);
  Slice slice;
  slice.head = head_;
  slice.closed = closed_;
  const uint64_t first = head_ + 1 - kept_.size();
  slice.in_window = after + 1 >= first;
  if (!slice.in_window || after >= head_) return slice;
  for (uint64_t p = after + 1; p <= head_ && slice.entries.size() < max; ++p) {
    slice.entries.push_back(kept_[p - first].entry);
  }
  return slice;
}

absl::StatusOr<size_t> ReadPublished(CommitFeed& feed, LogSource& log, uint64_t after, size_t max,
                                     absl::FunctionRef<void(const v1::LedgerEntry&)> follow) {
  const CommitFeed::Slice slice = feed.Read(after, max);
  if (slice.in_window) {
    for (const auto& entry : slice.entries) follow(*entry);
    return slice.entries.size();
  }
  if (slice.head <= after) return 0;
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      log.ReadLog(after, std::min<uint64_t>(max, slice.head - after));
  if (!entries.ok()) return entries.status();
  for (const v1::LedgerEntry& entry : *entries) follow(entry);
  return entries->size();
}

size_t CommitFeed::BytesAfter(uint64_t after) {
  absl::MutexLock lock(&mu_);
  const uint64_t first = head_ + 1 - kept_.size();
  if (after + 1 < first) return std::numeric_limits<size_t>::max();
  if (after >= head_) return 0;
  const uint64_t through_after = after + 1 == first
                                     ? kept_.front().bytes_through - kept_.front().bytes
                                     : kept_[after - first].bytes_through;
  return bytes_through_ - through_after;
}

uint64_t CommitFeed::head() {
  absl::MutexLock lock(&mu_);
  return head_;
}

uint64_t CommitFeed::checkpointed() {
  absl::MutexLock lock(&mu_);
  return checkpointed_;
}

uint64_t CommitFeed::first() {
  absl::MutexLock lock(&mu_);
  return head_ + 1 - kept_.size();
}

int CommitFeed::AddListener(Listener listener) {
  absl::MutexLock lock(&listeners_mu_);
  const int id = next_listener_++;
  listeners_.emplace(id, std::move(listener));
  return id;
}

void CommitFeed::RemoveListener(int id) {
  absl::MutexLock lock(&listeners_mu_);
  listeners_.erase(id);
}

std::vector<v1::LedgerEntry> CommittedEntries(const std::vector<AppendJob*>& jobs) {
  std::vector<v1::LedgerEntry> out;
  for (const AppendJob* job : jobs) {
    if (job->dry_run || !job->status.ok()) continue;
    out.insert(out.end(), job->entries.begin(), job->entries.end());
  }
  return out;
}

}  // namespace arbiter::ledger
