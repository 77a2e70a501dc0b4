// Allowed: the backend-independent ledger, its own folder, libpq.
#include <libpq-fe.h>
#include "ledger/internal/audit_source.h"
#include "ledger/postgres/pg.h"
#include "ledger/internal/schema_version.h"
// Not allowed: anything of the SQLite backend.
#include "ledger/sqlite/schema.h"
#include "ledger/sqlite.h"
#include <sqlite3.h>
