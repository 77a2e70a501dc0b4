// A thin RAII layer over the SQLite C API: connections, prepared statements,
// and SQLite result codes turned into absl::Status.
#ifndef ARBITER_LEDGER_SQLITE_H_
#define ARBITER_LEDGER_SQLITE_H_

#include <sqlite3.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace arbiter::ledger {

// SQLITE_FULL becomes RESOURCE_EXHAUSTED, I/O and locking errors
// UNAVAILABLE, corruption DATA_LOSS, constraint failures FAILED_PRECONDITION.
absl::Status SqliteError(int rc, sqlite3* db, absl::string_view what);

class Db {
 public:
  // Opens `path` with `flags` (SQLITE_OPEN_*) through `vfs` (nullptr: the
  // default), with a busy timeout so readers never fail on a writer's lock.
  static absl::StatusOr<Db> Open(const std::string& path, int flags, const char* vfs = nullptr);

  // Opens `path` only to read it, writing nothing, the auditor's way: a
  // read-only connection, or, where SQLite could not read a WAL database
  // without creating its -shm file (a write-protected copy), an immutable
  // one, which reads the database file alone. That is the whole ledger only
  // when no write-ahead log beside it holds commits: then UNAVAILABLE,
  // naming the files, rather than a silently shorter ledger.
  static absl::StatusOr<Db> OpenReadOnly(const std::string& path, const char* vfs = nullptr);

  Db() = default;
  Db(Db&& other) noexcept : db_(other.db_), tx_statements_(other.tx_statements_) {
    other.db_ = nullptr;
    other.tx_statements_ = {};
  }
  Db& operator=(Db&& other) noexcept;
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  ~Db();

  absl::Status Exec(absl::string_view sql);

  // The statements that begin and end a transaction, each prepared on its
  // first use and kept for the connection's life: a connection runs
  // thousands of transactions, and parsing the same four statements for
  // each cost an append a few microseconds. Errors are Exec's.
  enum class TxStatement { kBeginImmediate, kBegin, kCommit, kRollback };
  absl::Status Run(TxStatement which);
  // False in autocommit mode; true inside BEGIN ... COMMIT (SQLite ends a
  // transaction by itself after some errors).
  bool InTransaction() const { return sqlite3_get_autocommit(db_) == 0; }
  sqlite3* get() const { return db_; }

 private:
  void Close();

  sqlite3* db_ = nullptr;
  std::array<sqlite3_stmt*, 4> tx_statements_{};  // by TxStatement, prepared once used
};

class Stmt {
 public:
  static absl::StatusOr<Stmt> Prepare(const Db& db, absl::string_view sql);

  Stmt() = default;
  Stmt(Stmt&& other) noexcept : stmt_(other.stmt_) { other.stmt_ = nullptr; }
  Stmt& operator=(Stmt&& other) noexcept;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  ~Stmt();

  // Parameters are 1-based, as in SQLite.
  Stmt& Bind(int i, int64_t v);
  Stmt& Bind(int i, absl::string_view text);
  Stmt& BindBlob(int i, absl::string_view blob);
  Stmt& BindNull(int i);

  // True while a row is available; false when done.
  absl::StatusOr<bool> Step();
  // Steps a statement that returns no rows.
  absl::Status Run();
  // Resets for re-use and clears the bindings.
  void Reset();

  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  bool IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  std::string Text(int col) const;  // blob or text, as bytes
  // The same bytes in place, valid until the next Step or Reset: a reader
  // that assigns them into a kept string reuses its capacity.
  absl::string_view Bytes(int col) const;

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

// Resets a statement when it goes out of scope, so that neither an early
// return nor a kept statement between calls leaves a read cursor (and its
// snapshot) open.
class ResetOnExit {
 public:
  explicit ResetOnExit(Stmt& s) : s_(s) {}
  ~ResetOnExit() { s_.Reset(); }
  ResetOnExit(const ResetOnExit&) = delete;
  ResetOnExit& operator=(const ResetOnExit&) = delete;

 private:
  Stmt& s_;
};

// A transaction on a Db, rolled back when it goes out of scope unless
// Commit() succeeded, so that a failure part-way leaves nothing half-written.
class Transaction {
 public:
  // BEGIN IMMEDIATE: the write lock is taken now (waiting out the busy
  // timeout), so a writer never fails half-way on another's lock.
  static absl::StatusOr<Transaction> Write(Db& db);
  // BEGIN (deferred): one snapshot for several reads. Inside a transaction
  // already open on `db` it is that one, and neither commits nor rolls back.
  static absl::StatusOr<Transaction> Read(Db& db);

  Transaction(Transaction&& other) noexcept : db_(other.db_) { other.db_ = nullptr; }
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();

  // COMMIT. On failure the transaction stays open, to be rolled back.
  absl::Status Commit();

 private:
  explicit Transaction(Db* db) : db_(db) {}
  Db* db_;  // nullptr once committed, or when joined rather than begun
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SQLITE_H_
