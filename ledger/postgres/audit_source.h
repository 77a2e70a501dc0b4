// The audit's snapshot of a PostgreSQL ledger (AuditSource,
// audit_source.h), for `arbiter verify --db postgresql://...`: one
// REPEATABLE READ READ ONLY transaction on a connection of its own, its
// events and rulings read through two server-side cursors a page at a time.
// Nothing is copied anywhere, and a verifier needs only read access to the
// database.
#ifndef ARBITER_LEDGER_POSTGRES_AUDIT_SOURCE_H_
#define ARBITER_LEDGER_POSTGRES_AUDIT_SOURCE_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ledger/internal/audit_source.h"

namespace arbiter::ledger {

// Rows fetched per round trip: a few MiB of events at most.
inline constexpr int kAuditPageRows = 2000;

// Connects to `uri` and begins the snapshot, whose cursors fetch
// `page_rows` rows at a time (tests make pages small). UNAVAILABLE when the
// server cannot be reached or the ledger's tables read.
absl::StatusOr<std::unique_ptr<AuditSource>> OpenPgAuditSource(const std::string& uri,
                                                               int page_rows = kAuditPageRows);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_POSTGRES_AUDIT_SOURCE_H_
