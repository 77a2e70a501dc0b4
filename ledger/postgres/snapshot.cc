#include "ledger/postgres/snapshot.h"

#include <stdlib.h>

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "ledger/postgres/pg.h"
#include "ledger/sqlite.h"
#include "ledger/sqlite/schema.h"
#include "ledger/store.h"

namespace arbiter::ledger {
namespace {

constexpr int64_t kPage = 20000;

// Copies `table` (its columns `columns`, ordered by `order`) page by page;
// `kinds` says per column: 'i' integer, 't' text, 'b' blob.
absl::Status CopyTable(PgConn& pg, Db& db, const std::string& table, const std::string& columns,
                       const std::string& kinds, const std::string& order,
                       const std::string& where = "TRUE") {
  std::string marks;
  for (size_t i = 0; i < kinds.size(); ++i) absl::StrAppend(&marks, i ? ", ?" : "?");
  absl::StatusOr<Stmt> ins = Stmt::Prepare(
      db, absl::StrCat("INSERT OR IGNORE INTO ", table, "(", columns, ") VALUES(", marks, ")"));
  if (!ins.ok()) return ins.status();
  for (int64_t offset = 0;; offset += kPage) {
    absl::StatusOr<PgResult> r =
        pg.Exec(absl::StrCat("SELECT ", columns, " FROM ", table, " WHERE ", where, " ORDER BY ",
                             order, " LIMIT $1 OFFSET $2"),
                PgParams().Int(kPage).Int(offset));
    if (!r.ok()) return r.status();
    for (int row = 0; row < r->rows(); ++row) {
      for (size_t c = 0; c < kinds.size(); ++c) {
        const int col = static_cast<int>(c);
        if (r->IsNull(row, col)) {
          ins->BindNull(col + 1);
        } else if (kinds[c] == 'i') {
          ins->Bind(col + 1, r->Int(row, col));
        } else if (kinds[c] == 't') {
          ins->Bind(col + 1, r->Bytes(row, col));
        } else {
          ins->BindBlob(col + 1, r->Bytes(row, col));
        }
      }
      if (absl::Status s = ins->Run(); !s.ok()) return s;
    }
    if (r->rows() < kPage) return absl::OkStatus();
  }
}

}  // namespace

absl::Status CopyPgLedgerToSqlite(const std::string& uri, const std::string& sqlite_path) {
  absl::StatusOr<PgConn> pg = PgConn::Connect(uri);
  if (!pg.ok()) return pg.status();
  absl::StatusOr<Db> db = Db::Open(sqlite_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!db.ok()) return db.status();
  if (absl::Status s = PrepareSchema(*db); !s.ok()) return s;
  absl::StatusOr<PgTransaction> snapshot =
      PgTransaction::Begin(*pg, "ISOLATION LEVEL REPEATABLE READ READ ONLY");
  if (!snapshot.ok()) return snapshot.status();
  absl::StatusOr<Transaction> tx = Transaction::Write(*db);
  if (!tx.ok()) return tx.status();
  for (absl::Status s : {
           CopyTable(*pg, *db, "meta", "key, value", "tb", "key", "key <> 'schema_version'"),
           CopyTable(*pg, *db, "events",
                     "position, game_id, revision, idempotency_key, event, leaf_hash", "itithb",
                     "position"),
           CopyTable(*pg, *db, "games", "game_id, first_position, rules_pin", "tit", "game_id"),
           CopyTable(*pg, *db, "rulings", "position, seq, ruling", "iib", "position, seq"),
           CopyTable(*pg, *db, "checkpoints", "tree_size, checkpoint", "ib", "tree_size"),
       }) {
    if (!s.ok()) return s;
  }
  return tx->Commit();
}

absl::StatusOr<AuditReport> AuditPostgres(const std::string& uri, const AuditOptions& options) {
  std::string tmpl = (std::filesystem::temp_directory_path() / "arbiter-verify-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) {
    return absl::UnavailableError("cannot make a temporary directory for the audit");
  }
  const std::filesystem::path dir = tmpl;
  absl::StatusOr<AuditReport> report = [&]() -> absl::StatusOr<AuditReport> {
    // A SQLite ledger in the directory, as its backend lays one out.
    absl::StatusOr<std::unique_ptr<Store>> copy = OpenStore(dir.string());
    if (!copy.ok()) return copy.status();
    if (absl::Status s = CopyPgLedgerToSqlite(uri, (*copy)->database()); !s.ok()) return s;
    return (*copy)->Audit(options);
  }();
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return report;
}

}  // namespace arbiter::ledger
