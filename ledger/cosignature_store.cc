#include "ledger/cosignature_store.h"

#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"

namespace arbiter::ledger {

absl::StatusOr<std::unique_ptr<CosignatureStore>> CosignatureStore::Open(const std::string& path) {
  absl::StatusOr<Db> db = Db::Open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db.ok()) return db.status();
  // synchronous=FULL: a cosignature kept is on disk, as the witness's state is.
  if (absl::Status s = db->Exec(
          "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
          "CREATE TABLE IF NOT EXISTS cosignatures("
          "  tree_size INTEGER NOT NULL, line TEXT NOT NULL, PRIMARY KEY (tree_size, line))");
      !s.ok()) {
    return absl::UnavailableError(absl::StrCat(path, ": ", s.message()));
  }
  return std::unique_ptr<CosignatureStore>(new CosignatureStore(*std::move(db)));
}

absl::StatusOr<std::unique_ptr<CosignatureStore>> CosignatureStore::OpenForReading(
    const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    absl::StatusOr<Db> db = Db::Open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (!db.ok()) return db.status();
    if (absl::Status s =
            db->Exec("CREATE TABLE cosignatures(tree_size INTEGER NOT NULL, line TEXT NOT NULL,"
                     " PRIMARY KEY (tree_size, line))");
        !s.ok()) {
      return s;
    }
    return std::unique_ptr<CosignatureStore>(new CosignatureStore(*std::move(db)));
  }
  absl::StatusOr<Db> db = Db::OpenReadOnly(path);
  if (!db.ok()) return db.status();
  return std::unique_ptr<CosignatureStore>(new CosignatureStore(*std::move(db)));
}

absl::Status CosignatureStore::Add(uint64_t tree_size, const std::string& line) {
  absl::MutexLock lock(&mu_);
  absl::StatusOr<Stmt> insert =
      Stmt::Prepare(db_, "INSERT OR IGNORE INTO cosignatures(tree_size, line) VALUES (?, ?)");
  if (!insert.ok()) return insert.status();
  return insert->Bind(1, static_cast<int64_t>(tree_size)).Bind(2, line).Run();
}

absl::StatusOr<std::vector<std::string>> CosignatureStore::Lines(uint64_t tree_size) {
  absl::MutexLock lock(&mu_);
  absl::StatusOr<Stmt> select =
      Stmt::Prepare(db_, "SELECT line FROM cosignatures WHERE tree_size = ? ORDER BY rowid");
  if (!select.ok()) return select.status();
  select->Bind(1, static_cast<int64_t>(tree_size));
  std::vector<std::string> lines;
  for (;;) {
    absl::StatusOr<bool> row = select->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    lines.push_back(select->Text(0));
  }
  return lines;
}

absl::StatusOr<std::map<uint64_t, int>> CosignatureStore::Counts() {
  absl::MutexLock lock(&mu_);
  absl::StatusOr<Stmt> select =
      Stmt::Prepare(db_, "SELECT tree_size, COUNT(*) FROM cosignatures GROUP BY tree_size");
  if (!select.ok()) return select.status();
  std::map<uint64_t, int> counts;
  for (;;) {
    absl::StatusOr<bool> row = select->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    counts[static_cast<uint64_t>(select->Int(0))] = static_cast<int>(select->Int(1));
  }
  return counts;
}

}  // namespace arbiter::ledger
