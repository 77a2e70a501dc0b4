// The ledger's signed checkpoints, indexed: their tree sizes kept in memory
// in order, and the newest one whole, so that a request finds the latest
// checkpoint or the one covering a position by a binary search and reads at
// most that one row, instead of reading every checkpoint (with
// --sign-within they grow by one per busy second).
//
// The index follows the commit feed (commit_feed.h): a commit that signs a
// checkpoint (this process's, or another server's seen by its head poll on
// a shared ledger) raises the feed's checkpointed(), and the next lookup
// reads only the checkpoints signed since. Nothing is read while nothing is
// asked.
#ifndef ARBITER_LEDGER_CHECKPOINT_INDEX_H_
#define ARBITER_LEDGER_CHECKPOINT_INDEX_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/commit_feed.h"

namespace arbiter::ledger {

class CheckpointIndex {
 public:
  // The stored checkpoints whose tree size is in [first, last], by size.
  using Reader =
      std::function<absl::StatusOr<std::vector<v1::Checkpoint>>(uint64_t first, uint64_t last)>;

  CheckpointIndex(Reader read, std::shared_ptr<CommitFeed> commits);

  // The newest checkpoint; NOT_FOUND when none is signed yet.
  absl::StatusOr<v1::Checkpoint> Latest();
  // The earliest checkpoint whose tree holds `position` (tree_size >=
  // position); nullopt when none does yet.
  absl::StatusOr<std::optional<v1::Checkpoint>> Covering(uint64_t position);
  // The checkpoint of exactly `tree_size`; nullopt when none was signed.
  absl::StatusOr<std::optional<v1::Checkpoint>> OfSize(uint64_t tree_size);
  // The tree sizes of the checkpoints that hold `position`, oldest first.
  absl::StatusOr<std::vector<uint64_t>> SizesCovering(uint64_t position);

 private:
  // Reads the checkpoints signed since the last look, if the feed says any were.
  absl::Status RefreshLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::StatusOr<std::optional<v1::Checkpoint>> ReadOne(uint64_t tree_size);

  const Reader read_;
  const std::shared_ptr<CommitFeed> commits_;
  absl::Mutex mu_;
  bool loaded_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<uint64_t> sizes_ ABSL_GUARDED_BY(mu_);  // ascending
  v1::Checkpoint latest_ ABSL_GUARDED_BY(mu_);        // sizes_.back()'s
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_CHECKPOINT_INDEX_H_
