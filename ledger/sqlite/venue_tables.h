// The venue tables in a SQLite ledger's file (venue_tables.h), on a
// connection of their own.
#ifndef ARBITER_LEDGER_SQLITE_VENUE_TABLES_H_
#define ARBITER_LEDGER_SQLITE_VENUE_TABLES_H_

#include <memory>

#include "ledger/internal/venue_tables.h"
#include "ledger/sqlite.h"

namespace arbiter::ledger {

std::unique_ptr<VenueTables> SqliteVenueTablesOn(Db db);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SQLITE_VENUE_TABLES_H_
