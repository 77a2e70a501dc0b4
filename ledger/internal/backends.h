// The ledger's backends, each a folder of its own, in the order they are
// asked whether a location is theirs (internal to the ledger; OpenStore in
// store.h picks one). A new backend adds its two functions and one row here
// (ledger/README.md, "A new backend").
#ifndef ARBITER_LEDGER_INTERNAL_BACKENDS_H_
#define ARBITER_LEDGER_INTERNAL_BACKENDS_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "ledger/store.h"

namespace arbiter::ledger {

struct Backend {
  const char* name;
  // Whether `location` names a ledger of this backend.
  bool (*claims)(const std::string& location);
  // The store at `location` (Store; connects to nothing yet).
  absl::StatusOr<std::unique_ptr<Store>> (*open)(const std::string& location,
                                                 const StoreOptions& options);
};

// ledger/postgres/store.cc: a postgresql:// or postgres:// URI.
bool ClaimsPostgres(const std::string& location);
absl::StatusOr<std::unique_ptr<Store>> OpenPostgresStore(const std::string& location,
                                                         const StoreOptions& options);

// ledger/sqlite/store.cc: anything else, a data directory or its ledger.db.
bool ClaimsSqlite(const std::string& location);
absl::StatusOr<std::unique_ptr<Store>> OpenSqliteStore(const std::string& location,
                                                       const StoreOptions& options);

inline constexpr Backend kBackends[] = {
    {"postgres", ClaimsPostgres, OpenPostgresStore},
    {"sqlite", ClaimsSqlite, OpenSqliteStore},  // last: it claims every location
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_BACKENDS_H_
