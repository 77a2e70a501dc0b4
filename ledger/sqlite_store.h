// The ledger in a SQLite file (internal to the ledger; use ledger.h): one
// writing process per data directory (ledger.lock), its signing key beside
// the database, and the group-committing writer thread (writer.h).
#ifndef ARBITER_LEDGER_SQLITE_STORE_H_
#define ARBITER_LEDGER_SQLITE_STORE_H_

#include <memory>

#include "absl/status/statusor.h"
#include "ledger/ledger.h"
#include "ledger/ledger_store.h"

namespace arbiter::ledger {

// Opens or creates the ledger in `options.dir`; FAILED_PRECONDITION if
// another process has it open or ledger.key is not the key it was made
// with; UNAVAILABLE if the directory or database cannot be opened.
absl::StatusOr<std::unique_ptr<LedgerStore>> OpenSqliteStore(LedgerOptions options);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SQLITE_STORE_H_
