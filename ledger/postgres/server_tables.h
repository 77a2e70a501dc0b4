// The server's tables (server_tables.h) in a PostgreSQL ledger.
#ifndef ARBITER_LEDGER_POSTGRES_SERVER_TABLES_H_
#define ARBITER_LEDGER_POSTGRES_SERVER_TABLES_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ledger/server_tables.h"

namespace arbiter::ledger {

// The tables in the database at `uri`, created with the ledger's own if
// absent, on a connection of their own. UNAVAILABLE when it cannot be
// reached.
absl::StatusOr<std::unique_ptr<ServerTables>> OpenPgServerTables(const std::string& uri);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_POSTGRES_SERVER_TABLES_H_
