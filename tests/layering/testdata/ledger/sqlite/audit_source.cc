// Allowed: the backend-independent ledger, its own folder, SQLite.
#include <sqlite3.h>
#include "ledger/internal/audit_source.h"
#include "ledger/sqlite.h"
#include "ledger/sqlite/log_reader.h"
// Not allowed: anything of the PostgreSQL backend.
#include "ledger/postgres/pg.h"
#include <libpq-fe.h>
