// The storage seam under `Ledger` (internal to the ledger; use ledger.h):
// what differs between a ledger in a SQLite file (sqlite_store.cc) and one
// in a PostgreSQL database (pg_store.cc), and how each is opened. Everything
// else the ledger offers (reads, proofs, bundles, subscriptions) is written
// once, against the LogSource a store opens.
#ifndef ARBITER_LEDGER_LEDGER_STORE_H_
#define ARBITER_LEDGER_LEDGER_STORE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/append_job.h"
#include "ledger/audit.h"
#include "ledger/ledger.h"
#include "ledger/log_source.h"
#include "ledger/signer.h"
#include "ledger/subscription.h"

namespace arbiter::ledger {

class LedgerStore {
 public:
  // Finishes the appends already queued and closes the watch.
  virtual ~LedgerStore() = default;

  // Where appends and requests for a checkpoint wait for the store's
  // writer (append_job.h): Ledger::Append, AppendAsync and Checkpoint.
  virtual AppendQueue& queue() = 0;

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

// The ledger in a SQLite file in `options.dir`, opened or created: one
// writing process per data directory (ledger.lock), its signing key beside
// the database, and the group-committing writer thread (writer.h).
// FAILED_PRECONDITION if another process has it open or ledger.key is not
// the key it was made with; UNAVAILABLE if the directory or database cannot
// be opened.
absl::StatusOr<std::unique_ptr<LedgerStore>> OpenSqliteStore(LedgerOptions options);

// The ledger in the PostgreSQL database `options.dir` (a libpq URI), which
// any number of processes may write at once: connects, creates the schema
// if absent, loads or makes the signing key in `options.key_dir` and pins
// it in the database. INVALID_ARGUMENT without a key directory; UNAVAILABLE
// when the database cannot be reached; FAILED_PRECONDITION when the key is
// not the one the ledger was made with, or the schema version differs.
absl::StatusOr<std::unique_ptr<LedgerStore>> OpenPgStore(LedgerOptions options);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_LEDGER_STORE_H_
