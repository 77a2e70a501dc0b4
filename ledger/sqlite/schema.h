// The ledger's SQLite schema. Every table is append-only: triggers refuse
// UPDATE and DELETE, so the canonical bytes of an event are never
// rewritten. (Triggers keep honest code honest; `arbiter verify` catches an
// attacker who drops them.)
#ifndef ARBITER_LEDGER_SQLITE_SCHEMA_H_
#define ARBITER_LEDGER_SQLITE_SCHEMA_H_

#include "absl/status/status.h"
#include "ledger/sqlite.h"

namespace arbiter::ledger {

// 3: the log may hold tournament streams ("tournaments/{id}", stream.h),
// which a reader of schema 2 would misparse as games, so it must refuse
// them. 2: idempotency keys unique per game (1: over the whole log). A
// ledger of schema 1 or 2 is migrated when opened for writing (an index
// and the version change, no data), and read as it is by `arbiter verify`.
inline constexpr int kSchemaVersion = 3;

// Sets WAL and synchronous=FULL, and creates the tables and triggers if the
// database is new; migrates one of schema 1; refuses any other version.
absl::Status PrepareSchema(Db& db);

// The pragmas every connection needs (synchronous=FULL is per connection).
absl::Status ConfigureConnection(Db& db);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SQLITE_SCHEMA_H_
