// Where a ledger lives, and what it offers there: the one place that tells
// a SQLite ledger (a data directory, or its ledger.db file) from a
// PostgreSQL one (a postgresql:// URI). Each backend is a folder of its own
// (ledger/sqlite/, ledger/postgres/) listed once in backends.h; a Store
// opened here hands out its readers, its audit snapshot, its venue tables,
// a server's own tables and, to Ledger::Open, its writer. The recipe for another backend is in
// ledger/README.md ("A new backend").
#ifndef ARBITER_LEDGER_STORE_H_
#define ARBITER_LEDGER_STORE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "ledger/audit.h"
#include "ledger/log_source.h"

namespace arbiter::ledger {

class AuditSource;     // audit_source.h (internal)
struct LedgerOptions;  // ledger.h
class ServerTables;    // server_tables.h
class StoreWriter;     // store_writer.h (internal)
class VenueTables;     // venue_tables.h (internal)

struct StoreOptions {
  // A SQLite ledger: the VFS its connections use (tests inject faults).
  const char* vfs = nullptr;
  // A SQLite ledger: how long its server tables answer "any token?" and a
  // token found by hash from what they last read, while the tokens' stamp
  // (ledger.db-tokens) is unchanged. The stamp tells them of every change
  // made through a server or `arbiter token` at once; this bound is for a
  // change whose stamp could not be written after its commit (a full
  // disk), or a row changed by hand: seen within it. Zero: every ask reads
  // the table.
  absl::Duration tokens_kept_for = absl::Seconds(1);
};

class Store {
 public:
  virtual ~Store() = default;

  // The database as the backend names it in messages: a SQLite ledger's
  // ledger.db path, a PostgreSQL URI.
  virtual const std::string& database() const = 0;

  // True when several processes may write the ledger at once (PostgreSQL):
  // a cache of what it holds must check GameRevision, and a server keeps
  // its own files (signing key, tokens) in a directory of its own.
  virtual bool shared() const = 0;

  // A new connection for reads of committed data. NOT_FOUND when no ledger
  // is there (no SQLite file); UNAVAILABLE when it cannot be reached.
  virtual absl::StatusOr<std::unique_ptr<LogSource>> OpenReader() = 0;

  // A consistent snapshot of everything committed, as the audit reads it
  // (audit_source.h). NOT_FOUND when no ledger is there (no SQLite file);
  // UNAVAILABLE when it cannot be reached or read.
  virtual absl::StatusOr<std::unique_ptr<AuditSource>> OpenAuditSource() = 0;

  // The audit of everything committed (audit.h) on a snapshot of its own
  // (OpenAuditSource), the same audit for every backend. OpenAuditSource's
  // errors, and AuditLog's.
  absl::StatusOr<AuditReport> Audit(const AuditOptions& options);

  // The venue tables' statements in the backend's dialect (venue_proofs.h
  // uses them); UNAVAILABLE when the database cannot be opened.
  virtual absl::StatusOr<std::unique_ptr<VenueTables>> OpenVenueTables(bool read_only) = 0;

  // What a server keeps besides the log (server_tables.h): its tokens,
  // console sessions, cosignatures and set-once meta rows, in the
  // ledger's database, created with the ledger's tables if absent. Opened
  // without the ledger's writer (a SQLite data folder's lock is not taken),
  // so `arbiter token` works while a server runs. `read_only`: only to read
  // them (a SQLite ledger is then opened as its audit opens it, writing
  // nothing; a table it lacks reads as empty). UNAVAILABLE when the
  // database cannot be opened or reached.
  virtual absl::StatusOr<std::unique_ptr<ServerTables>> OpenServerTables(bool read_only) = 0;

  // The store's writer, for Ledger::Open (ledger.h documents the errors).
  virtual absl::StatusOr<std::unique_ptr<StoreWriter>> OpenWriter(LedgerOptions options) = 0;
};

// The store at `location`, by the first backend that claims it
// (backends.h): a postgresql:// or postgres:// URI is a PostgreSQL
// database; anything else is a SQLite ledger, named by its data directory
// or by its ledger.db file. Connects to nothing yet. INVALID_ARGUMENT for an
// empty location.
absl::StatusOr<std::unique_ptr<Store>> OpenStore(const std::string& location,
                                                 StoreOptions options = {});

// Whether `location` names a ledger several servers share (as
// Store::shared, without opening it).
bool IsSharedStore(const std::string& location);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_STORE_H_
