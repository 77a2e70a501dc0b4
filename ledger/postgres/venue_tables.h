// The venue tables in a PostgreSQL ledger (venue_tables.h), on a
// connection of their own.
#ifndef ARBITER_LEDGER_POSTGRES_VENUE_TABLES_H_
#define ARBITER_LEDGER_POSTGRES_VENUE_TABLES_H_

#include <memory>

#include "ledger/internal/venue_tables.h"
#include "ledger/postgres/pg.h"

namespace arbiter::ledger {

std::unique_ptr<VenueTables> PgVenueTablesOn(PgConn conn);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_POSTGRES_VENUE_TABLES_H_
