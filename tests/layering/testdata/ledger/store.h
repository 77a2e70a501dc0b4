// Allowed: proto, rulesdb, the ledger itself, third-party headers.
#include <sqlite3.h>
#include "arbiter/v1/events.pb.h"
#include "ledger/sqlite.h"
#include "rulesdb/rules.h"
// Not allowed:
#include "adjudicator/engine/board.h"
#include "cli/commands.h"
