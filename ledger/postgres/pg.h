// A thin RAII layer over libpq, the one way the project talks to
// PostgreSQL: a connection, parameterized statements with binary results,
// and PostgreSQL errors turned into absl::Status (as sqlite.h does for
// SQLite).
#ifndef ARBITER_LEDGER_POSTGRES_PG_H_
#define ARBITER_LEDGER_POSTGRES_PG_H_

#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace arbiter::ledger {

// The parameters of one statement: $1, $2, ... in the order added.
class PgParams {
 public:
  PgParams& Int(int64_t v);
  PgParams& Text(absl::string_view v);
  PgParams& Bytes(absl::string_view v);
  PgParams& Null();

 private:
  friend class PgConn;
  struct Values;
  std::vector<std::string> values_;
  std::vector<bool> null_;
  std::vector<unsigned> types_;  // OIDs
  std::vector<int> formats_;     // 0 text, 1 binary
};

// The rows of a statement, every column in binary format.
class PgResult {
 public:
  explicit PgResult(PGresult* r) : r_(r, PQclear) {}
  int rows() const { return PQntuples(r_.get()); }
  bool IsNull(int row, int col) const { return PQgetisnull(r_.get(), row, col) != 0; }
  // An int8, int4 or int2 column.
  int64_t Int(int row, int col) const;
  // A text or bytea column, as bytes.
  std::string Bytes(int row, int col) const;

 private:
  std::unique_ptr<PGresult, void (*)(PGresult*)> r_;
};

class PgConn {
 public:
  // Connects to `uri`. UNAVAILABLE when the server cannot be reached or
  // refuses the connection.
  static absl::StatusOr<PgConn> Connect(const std::string& uri);

  PgConn() : conn_(nullptr, PQfinish) {}

  // Runs `sql` with `params`. Errors by SQLSTATE: unique violations
  // FAILED_PRECONDITION, serialization failures and deadlocks ABORTED, a
  // full disk RESOURCE_EXHAUSTED, data corruption DATA_LOSS, a lost
  // connection and everything else the server refuses UNAVAILABLE (with
  // its message).
  absl::StatusOr<PgResult> Exec(absl::string_view sql, const PgParams& params = PgParams());
  // Runs statements that return no rows (several, separated by ';').
  absl::Status Run(absl::string_view sql);

  // False once the connection is lost: reconnect.
  bool ok() const { return conn_ != nullptr && PQstatus(conn_.get()) == CONNECTION_OK; }

  // After LISTEN: the descriptor that becomes readable when the server
  // sends something (a notification), -1 when not connected.
  int socket() const { return conn_ != nullptr ? PQsocket(conn_.get()) : -1; }
  // Reads what the server sent and drops the notifications that came: how
  // many, counting those libpq read in while a statement ran (they are no
  // longer on the socket, which poll() would not show readable for them).
  // UNAVAILABLE when the connection broke.
  absl::StatusOr<int> TakeNotifications();

  // Sends `sql` and returns at once: a statement that may wait in the
  // server (a lock) without a thread waiting with it. Its result is read by
  // TakeResult once socket() is readable; nothing else runs on the
  // connection until then.
  absl::Status Send(absl::string_view sql, const PgParams& params = PgParams());
  // After Send: reads what the server sent; the rows once the statement has
  // finished, nullopt while it runs. Errors as Exec's.
  absl::StatusOr<std::optional<PgResult>> TakeResult();
  // After Send: waits for the statement's rows (as Exec).
  absl::StatusOr<PgResult> AwaitResult();

 private:
  // `r` as a result, or the error it carries (Exec's codes); takes it.
  absl::StatusOr<PgResult> Checked(PGresult* r, absl::string_view sql);

  std::unique_ptr<PGconn, void (*)(PGconn*)> conn_;
  std::string sent_;  // the statement Send sent, for TakeResult's errors
};

// BEGIN on construction (with `mode`, e.g. "ISOLATION LEVEL REPEATABLE
// READ"), ROLLBACK on destruction unless Commit() succeeded.
class PgTransaction {
 public:
  static absl::StatusOr<PgTransaction> Begin(PgConn& conn, absl::string_view mode = "");
  PgTransaction(PgTransaction&& o) noexcept : conn_(o.conn_) { o.conn_ = nullptr; }
  PgTransaction& operator=(PgTransaction&&) = delete;
  ~PgTransaction();
  // COMMIT, after the statements `first` (e.g. a NOTIFY, delivered only if
  // and when the transaction commits) in the same round trip.
  absl::Status Commit(absl::string_view first = "");

 private:
  explicit PgTransaction(PgConn* conn) : conn_(conn) {}
  PgConn* conn_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_POSTGRES_PG_H_
