// The ledger in a PostgreSQL database (internal to the ledger; use ledger.h
// with a postgresql:// location): the same tables, rows and bytes as the
// SQLite ledger, written by any number of processes at once.
//
// Each process groups its concurrent appends into one transaction, as the
// SQLite writer does. The order is decided in the database:
//  - the global order by one sequencer at a time: each batch's transaction
//    first takes a transaction-scoped advisory lock (the lease), so
//    positions are gapless and the Merkle tree and checkpoints are over
//    one order; the lease ends with the COMMIT, or with the connection when
//    its holder dies, and the next server takes it at once;
//  - each game's order by a row lock on its stream head (`streams`), read
//    FOR UPDATE, so the revision an append is checked and judged against
//    is the one it commits after.
// A server keeps only what is committed: the Merkle edge, extended by the
// leaves other servers committed (read under the lease), and the judge's
// folds, which it uses only at the revision the database holds.
#ifndef ARBITER_LEDGER_PG_STORE_H_
#define ARBITER_LEDGER_PG_STORE_H_

#include <memory>

#include "absl/status/statusor.h"
#include "ledger/ledger.h"
#include "ledger/ledger_store.h"

namespace arbiter::ledger {

// Connects to `options.dir` (a libpq URI), creates the schema if absent,
// loads or makes the signing key in `options.key_dir` and pins it in the
// database. INVALID_ARGUMENT without a key directory; UNAVAILABLE when the
// database cannot be reached; FAILED_PRECONDITION when the key is not the
// one the ledger was made with, or the schema version differs.
absl::StatusOr<std::unique_ptr<LedgerStore>> OpenPgStore(LedgerOptions options);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_PG_STORE_H_
