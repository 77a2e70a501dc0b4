// A test above the ledger: its public headers, a backend's reader, not its internals.
#include "ledger/ledger.h"
#include "ledger/sqlite/log_reader.h"
#include "ledger/internal/append_rows.h"
