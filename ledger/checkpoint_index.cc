#include "ledger/checkpoint_index.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace arbiter::ledger {

CheckpointIndex::CheckpointIndex(Reader read, std::shared_ptr<CommitFeed> commits)
    : read_(std::move(read)), commits_(std::move(commits)) {}

absl::Status CheckpointIndex::RefreshLocked() {
  const uint64_t known = sizes_.empty() ? 0 : sizes_.back();
  // Loaded once; then read again only past what is known, and only when a
  // newer checkpoint was signed since.
  if (loaded_ && commits_->checkpointed() <= known) return absl::OkStatus();
  absl::StatusOr<std::vector<v1::Checkpoint>> signed_since =
      read_(known + 1, std::numeric_limits<int64_t>::max());
  if (!signed_since.ok()) return signed_since.status();
  loaded_ = true;
  for (v1::Checkpoint& c : *signed_since) {
    if (!sizes_.empty() && c.tree_size() <= sizes_.back()) continue;
    sizes_.push_back(c.tree_size());
    latest_ = std::move(c);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<v1::Checkpoint>> CheckpointIndex::ReadOne(uint64_t tree_size) {
  absl::StatusOr<std::vector<v1::Checkpoint>> one = read_(tree_size, tree_size);
  if (!one.ok()) return one.status();
  if (one->empty()) return std::nullopt;
  return std::move(one->front());
}

absl::StatusOr<v1::Checkpoint> CheckpointIndex::Latest() {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = RefreshLocked(); !s.ok()) return s;
  if (sizes_.empty()) return absl::NotFoundError("no checkpoint has been signed yet");
  return latest_;
}

absl::StatusOr<std::vector<uint64_t>> CheckpointIndex::SizesCovering(uint64_t position) {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = RefreshLocked(); !s.ok()) return s;
  return std::vector<uint64_t>(std::lower_bound(sizes_.begin(), sizes_.end(), position),
                               sizes_.end());
}

absl::StatusOr<std::optional<v1::Checkpoint>> CheckpointIndex::Covering(uint64_t position) {
  uint64_t size = 0;
  {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = RefreshLocked(); !s.ok()) return s;
    auto it = std::lower_bound(sizes_.begin(), sizes_.end(), position);
    if (it == sizes_.end()) return std::nullopt;
    if (*it == sizes_.back()) return latest_;
    size = *it;
  }
  return ReadOne(size);
}

absl::StatusOr<std::optional<v1::Checkpoint>> CheckpointIndex::OfSize(uint64_t tree_size) {
  {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = RefreshLocked(); !s.ok()) return s;
    if (!std::binary_search(sizes_.begin(), sizes_.end(), tree_size)) return std::nullopt;
    if (tree_size == sizes_.back()) return latest_;
  }
  return ReadOne(tree_size);
}

}  // namespace arbiter::ledger
