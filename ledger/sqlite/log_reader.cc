#include "ledger/sqlite/log_reader.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "ledger/internal/log_rows.h"

namespace arbiter::ledger {
namespace {

constexpr char kEventColumns[] = "SELECT position, game_id, revision, event FROM events ";

absl::StatusOr<uint64_t> SingleInt(Db& db, const std::string& sql, const std::string* arg) {
  absl::StatusOr<Stmt> q = Stmt::Prepare(db, sql);
  if (!q.ok()) return q.status();
  if (arg != nullptr) q->Bind(1, *arg);
  absl::StatusOr<bool> row = q->Step();
  if (!row.ok()) return row.status();
  return *row ? static_cast<uint64_t>(q->Int(0)) : 0;
}

}  // namespace

absl::StatusOr<LogReader> LogReader::Open(const std::string& db_path, const char* vfs) {
  absl::StatusOr<Db> db = Db::OpenReadOnly(db_path, vfs);
  if (!db.ok()) return db.status();
  return LogReader(*std::move(db));
}

absl::StatusOr<uint64_t> LogReader::Head() {
  return SingleInt(db_, "SELECT IFNULL(MAX(position), 0) FROM events", nullptr);
}

absl::StatusOr<std::vector<v1::LedgerEntry>> LogReader::Collect(Stmt& q) {
  std::vector<v1::LedgerEntry> out;
  for (;;) {
    absl::StatusOr<bool> row = q.Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    v1::LedgerEntry& e = out.emplace_back();
    e.set_position(q.Int(0));
    e.set_game_id(q.Text(1));
    e.set_revision(q.Int(2));
    e.set_event(q.Text(3));
  }
  if (out.empty()) return out;
  absl::StatusOr<Stmt> r = Stmt::Prepare(
      db_,
      "SELECT position, ruling FROM rulings WHERE position BETWEEN ? AND ? ORDER BY position, seq");
  if (!r.ok()) return r.status();
  r->Bind(1, static_cast<int64_t>(out.front().position()));
  r->Bind(2, static_cast<int64_t>(out.back().position()));
  RulingRows rulings(out);
  for (;;) {
    absl::StatusOr<bool> row = r->Step();
    if (!row.ok()) return row.status();
    if (!*row) return out;
    if (absl::Status s = rulings.Add(r->Int(0), r->Text(1)); !s.ok()) return s;
  }
}

absl::StatusOr<std::vector<v1::LedgerEntry>> LogReader::ReadLog(uint64_t after, size_t max) {
  // Two queries, one snapshot.
  absl::StatusOr<Transaction> snapshot = Transaction::Read(db_);
  if (!snapshot.ok()) return snapshot.status();
  absl::StatusOr<Stmt> q = Stmt::Prepare(
      db_, absl::StrCat(kEventColumns, "WHERE position > ? ORDER BY position LIMIT ?"));
  if (!q.ok()) return q.status();
  q->Bind(1, static_cast<int64_t>(after)).Bind(2, static_cast<int64_t>(max));
  return Collect(*q);
}

absl::StatusOr<std::vector<v1::LedgerEntry>> LogReader::ReadGame(const std::string& game_id,
                                                                 uint64_t after, size_t max) {
  // Two queries, one snapshot.
  absl::StatusOr<Transaction> snapshot = Transaction::Read(db_);
  if (!snapshot.ok()) return snapshot.status();
  absl::StatusOr<Stmt> q = Stmt::Prepare(
      db_,
      absl::StrCat(kEventColumns, "WHERE game_id = ? AND revision > ? ORDER BY revision LIMIT ?"));
  if (!q.ok()) return q.status();
  q->Bind(1, game_id).Bind(2, static_cast<int64_t>(after)).Bind(3, static_cast<int64_t>(max));
  return Collect(*q);
}

absl::StatusOr<std::optional<v1::LedgerEntry>> LogReader::FindKey(const std::string& game_id,
                                                                  const std::string& key) {
  absl::StatusOr<Transaction> snapshot = Transaction::Read(db_);
  if (!snapshot.ok()) return snapshot.status();
  absl::StatusOr<Stmt> q =
      Stmt::Prepare(db_, absl::StrCat(kEventColumns, "WHERE game_id = ? AND idempotency_key = ?"));
  if (!q.ok()) return q.status();
  q->Bind(1, game_id).Bind(2, key);
  absl::StatusOr<std::vector<v1::LedgerEntry>> found = Collect(*q);
  if (!found.ok()) return found.status();
  if (found->empty()) return std::nullopt;
  return std::move(found->front());
}

absl::StatusOr<uint64_t> LogReader::GameRevision(const std::string& game_id) {
  return SingleInt(db_, "SELECT IFNULL(MAX(revision), 0) FROM events WHERE game_id = ?", &game_id);
}

absl::StatusOr<std::vector<GameListing>> LogReader::ListGames(uint64_t after, size_t max) {
  absl::StatusOr<Stmt> q =
      Stmt::Prepare(db_,
                    "SELECT game_id, first_position FROM games WHERE first_position > ? "
                    "ORDER BY first_position LIMIT ?");
  if (!q.ok()) return q.status();
  q->Bind(1, static_cast<int64_t>(after)).Bind(2, static_cast<int64_t>(max));
  std::vector<GameListing> out;
  for (;;) {
    absl::StatusOr<bool> row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return out;
    out.push_back(GameListing{q->Text(0), static_cast<uint64_t>(q->Int(1))});
  }
}

absl::StatusOr<std::vector<std::string>> LogReader::ListTournaments() {
  // A range of the (game_id, revision) index: '0' follows '/'.
  absl::StatusOr<Stmt> q =
      Stmt::Prepare(db_,
                    "SELECT substr(game_id, 13) FROM events WHERE game_id >= 'tournaments/' AND "
                    "game_id < 'tournaments0' AND revision = 1 ORDER BY game_id");
  if (!q.ok()) return q.status();
  std::vector<std::string> out;
  for (;;) {
    absl::StatusOr<bool> row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return out;
    out.push_back(q->Text(0));
  }
}

absl::StatusOr<std::string> LogReader::RulesPin(const std::string& game_id) {
  absl::StatusOr<Stmt> q = Stmt::Prepare(db_, "SELECT rules_pin FROM games WHERE game_id = ?");
  if (!q.ok()) return q.status();
  q->Bind(1, game_id);
  absl::StatusOr<bool> row = q->Step();
  if (!row.ok()) return row.status();
  if (!*row) return NoGame(game_id);
  return q->Text(0);
}

absl::StatusOr<std::vector<v1::Checkpoint>> LogReader::Checkpoints() {
  return CheckpointsBetween(0, std::numeric_limits<int64_t>::max());
}

absl::StatusOr<std::vector<v1::Checkpoint>> LogReader::CheckpointsBetween(uint64_t first,
                                                                          uint64_t last) {
  constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
  absl::StatusOr<Stmt> q = Stmt::Prepare(db_,
                                         "SELECT tree_size, checkpoint FROM checkpoints WHERE "
                                         "tree_size >= ? AND tree_size <= ? ORDER BY tree_size");
  if (!q.ok()) return q.status();
  q->Bind(1, static_cast<int64_t>(std::min(first, kMax)));
  q->Bind(2, static_cast<int64_t>(std::min(last, kMax)));
  std::vector<v1::Checkpoint> out;
  for (;;) {
    absl::StatusOr<bool> row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return out;
    absl::StatusOr<v1::Checkpoint> c = CheckpointRow(q->Int(0), q->Text(1));
    if (!c.ok()) return c.status();
    out.push_back(*std::move(c));
  }
}

absl::StatusOr<std::vector<Hash>> LogReader::LeafHashes(uint64_t tree_size, uint64_t after) {
  absl::StatusOr<Stmt> q = Stmt::Prepare(db_,
                                         "SELECT position, leaf_hash FROM events WHERE position > "
                                         "? AND position <= ? ORDER BY position");
  if (!q.ok()) return q.status();
  q->Bind(1, static_cast<int64_t>(after));
  q->Bind(2, static_cast<int64_t>(tree_size));
  LeafRows leaves(tree_size, after);
  for (;;) {
    absl::StatusOr<bool> row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return std::move(leaves).Finish();
    if (absl::Status s = leaves.Add(q->Int(0), q->Text(1)); !s.ok()) return s;
  }
}

absl::StatusOr<std::string> LogReader::RecordedPublicKey() {
  absl::StatusOr<Stmt> q = Stmt::Prepare(db_, "SELECT value FROM meta WHERE key = 'public_key'");
  if (!q.ok()) return q.status();
  absl::StatusOr<bool> row = q->Step();
  if (!row.ok()) return row.status();
  if (!*row) return NoPublicKey();
  return q->Text(0);
}

absl::StatusOr<std::vector<Arrival>> LogReader::Arrivals(uint64_t after, size_t max) {
  absl::StatusOr<Stmt> q = Stmt::Prepare(db_,
                                         "SELECT position, received_micros FROM arrivals WHERE "
                                         "position > ? ORDER BY position LIMIT ?");
  if (!q.ok()) return q.status();
  q->Bind(1, static_cast<int64_t>(after)).Bind(2, static_cast<int64_t>(max));
  std::vector<Arrival> out;
  for (;;) {
    absl::StatusOr<bool> row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) return out;
    out.push_back(Arrival{static_cast<uint64_t>(q->Int(0)), absl::FromUnixMicros(q->Int(1))});
  }
}

}  // namespace arbiter::ledger
