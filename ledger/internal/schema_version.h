// The version of the ledger's tables, the same in every backend: each
// records it in its database when it makes the tables and refuses a ledger
// of another version (sqlite/schema.h says which older one it migrates).
#ifndef ARBITER_LEDGER_INTERNAL_SCHEMA_VERSION_H_
#define ARBITER_LEDGER_INTERNAL_SCHEMA_VERSION_H_

namespace arbiter::ledger {

// 4: the store holds webhook endpoints, their delivery cursors and their
// deliveries (server_tables.h, issue 46); a server of an older release
// beside them on a shared database would run without sending or leasing
// them, so it must refuse the database. The version row alone changes (the
// tables are made with the server's tables). 3: the log may hold tournament streams
// ("tournaments/{id}", stream.h), which a reader of schema 2 would misparse as games, so it must
// refuse them. 2: idempotency keys unique per game (1: over the whole log). A ledger of schema 1, 2
// or 3 is migrated when opened for writing (an index and the version change, no data), and read as
// it is by `arbiter verify`.
inline constexpr int kSchemaVersion = 4;

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_SCHEMA_VERSION_H_
