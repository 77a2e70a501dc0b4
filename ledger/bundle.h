// The self-contained audit bundle of one game (`arbiter export`): its
// events with rulings and inclusion proofs against one signed checkpoint,
// the public key and the rules pin. `arbiter verify --bundle` checks it
// with no database.
#ifndef ARBITER_LEDGER_BUNDLE_H_
#define ARBITER_LEDGER_BUNDLE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/log_source.h"
#include "ledger/merkle.h"

namespace arbiter::ledger {

// Builds the bundle for `game_id` against the earliest checkpoint that
// covers the game's last event (its game-end checkpoint, if it ended).
// `game_id` may name a tournament's stream ("tournaments/{id}", stream.h):
// its bundle has no rules pin, its entries no rulings.
// FAILED_PRECONDITION if no checkpoint covers it yet; DATA_LOSS if the log
// does not match the checkpoint (run the audit). Leaves are recomputed from
// the stored event bytes, never taken on trust.
absl::StatusOr<v1::AuditBundle> ExportBundle(LogSource& reader, const std::string& game_id);

// The bundles of many games of one log (`arbiter sync`): the leaves are
// hashed from the event bytes once, into one Merkle tree grown as far as
// the checkpoints asked for reach, and each game's bundle then costs its own
// events and their proofs, not a re-read of the log (G games of a log of N
// events: N leaf hashes, not G·N). Not thread-safe; `reader` must outlive it.
class BundleExporter {
 public:
  explicit BundleExporter(LogSource& reader) : reader_(reader) {}
  // As ExportBundle.
  absl::StatusOr<v1::AuditBundle> Export(const std::string& game_id);

 private:
  // Hashes the leaves up to `tree_size` into tree_; DATA_LOSS on a gap.
  absl::Status Grow(uint64_t tree_size);

  LogSource& reader_;
  MerkleTree tree_;
  std::vector<v1::Checkpoint> checkpoints_;  // as last read
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_BUNDLE_H_
