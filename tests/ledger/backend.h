// The two places a ledger can live, for tests that hold both to the same
// promises: a SQLite file in the test's directory, or a database of its
// own on the test binary's throwaway PostgreSQL cluster.
#ifndef ARBITER_TESTS_LEDGER_BACKEND_H_
#define ARBITER_TESTS_LEDGER_BACKEND_H_

#include <string>

#include "gtest/gtest.h"
#include "ledger/ledger.h"
#include "tests/support/pg_cluster.h"

namespace arbiter::ledger::testing {

enum class Backend { kSqlite, kPostgres };

// Every backend of ledger/internal/backends.h: the parameterized ledger suites run
// on each (a new backend adds itself here, ledger/README.md).
inline constexpr Backend kAllBackends[] = {Backend::kSqlite, Backend::kPostgres};

inline std::string BackendName(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::kSqlite ? "Sqlite" : "Postgres";
}

// The options of a ledger on `backend`: in `dir`, or in a new database
// (its URI stored in `*uri` on first use) with the signing key in `dir`.
inline LedgerOptions OptionsFor(Backend backend, const std::string& dir, std::string* uri) {
  LedgerOptions o;
  o.dir = dir;
  if (backend == Backend::kPostgres) {
    if (uri->empty()) {
      absl::StatusOr<std::string> made = arbiter::testing::SharedPgCluster().NewDatabase();
      EXPECT_TRUE(made.ok()) << made.status();
      *uri = made.value_or("");
    }
    o.dir = *uri;
    o.key_dir = dir;
  }
  return o;
}

}  // namespace arbiter::ledger::testing

#endif  // ARBITER_TESTS_LEDGER_BACKEND_H_
