// The thin SQLite layer (ledger/sqlite.h): a transaction's own statements
// are prepared once per connection and kept, through a move, a rollback and
// a failed COMMIT, which leaves the transaction open to be put right.
#include "ledger/sqlite.h"

#include <sqlite3.h>

#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using testing::TempDir;

// The statements the connection holds whose text is `sql`.
int Held(const Db& db, const std::string& sql) {
  int n = 0;
  for (sqlite3_stmt* s = sqlite3_next_stmt(db.get(), nullptr); s != nullptr;
       s = sqlite3_next_stmt(db.get(), s)) {
    n += sql == sqlite3_sql(s) ? 1 : 0;
  }
  return n;
}

int64_t Rows(Db& db) {
  absl::StatusOr<Stmt> q = Stmt::Prepare(db, "SELECT count(*) FROM t");
  EXPECT_TRUE(q.ok()) << q.status();
  absl::StatusOr<bool> row = q->Step();
  EXPECT_TRUE(row.ok() && *row);
  return q->Int(0);
}

Db Opened(const TempDir& dir) {
  absl::StatusOr<Db> db = Db::Open(dir.File("t.db"), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  EXPECT_TRUE(db.ok()) << db.status();
  EXPECT_TRUE(db->Exec("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;"
                       "CREATE TABLE p(id INTEGER PRIMARY KEY);"
                       "CREATE TABLE t(x INTEGER, p INTEGER REFERENCES p(id)"
                       " DEFERRABLE INITIALLY DEFERRED)")
                  .ok());
  return *std::move(db);
}

TEST(DbTest, ATransactionsStatementsArePreparedOnceAndKept) {
  TempDir dir("arbiter-sqlite-tx");
  Db db = Opened(dir);
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<Transaction> tx = Transaction::Write(db);
    ASSERT_TRUE(tx.ok()) << tx.status();
    ASSERT_TRUE(db.Exec("INSERT INTO t(x) VALUES (1)").ok());
    ASSERT_TRUE(tx->Commit().ok());
  }
  EXPECT_EQ(Rows(db), 3);
  EXPECT_EQ(Held(db, "BEGIN IMMEDIATE"), 1);
  EXPECT_EQ(Held(db, "COMMIT"), 1);
  {
    absl::StatusOr<Transaction> read = Transaction::Read(db);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_TRUE(db.InTransaction());
  }  // a read transaction left uncommitted is rolled back
  EXPECT_FALSE(db.InTransaction());
  EXPECT_EQ(Held(db, "BEGIN"), 1);
  EXPECT_EQ(Held(db, "ROLLBACK"), 1);

  // Moved, the connection keeps them (and runs them).
  Db moved = std::move(db);
  {
    absl::StatusOr<Transaction> tx = Transaction::Write(moved);
    ASSERT_TRUE(tx.ok()) << tx.status();
    ASSERT_TRUE(moved.Exec("INSERT INTO t(x) VALUES (2)").ok());
  }  // not committed: rolled back
  EXPECT_EQ(Rows(moved), 3);
  EXPECT_EQ(Held(moved, "BEGIN IMMEDIATE"), 1);
  EXPECT_EQ(Held(moved, "ROLLBACK"), 1);
}

TEST(DbTest, AFailedCommitLeavesTheTransactionOpenAndItsStatementReusable) {
  TempDir dir("arbiter-sqlite-commit");
  Db db = Opened(dir);
  absl::StatusOr<Transaction> tx = Transaction::Write(db);
  ASSERT_TRUE(tx.ok()) << tx.status();
  // A row naming a parent that does not exist: the deferred foreign key
  // refuses the COMMIT.
  ASSERT_TRUE(db.Exec("INSERT INTO t(x, p) VALUES (1, 7)").ok());
  const absl::Status refused = tx->Commit();
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_NE(std::string(refused.message()).find("COMMIT"), std::string::npos) << refused;
  ASSERT_TRUE(db.InTransaction());
  // Put right within the same transaction, the same COMMIT commits it.
  ASSERT_TRUE(db.Exec("INSERT INTO p(id) VALUES (7)").ok());
  ASSERT_TRUE(tx->Commit().ok());
  EXPECT_FALSE(db.InTransaction());
  EXPECT_EQ(Rows(db), 1);
  EXPECT_EQ(Held(db, "COMMIT"), 1);
}

}  // namespace
}  // namespace arbiter::ledger
