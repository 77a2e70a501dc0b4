// The version of the ledger's tables, the same in every backend: each
// records it in its database when it makes the tables and refuses a ledger
// of another version (sqlite/schema.h says which older one it migrates).
#ifndef ARBITER_LEDGER_SCHEMA_VERSION_H_
#define ARBITER_LEDGER_SCHEMA_VERSION_H_

namespace arbiter::ledger {

// 2: idempotency keys unique per game (1: over the whole log).
inline constexpr int kSchemaVersion = 2;

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SCHEMA_VERSION_H_
