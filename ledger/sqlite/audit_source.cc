#include "ledger/sqlite/audit_source.h"

#include <optional>
#include <utility>

#include "ledger/sqlite.h"
#include "ledger/sqlite/log_reader.h"

namespace arbiter::ledger {
namespace {

// `col` of the current row into `out`, in its capacity (NULL: empty).
void AssignBytes(const Stmt& stmt, int col, std::string& out) {
  const absl::string_view bytes = stmt.Bytes(col);
  out.assign(bytes.data(), bytes.size());
}

class SqliteAuditSource final : public AuditSource {
 public:
  explicit SqliteAuditSource(LogReader reader) : reader_(std::move(reader)) {}

  // The read transaction and the two cursors; called once, before any read.
  absl::Status Begin() {
    // The walk reads the whole file once: mapped, its pages are read where
    // they lie rather than copied out by a pread each (3,699 of them for a
    // 200,000-event log). SQLite falls back to reads where it cannot map.
    if (absl::Status s = reader_.db().Exec("PRAGMA mmap_size = 1099511627776"); !s.ok()) return s;
    absl::StatusOr<Transaction> tx = Transaction::Read(reader_.db());
    if (!tx.ok()) return tx.status();
    snapshot_.emplace(*std::move(tx));
    absl::StatusOr<Stmt> events = Stmt::Prepare(
        reader_.db(),
        "SELECT position, game_id, revision, idempotency_key, event, leaf_hash FROM events "
        "ORDER BY position");
    if (!events.ok()) return events.status();
    events_ = *std::move(events);
    absl::StatusOr<Stmt> rulings = Stmt::Prepare(
        reader_.db(), "SELECT position, seq, ruling FROM rulings ORDER BY position, seq");
    if (!rulings.ok()) return rulings.status();
    rulings_ = *std::move(rulings);
    return absl::OkStatus();
  }

  absl::StatusOr<uint64_t> Head() override { return reader_.Head(); }
  absl::StatusOr<std::string> RecordedPublicKey() override { return reader_.RecordedPublicKey(); }
  absl::StatusOr<std::vector<v1::Checkpoint>> Checkpoints() override {
    return reader_.Checkpoints();
  }

  absl::StatusOr<std::unordered_map<std::string, std::string>> RulesPins() override {
    absl::StatusOr<Stmt> q = Stmt::Prepare(reader_.db(), "SELECT game_id, rules_pin FROM games");
    if (!q.ok()) return q.status();
    std::unordered_map<std::string, std::string> pins;
    for (;;) {
      absl::StatusOr<bool> row = q->Step();
      if (!row.ok()) return row.status();
      if (!*row) return pins;
      pins.emplace(q->Text(0), q->Text(1));
    }
  }

  // One seek of the (game_id, revision) index per game, in the walk's
  // snapshot: a GROUP BY over the events read the whole index, 4 % of a
  // 200,000-event audit.
  absl::StatusOr<std::unordered_map<std::string, uint64_t>> LastRevisions() override {
    absl::StatusOr<Stmt> q =
        Stmt::Prepare(reader_.db(),
                      "SELECT game_id, COALESCE((SELECT MAX(revision) FROM events "
                      "WHERE events.game_id = games.game_id), 0) FROM games");
    if (!q.ok()) return q.status();
    std::unordered_map<std::string, uint64_t> last;
    for (;;) {
      absl::StatusOr<bool> row = q->Step();
      if (!row.ok()) return row.status();
      if (!*row) return last;
      last.emplace(q->Text(0), static_cast<uint64_t>(q->Int(1)));
    }
  }

  absl::StatusOr<bool> NextEvent(StoredEvent& row) override {
    absl::StatusOr<bool> more = events_.Step();
    if (!more.ok() || !*more) return more;
    // Assigned in place: the walk recycles its rows, and a string made for
    // each column of each row was the walk's own mallocs.
    row.position = events_.Int(0);
    AssignBytes(events_, 1, row.game_id);
    row.revision = events_.Int(2);
    AssignBytes(events_, 3, row.idempotency_key);  // NULL: empty
    AssignBytes(events_, 4, row.event);
    AssignBytes(events_, 5, row.leaf_hash);
    return true;
  }

  absl::StatusOr<bool> NextRuling(StoredRuling& row) override {
    absl::StatusOr<bool> more = rulings_.Step();
    if (!more.ok() || !*more) return more;
    row.position = rulings_.Int(0);
    row.seq = rulings_.Int(1);
    row.ruling = rulings_.Text(2);
    return true;
  }

 private:
  // Declared in the order they are made: the cursors end before the
  // transaction, the transaction before the connection.
  LogReader reader_;
  std::optional<Transaction> snapshot_;
  Stmt events_, rulings_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<AuditSource>> OpenSqliteAuditSource(const std::string& db_path,
                                                                   const char* vfs) {
  absl::StatusOr<LogReader> reader = LogReader::Open(db_path, vfs);
  if (!reader.ok()) return reader.status();
  auto source = std::make_unique<SqliteAuditSource>(*std::move(reader));
  if (absl::Status s = source->Begin(); !s.ok()) return s;
  return source;
}

}  // namespace arbiter::ledger
