// The audit's snapshot of a SQLite ledger (AuditSource, audit_source.h):
// one read transaction on a connection of its own, its rows stepped
// straight out of SQLite, one at a time.
#ifndef ARBITER_LEDGER_SQLITE_AUDIT_SOURCE_H_
#define ARBITER_LEDGER_SQLITE_AUDIT_SOURCE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ledger/internal/audit_source.h"

namespace arbiter::ledger {

// Opens the database file read-only (it must exist) and begins the
// snapshot. UNAVAILABLE when it cannot be opened or read.
absl::StatusOr<std::unique_ptr<AuditSource>> OpenSqliteAuditSource(const std::string& db_path,
                                                                   const char* vfs = nullptr);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SQLITE_AUDIT_SOURCE_H_
