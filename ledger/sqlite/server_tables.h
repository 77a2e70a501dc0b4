// The server's tables (server_tables.h) in a SQLite ledger's file.
#ifndef ARBITER_LEDGER_SQLITE_SERVER_TABLES_H_
#define ARBITER_LEDGER_SQLITE_SERVER_TABLES_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "ledger/server_tables.h"
#include "ledger/sqlite.h"

namespace arbiter::ledger {

// The tables in `database` (a ledger.db), created with the ledger's own if
// absent, on a connection of their own through `vfs` (nullptr: the default);
// what they read of the tokens is kept at most `tokens_kept_for`
// (StoreOptions, store.h).
absl::StatusOr<std::unique_ptr<ServerTables>> OpenSqliteServerTables(
    const std::string& database, const char* vfs, absl::Duration tokens_kept_for);
// The tables in `database` only to read them, writing nothing (the ledger's
// audit way, Db::OpenReadOnly); a ledger without them reads as having none.
absl::StatusOr<std::unique_ptr<ServerTables>> OpenSqliteServerTablesToRead(
    const std::string& database, const char* vfs);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SQLITE_SERVER_TABLES_H_
