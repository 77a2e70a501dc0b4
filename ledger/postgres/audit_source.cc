#include "ledger/postgres/audit_source.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ledger/internal/log_rows.h"
#include "ledger/postgres/pg.h"

namespace arbiter::ledger {
namespace {

// A server-side cursor of the snapshot, read a page at a time.
class PgCursor {
 public:
  // Declares cursor `name` over `query` in the running transaction, read
  // `page_rows` rows at a time.
  static absl::StatusOr<PgCursor> Declare(PgConn& conn, const std::string& name,
                                          const std::string& query, int page_rows) {
    if (absl::Status s = conn.Run(absl::StrCat("DECLARE ", name, " NO SCROLL CURSOR FOR ", query));
        !s.ok()) {
      return s;
    }
    return PgCursor(absl::StrCat("FETCH FORWARD ", page_rows, " FROM ", name), page_rows);
  }

  // Steps to the next row: false after the last.
  absl::StatusOr<bool> Next(PgConn& conn) {
    if (page_ && ++row_ < page_->rows()) return true;
    if (last_page_) return false;
    absl::StatusOr<PgResult> r = conn.Exec(fetch_);
    if (!r.ok()) return r.status();
    last_page_ = r->rows() < page_rows_;
    page_.emplace(*std::move(r));
    row_ = 0;
    return row_ < page_->rows();
  }

  // The current row's columns.
  int64_t Int(int col) const { return page_->Int(row_, col); }
  bool IsNull(int col) const { return page_->IsNull(row_, col); }
  std::string Bytes(int col) const { return page_->Bytes(row_, col); }

 private:
  PgCursor(std::string fetch, int page_rows) : fetch_(std::move(fetch)), page_rows_(page_rows) {}

  std::string fetch_;
  int page_rows_;
  std::optional<PgResult> page_;
  int row_ = 0;
  bool last_page_ = false;
};

class PgAuditSource final : public AuditSource {
 public:
  explicit PgAuditSource(PgConn conn) : conn_(std::move(conn)) {}

  // The snapshot and the two cursors; called once, before any read.
  absl::Status Begin(int page_rows) {
    absl::StatusOr<PgTransaction> tx =
        PgTransaction::Begin(conn_, "ISOLATION LEVEL REPEATABLE READ READ ONLY");
    if (!tx.ok()) return tx.status();
    snapshot_.emplace(*std::move(tx));
    absl::StatusOr<PgCursor> events = PgCursor::Declare(
        conn_, "audit_events",
        "SELECT position, game_id, revision, idempotency_key, event, leaf_hash FROM events "
        "ORDER BY position",
        page_rows);
    if (!events.ok()) return events.status();
    events_.emplace(*std::move(events));
    absl::StatusOr<PgCursor> rulings = PgCursor::Declare(
        conn_, "audit_rulings", "SELECT position, seq, ruling FROM rulings ORDER BY position, seq",
        page_rows);
    if (!rulings.ok()) return rulings.status();
    rulings_.emplace(*std::move(rulings));
    return absl::OkStatus();
  }

  absl::StatusOr<uint64_t> Head() override {
    absl::StatusOr<PgResult> r = conn_.Exec("SELECT COALESCE(MAX(position), 0) FROM events");
    if (!r.ok()) return r.status();
    return static_cast<uint64_t>(r->Int(0, 0));
  }

  absl::StatusOr<std::string> RecordedPublicKey() override {
    absl::StatusOr<PgResult> r = conn_.Exec("SELECT value FROM meta WHERE key = 'public_key'");
    if (!r.ok()) return r.status();
    if (r->rows() == 0) return NoPublicKey();
    return r->Bytes(0, 0);
  }

  absl::StatusOr<std::vector<v1::Checkpoint>> Checkpoints() override;
  absl::StatusOr<std::unordered_map<std::string, std::string>> RulesPins() override;
  absl::StatusOr<std::unordered_map<std::string, uint64_t>> LastRevisions() override;
  absl::StatusOr<bool> NextEvent(StoredEvent& row) override;
  absl::StatusOr<bool> NextRuling(StoredRuling& row) override;

 private:
  // Declared in the order they are made: the transaction ends (and its
  // cursors with it) before the connection closes.
  PgConn conn_;
  std::optional<PgTransaction> snapshot_;
  std::optional<PgCursor> events_, rulings_;
};

absl::StatusOr<std::vector<v1::Checkpoint>> PgAuditSource::Checkpoints() {
  absl::StatusOr<PgResult> r =
      conn_.Exec("SELECT tree_size, checkpoint FROM checkpoints ORDER BY tree_size");
  if (!r.ok()) return r.status();
  std::vector<v1::Checkpoint> out;
  for (int i = 0; i < r->rows(); ++i) {
    absl::StatusOr<v1::Checkpoint> c = CheckpointRow(r->Int(i, 0), r->Bytes(i, 1));
    if (!c.ok()) return c.status();
    out.push_back(*std::move(c));
  }
  return out;
}

absl::StatusOr<std::unordered_map<std::string, std::string>> PgAuditSource::RulesPins() {
  absl::StatusOr<PgResult> r = conn_.Exec("SELECT game_id, rules_pin FROM games");
  if (!r.ok()) return r.status();
  std::unordered_map<std::string, std::string> pins;
  for (int i = 0; i < r->rows(); ++i) pins.emplace(r->Bytes(i, 0), r->Bytes(i, 1));
  return pins;
}

absl::StatusOr<std::unordered_map<std::string, uint64_t>> PgAuditSource::LastRevisions() {
  // One seek of the (game_id, revision) index per game (sqlite/audit_source.cc).
  absl::StatusOr<PgResult> r = conn_.Exec(
      "SELECT game_id, COALESCE((SELECT MAX(revision) FROM events "
      "WHERE events.game_id = games.game_id), 0) FROM games");
  if (!r.ok()) return r.status();
  std::unordered_map<std::string, uint64_t> last;
  for (int i = 0; i < r->rows(); ++i) {
    last.emplace(r->Bytes(i, 0), static_cast<uint64_t>(r->Int(i, 1)));
  }
  return last;
}

absl::StatusOr<bool> PgAuditSource::NextEvent(StoredEvent& row) {
  absl::StatusOr<bool> more = events_->Next(conn_);
  if (!more.ok() || !*more) return more;
  row.position = events_->Int(0);
  row.game_id = events_->Bytes(1);
  row.revision = events_->Int(2);
  if (events_->IsNull(3)) {
    row.idempotency_key.clear();
  } else {
    row.idempotency_key = events_->Bytes(3);
  }
  row.event = events_->Bytes(4);
  row.leaf_hash = events_->Bytes(5);
  return true;
}

absl::StatusOr<bool> PgAuditSource::NextRuling(StoredRuling& row) {
  absl::StatusOr<bool> more = rulings_->Next(conn_);
  if (!more.ok() || !*more) return more;
  row.position = rulings_->Int(0);
  row.seq = rulings_->Int(1);
  row.ruling = rulings_->Bytes(2);
  return true;
}

}  // namespace

absl::StatusOr<std::unique_ptr<AuditSource>> OpenPgAuditSource(const std::string& uri,
                                                               int page_rows) {
  absl::StatusOr<PgConn> conn = PgConn::Connect(uri);
  if (!conn.ok()) return conn.status();
  // Made in place first: the transaction keeps the connection's address.
  auto source = std::make_unique<PgAuditSource>(*std::move(conn));
  if (absl::Status s = source->Begin(std::max(1, page_rows)); !s.ok()) return s;
  return source;
}

}  // namespace arbiter::ledger
