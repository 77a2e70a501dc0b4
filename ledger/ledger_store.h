// The storage seam under `Ledger` (internal to the ledger; use ledger.h):
// what differs between a ledger in a SQLite file (sqlite_store.h) and one
// in a PostgreSQL database (pg_store.h). Everything else the ledger offers
// (reads, proofs, bundles, subscriptions) is written once, against the
// LogSource a store opens.
#ifndef ARBITER_LEDGER_LEDGER_STORE_H_
#define ARBITER_LEDGER_LEDGER_STORE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/append_callback.h"
#include "ledger/audit.h"
#include "ledger/expected_revision.h"
#include "ledger/log_source.h"
#include "ledger/signer.h"
#include "ledger/subscription.h"

namespace arbiter::ledger {

class LedgerStore {
 public:
  // Finishes the appends already queued and closes the watch.
  virtual ~LedgerStore() = default;

  // As Ledger::Append, AppendAsync and Checkpoint (ledger.h), errors included.
  virtual absl::StatusOr<std::vector<v1::LedgerEntry>> Append(const std::string& game_id,
                                                              ExpectedRevision expected,
                                                              std::vector<v1::Event> events) = 0;
  virtual void AppendAsync(const std::string& game_id, ExpectedRevision expected,
                           std::vector<v1::Event> events, AppendCallback done) = 0;
  virtual absl::StatusOr<v1::Checkpoint> Checkpoint() = 0;

  // A new connection for reads of committed data.
  virtual absl::StatusOr<std::unique_ptr<LogSource>> OpenReader() = 0;

  // The audit of everything committed (audit.h), on a snapshot of its own.
  virtual absl::StatusOr<AuditReport> Audit(const AuditOptions& options) = 0;

  // The committed head, published after each commit this store sees.
  virtual std::shared_ptr<CommitWatch> watch() = 0;

  // True when other processes may append to the same ledger.
  virtual bool shared() const = 0;

  // The key the store signs checkpoints with.
  virtual const Signer& signer() const = 0;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_LEDGER_STORE_H_
