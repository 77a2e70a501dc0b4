#include "ledger/cosignature_store.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ledger/sqlite.h"

namespace arbiter::ledger {
namespace {

// The rows of an older release's cosignatures.db at `path` not imported
// yet (the file still writable); none when there is no such file. Read as
// the audit reads, writing nothing, when `read_only`.
absl::StatusOr<std::map<uint64_t, std::vector<std::string>>> ReadLegacy(const std::string& path,
                                                                        bool read_only) {
  std::map<uint64_t, std::vector<std::string>> rows;
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || (st.st_mode & S_IWUSR) == 0) return rows;
  absl::StatusOr<Db> db =
      read_only ? Db::OpenReadOnly(path) : Db::Open(path, SQLITE_OPEN_READWRITE);
  if (!db.ok()) return db.status();
  absl::StatusOr<Stmt> s =
      Stmt::Prepare(*db, "SELECT tree_size, line FROM cosignatures ORDER BY rowid");
  if (!s.ok()) return absl::UnavailableError(absl::StrCat(path, ": ", s.status().message()));
  for (;;) {
    absl::StatusOr<bool> row = s->Step();
    if (!row.ok()) return row.status();
    if (!*row) return rows;
    rows[static_cast<uint64_t>(s->Int(0))].push_back(s->Text(1));
  }
}

std::string LegacyPath(const std::string& own_dir) {
  return (std::filesystem::path(own_dir) / CosignatureStore::kFileName).string();
}

}  // namespace

absl::StatusOr<std::unique_ptr<CosignatureStore>> CosignatureStore::Open(
    Store& store, const std::string& own_dir) {
  absl::StatusOr<std::unique_ptr<ServerTables>> tables = store.OpenServerTables(false);
  if (!tables.ok()) return tables.status();
  const std::string path = LegacyPath(own_dir);
  absl::StatusOr<Legacy> legacy = ReadLegacy(path, false);
  if (!legacy.ok()) return legacy.status();
  for (const auto& [tree_size, lines] : *legacy) {
    for (const std::string& line : lines) {
      if (absl::Status s = (*tables)->AddCosignature(tree_size, line); !s.ok()) return s;
    }
  }
  if (!legacy->empty() && chmod(path.c_str(), S_IRUSR) != 0) {
    return absl::UnavailableError(absl::StrCat("cannot make ", path, " read-only once imported"));
  }
  return std::unique_ptr<CosignatureStore>(new CosignatureStore(*std::move(tables), Legacy()));
}

absl::StatusOr<std::unique_ptr<CosignatureStore>> CosignatureStore::OpenForReading(
    Store& store, const std::string& own_dir) {
  absl::StatusOr<std::unique_ptr<ServerTables>> tables = store.OpenServerTables(true);
  if (!tables.ok()) return tables.status();
  absl::StatusOr<Legacy> legacy =
      own_dir.empty() ? Legacy() : ReadLegacy(LegacyPath(own_dir), true);
  if (!legacy.ok()) return legacy.status();
  return std::unique_ptr<CosignatureStore>(
      new CosignatureStore(*std::move(tables), *std::move(legacy)));
}

absl::Status CosignatureStore::Add(uint64_t tree_size, const std::string& line) {
  return tables_->AddCosignature(tree_size, line);
}

absl::StatusOr<std::vector<std::string>> CosignatureStore::Lines(uint64_t tree_size) {
  absl::StatusOr<std::vector<std::string>> lines = tables_->Cosignatures(tree_size);
  if (!lines.ok()) return lines.status();
  if (auto it = legacy_.find(tree_size); it != legacy_.end()) {
    for (const std::string& line : it->second) {
      if (std::find(lines->begin(), lines->end(), line) == lines->end()) lines->push_back(line);
    }
  }
  return lines;
}

absl::StatusOr<std::map<uint64_t, int>> CosignatureStore::Counts() {
  absl::StatusOr<std::map<uint64_t, int>> counts = tables_->CosignatureCounts();
  if (!counts.ok() || legacy_.empty()) return counts;
  for (const auto& [tree_size, lines] : legacy_) {
    absl::StatusOr<std::vector<std::string>> all = Lines(tree_size);
    if (!all.ok()) return all.status();
    (*counts)[tree_size] = static_cast<int>(all->size());
  }
  return counts;
}

}  // namespace arbiter::ledger
