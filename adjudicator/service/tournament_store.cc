#include "adjudicator/service/tournament_store.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace arbiter::tournament {

absl::StatusOr<std::unique_ptr<TournamentStore>> TournamentStore::Open(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::UnavailableError(absl::StrCat("cannot create ", dir, ": ", ec.message()));
  absl::StatusOr<ledger::Db> db =
      ledger::Db::Open(dir + "/tournaments.db", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db.ok()) return db.status();
  for (const char* sql : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
                          "CREATE TABLE IF NOT EXISTS tournament_events ("
                          " tournament_id TEXT NOT NULL,"
                          " revision INTEGER NOT NULL,"
                          " event BLOB NOT NULL,"
                          " PRIMARY KEY (tournament_id, revision)) WITHOUT ROWID"}) {
    if (absl::Status s = db->Exec(sql); !s.ok()) return s;
  }
  return std::unique_ptr<TournamentStore>(new TournamentStore(*std::move(db)));
}

absl::StatusOr<std::vector<v1::TournamentEvent>> TournamentStore::Load(
    const std::string& tournament_id) {
  absl::MutexLock lock(&mu_);
  absl::StatusOr<ledger::Stmt> q = ledger::Stmt::Prepare(
      db_,
      "SELECT revision, event FROM tournament_events WHERE tournament_id = ? ORDER BY revision");
  if (!q.ok()) return q.status();
  q->Bind(1, tournament_id);
  std::vector<v1::TournamentEvent> out;
  for (;;) {
    absl::StatusOr<bool> row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    if (q->Int(0) != static_cast<int64_t>(out.size()) + 1) {
      return absl::DataLossError(
          absl::StrCat("tournament ", tournament_id, ": revision ", out.size() + 1, " is missing"));
    }
    if (!out.emplace_back().ParseFromString(q->Text(1))) {
      return absl::DataLossError(
          absl::StrCat("tournament ", tournament_id, ": event ", q->Int(0), " does not parse"));
    }
  }
  if (out.empty()) return absl::NotFoundError(absl::StrCat("no tournament '", tournament_id, "'"));
  return out;
}

absl::StatusOr<std::vector<std::string>> TournamentStore::Ids() {
  absl::MutexLock lock(&mu_);
  absl::StatusOr<ledger::Stmt> q = ledger::Stmt::Prepare(
      db_, "SELECT DISTINCT tournament_id FROM tournament_events ORDER BY tournament_id");
  if (!q.ok()) return q.status();
  std::vector<std::string> out;
  for (;;) {
    absl::StatusOr<bool> row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    out.push_back(q->Text(0));
  }
  return out;
}

absl::Status TournamentStore::Append(const std::string& tournament_id, uint64_t expected,
                                     const std::vector<v1::TournamentEvent>& events) {
  absl::MutexLock lock(&mu_);
  // Rolled back unless committed.
  absl::StatusOr<ledger::Transaction> tx = ledger::Transaction::Write(db_);
  if (!tx.ok()) return tx.status();
  absl::StatusOr<ledger::Stmt> head = ledger::Stmt::Prepare(
      db_, "SELECT COALESCE(MAX(revision), 0) FROM tournament_events WHERE tournament_id = ?");
  if (!head.ok()) return head.status();
  head->Bind(1, tournament_id);
  absl::StatusOr<bool> row = head->Step();
  if (!row.ok()) return row.status();
  const uint64_t current = static_cast<uint64_t>(head->Int(0));
  if (current != expected) {
    return absl::AbortedError(absl::StrCat("tournament ", tournament_id, " is at revision ",
                                           current, ", not ", expected, ": re-read and retry"));
  }
  absl::StatusOr<ledger::Stmt> insert = ledger::Stmt::Prepare(
      db_, "INSERT INTO tournament_events (tournament_id, revision, event) VALUES (?, ?, ?)");
  if (!insert.ok()) return insert.status();
  uint64_t revision = expected;
  for (const v1::TournamentEvent& e : events) {
    std::string bytes;
    if (!e.SerializeToString(&bytes)) return absl::InternalError("an event does not serialize");
    insert->Bind(1, tournament_id).Bind(2, static_cast<int64_t>(++revision)).BindBlob(3, bytes);
    if (absl::Status s = insert->Run(); !s.ok()) return s;
    insert->Reset();
  }
  return tx->Commit();
}

}  // namespace arbiter::tournament
