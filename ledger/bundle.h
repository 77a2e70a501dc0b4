// The self-contained audit bundle of one game (`arbiter export`): its
// events with rulings and inclusion proofs against one signed checkpoint,
// the public key and the rules pin. `arbiter verify --bundle` checks it
// with no database.
#ifndef ARBITER_LEDGER_BUNDLE_H_
#define ARBITER_LEDGER_BUNDLE_H_

#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/log_source.h"

namespace arbiter::ledger {

// Builds the bundle for `game_id` against the earliest checkpoint that
// covers the game's last event (its game-end checkpoint, if it ended).
// FAILED_PRECONDITION if no checkpoint covers it yet; DATA_LOSS if the log
// does not match the checkpoint (run the audit). Leaves are recomputed from
// the stored event bytes, never taken on trust.
absl::StatusOr<v1::AuditBundle> ExportBundle(LogSource& reader, const std::string& game_id);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_BUNDLE_H_
