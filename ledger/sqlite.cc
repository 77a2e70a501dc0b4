#include "ledger/sqlite.h"

#include <filesystem>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace arbiter::ledger {

absl::Status SqliteError(int rc, sqlite3* db, absl::string_view what) {
  std::string msg = absl::StrCat(
      what, ": ", db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc), " (sqlite ", rc, ")");
  switch (rc & 0xff) {
    case SQLITE_FULL:
      return absl::ResourceExhaustedError(msg);
    case SQLITE_IOERR:
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_PROTOCOL:
      return absl::UnavailableError(msg);
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return absl::DataLossError(msg);
    case SQLITE_CONSTRAINT:
      return absl::FailedPreconditionError(msg);
    default:
      return absl::InternalError(msg);
  }
}

absl::StatusOr<Db> Db::Open(const std::string& path, int flags, const char* vfs) {
  Db db;
  int rc = sqlite3_open_v2(path.c_str(), &db.db_, flags | SQLITE_OPEN_NOMUTEX, vfs);
  if (rc != SQLITE_OK) return SqliteError(rc, db.db_, absl::StrCat("opening ", path));
  sqlite3_extended_result_codes(db.db_, 1);
  sqlite3_busy_timeout(db.db_, 10000);
  return db;
}

namespace {

// A path as an SQLite URI's path (https://sqlite.org/uri.html).
std::string FileUri(const std::string& path) {
  std::string uri = "file:";
  for (const char c : path) {
    if (c == '?' || c == '#' || c == '%') {
      absl::StrAppend(&uri, "%", absl::Hex(static_cast<unsigned char>(c), absl::kZeroPad2));
    } else {
      uri.push_back(c);
    }
  }
  return uri;
}

// Reads the schema, which is when SQLite first needs the WAL's -shm file.
absl::Status Probe(const Db& db) {
  const int rc =
      sqlite3_exec(db.get(), "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return SqliteError(rc, db.get(), "reading the schema");
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Db> Db::OpenReadOnly(const std::string& path, const char* vfs) {
  absl::StatusOr<Db> db = Open(path, SQLITE_OPEN_READONLY, vfs);
  if (!db.ok()) return db.status();
  const absl::Status read = Probe(*db);
  if (read.ok()) return db;
  std::error_code ec;
  const std::string wal = path + "-wal";
  if (std::filesystem::exists(wal, ec) && std::filesystem::file_size(wal, ec) > 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot read ", path, " without writing beside it: its write-ahead log ", wal,
                     " holds commits not yet in the database file, and reading that needs ", path,
                     "-shm (", read.message(),
                     "); copy the folder with its server stopped, or let this user "
                     "write the copy"));
  }
  // No log beside it: the database file is the whole ledger, read as is.
  db = Open(FileUri(path) + "?immutable=1", SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, vfs);
  if (!db.ok()) return db.status();
  if (absl::Status s = Probe(*db); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("opening ", path, ": ", s.message()));
  }
  return db;
}

Db& Db::operator=(Db&& other) noexcept {
  if (this != &other) {
    Close();
    db_ = other.db_;
    tx_statements_ = other.tx_statements_;
    other.db_ = nullptr;
    other.tx_statements_ = {};
  }
  return *this;
}

Db::~Db() { Close(); }

void Db::Close() {
  for (sqlite3_stmt*& stmt : tx_statements_) {
    sqlite3_finalize(stmt);
    stmt = nullptr;
  }
  if (db_ != nullptr) sqlite3_close_v2(db_);
  db_ = nullptr;
}

absl::Status Db::Run(TxStatement which) {
  static constexpr const char* kSql[] = {"BEGIN IMMEDIATE", "BEGIN", "COMMIT", "ROLLBACK"};
  const size_t i = static_cast<size_t>(which);
  sqlite3_stmt*& stmt = tx_statements_[i];
  if (stmt == nullptr) {
    const int rc = sqlite3_prepare_v3(db_, kSql[i], -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) return SqliteError(rc, db_, kSql[i]);
  }
  const int rc = sqlite3_step(stmt);
  sqlite3_reset(stmt);
  if (rc != SQLITE_DONE) return SqliteError(rc, db_, kSql[i]);
  return absl::OkStatus();
}

absl::Status Db::Exec(absl::string_view sql) {
  std::string s(sql);
  int rc = sqlite3_exec(db_, s.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return SqliteError(rc, db_, s.substr(0, 60));
  return absl::OkStatus();
}

absl::StatusOr<Stmt> Stmt::Prepare(const Db& db, absl::string_view sql) {
  Stmt s;
  int rc = sqlite3_prepare_v3(db.get(), sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &s.stmt_, nullptr);
  if (rc != SQLITE_OK) return SqliteError(rc, db.get(), absl::StrCat("preparing ", sql));
  return s;
}

Stmt& Stmt::operator=(Stmt&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = other.stmt_;
    other.stmt_ = nullptr;
  }
  return *this;
}

Stmt::~Stmt() { sqlite3_finalize(stmt_); }

Stmt& Stmt::Bind(int i, int64_t v) {
  sqlite3_bind_int64(stmt_, i, v);
  return *this;
}

Stmt& Stmt::Bind(int i, absl::string_view text) {
  sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
  return *this;
}

Stmt& Stmt::BindBlob(int i, absl::string_view blob) {
  sqlite3_bind_blob(stmt_, i, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
  return *this;
}

Stmt& Stmt::BindNull(int i) {
  sqlite3_bind_null(stmt_, i);
  return *this;
}

absl::StatusOr<bool> Stmt::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  sqlite3* db = sqlite3_db_handle(stmt_);
  return SqliteError(rc, db, sqlite3_sql(stmt_));
}

absl::Status Stmt::Run() {
  absl::StatusOr<bool> row = Step();
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  return row.status();
}

void Stmt::Reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string Stmt::Text(int col) const { return std::string(Bytes(col)); }

absl::string_view Stmt::Bytes(int col) const {
  const void* p = sqlite3_column_blob(stmt_, col);
  int n = sqlite3_column_bytes(stmt_, col);
  return p == nullptr ? absl::string_view() : absl::string_view(static_cast<const char*>(p), n);
}

absl::StatusOr<Transaction> Transaction::Write(Db& db) {
  if (absl::Status s = db.Run(Db::TxStatement::kBeginImmediate); !s.ok()) return s;
  return Transaction(&db);
}

absl::StatusOr<Transaction> Transaction::Read(Db& db) {
  if (db.InTransaction()) return Transaction(nullptr);
  if (absl::Status s = db.Run(Db::TxStatement::kBegin); !s.ok()) return s;
  return Transaction(&db);
}

Transaction::~Transaction() {
  // Some errors roll SQLite's transaction back by themselves; then there is
  // nothing left to end.
  if (db_ != nullptr && db_->InTransaction()) {
    db_->Run(Db::TxStatement::kRollback).IgnoreError();
  }
}

absl::Status Transaction::Commit() {
  if (db_ == nullptr) return absl::OkStatus();
  if (absl::Status s = db_->Run(Db::TxStatement::kCommit); !s.ok()) return s;
  db_ = nullptr;
  return absl::OkStatus();
}

}  // namespace arbiter::ledger
