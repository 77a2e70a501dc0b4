// What the audit (audit.h) reads of a ledger, whatever database holds it:
// the stored rows themselves, on one consistent snapshot. A Store opens one
// (Store::OpenAuditSource): SQLite in a read transaction, PostgreSQL in a
// REPEATABLE READ READ ONLY transaction whose rows come through server-side
// cursors, a page at a time, so the log is never held in memory whole.
//
// The rows are the raw ones, not LogSource's checked entries: the audit
// looks for what the ledger's own readers would refuse (a duplicated or
// missing position, a ruling row of no event, bytes that do not parse), so
// nothing here checks or drops a row.
//
// Errors, for every method: UNAVAILABLE when the database cannot be read
// (a lost connection, an I/O error), DATA_LOSS when the database itself
// reports damage (SQLite's "malformed", PostgreSQL's data corruption); the
// audit reports DATA_LOSS as a finding.
#ifndef ARBITER_LEDGER_INTERNAL_AUDIT_SOURCE_H_
#define ARBITER_LEDGER_INTERNAL_AUDIT_SOURCE_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"

namespace arbiter::ledger {

// One row of the events table, as stored.
struct StoredEvent {
  int64_t position = 0;
  std::string game_id;
  int64_t revision = 0;
  // Empty when NULL: the audit compares it with the event's own key, whose
  // absence is the empty string too.
  std::string idempotency_key;
  std::string event;  // the canonical bytes
  std::string leaf_hash;
};

// One row of the rulings table, as stored.
struct StoredRuling {
  int64_t position = 0;
  int64_t seq = 0;
  std::string ruling;  // the canonical bytes
};

class AuditSource {
 public:
  virtual ~AuditSource() = default;

  // The last position in the snapshot (0 for an empty log), for progress.
  virtual absl::StatusOr<uint64_t> Head() = 0;

  // The public key recorded when the ledger was made (DER); NOT_FOUND if
  // none.
  virtual absl::StatusOr<std::string> RecordedPublicKey() = 0;

  // All checkpoints, by tree size; DATA_LOSS when a row does not parse or
  // is not the size its row says (log_rows.h, CheckpointRow).
  virtual absl::StatusOr<std::vector<v1::Checkpoint>> Checkpoints() = 0;

  // Each game's rules pin (the games table), by game id.
  virtual absl::StatusOr<std::unordered_map<std::string, std::string>> RulesPins() = 0;

  // Each game's last revision in the snapshot, by game id: the audit lets
  // go of a game's fold once it has re-judged that revision, rather than
  // holding every game's to the end. Empty when the source does not say
  // (every fold is then kept).
  virtual absl::StatusOr<std::unordered_map<std::string, uint64_t>> LastRevisions() {
    return std::unordered_map<std::string, uint64_t>();
  }

  // Fills `row` with the next events row, in position order (rows of one
  // position in any order); false, `row` untouched, after the last.
  virtual absl::StatusOr<bool> NextEvent(StoredEvent& row) = 0;

  // Fills `row` with the next rulings row, in (position, seq) order; false,
  // `row` untouched, after the last. Independent of NextEvent.
  virtual absl::StatusOr<bool> NextRuling(StoredRuling& row) = 0;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_AUDIT_SOURCE_H_
