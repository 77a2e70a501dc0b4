// The audit of a PostgreSQL ledger (`arbiter verify --db postgresql://...`):
// one REPEATABLE READ snapshot of its tables copied, byte for byte, into a
// temporary SQLite ledger, which the one audit (audit.h) then checks. So
// both backends are held to exactly the same checks, and a verifier needs
// only read access to the database.
#ifndef ARBITER_LEDGER_POSTGRES_SNAPSHOT_H_
#define ARBITER_LEDGER_POSTGRES_SNAPSHOT_H_

#include <string>

#include "absl/status/statusor.h"
#include "ledger/audit.h"

namespace arbiter::ledger {

// Copies the ledger at `uri` into a new SQLite database at `sqlite_path`
// (which must not exist). UNAVAILABLE when the database cannot be read or
// the file written.
absl::Status CopyPgLedgerToSqlite(const std::string& uri, const std::string& sqlite_path);

// Audits the ledger at `uri` (see AuditLog) through such a copy, in a
// temporary directory removed afterwards.
absl::StatusOr<AuditReport> AuditPostgres(const std::string& uri, const AuditOptions& options);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_POSTGRES_SNAPSHOT_H_
