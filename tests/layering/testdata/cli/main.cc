// The top: anything but tests, and of the ledger only its public headers.
#include "adjudicator/service/server.h"
#include "ledger/ledger.h"
#include "tests/support/files.h"
#include "ledger/store.h"
#include "ledger/sqlite/writer_internal.h"
#include "ledger/internal/append_rows.h"
