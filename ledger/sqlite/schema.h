// The ledger's SQLite schema. Every table is append-only: triggers refuse
// UPDATE and DELETE, so the canonical bytes of an event are never
// rewritten. (Triggers keep honest code honest; `arbiter verify` catches an
// attacker who drops them.)
#ifndef ARBITER_LEDGER_SQLITE_SCHEMA_H_
#define ARBITER_LEDGER_SQLITE_SCHEMA_H_

#include "absl/status/status.h"
#include "ledger/internal/schema_version.h"
#include "ledger/sqlite.h"

namespace arbiter::ledger {

// Sets WAL and synchronous=FULL, and creates the tables and triggers if the
// database is new; migrates one of schema 1 (an index and the version
// change, no data; `arbiter verify` reads one as it is); refuses any other
// version than kSchemaVersion.
absl::Status PrepareSchema(Db& db);

// The pragmas every connection needs (synchronous=FULL is per connection).
absl::Status ConfigureConnection(Db& db);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SQLITE_SCHEMA_H_
