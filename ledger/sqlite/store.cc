// The ledger in a SQLite file (OpenSqliteStore, backends.h): a data
// directory holding ledger.db (+ -wal, -shm), ledger.key, ledger.pub and
// ledger.lock; one writing process per directory, and the writer of
// writer.h.
#include "ledger/internal/backends.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "ledger/internal/log_origin.h"
#include "ledger/internal/store_writer.h"
#include "ledger/ledger.h"
#include "ledger/server_tables.h"
#include "ledger/sqlite/audit_source.h"
#include "ledger/sqlite/log_reader.h"
#include "ledger/sqlite/schema.h"
#include "ledger/sqlite/server_tables.h"
#include "ledger/sqlite/venue_tables.h"
#include "ledger/sqlite/writer.h"

namespace arbiter::ledger {
namespace {

// The database file in a data directory: the one place its name is spelled.
constexpr char kDatabaseFile[] = "ledger.db";

// An exclusive advisory lock on the data directory, released by the kernel
// when the process dies.
class DirLock {
 public:
  static absl::StatusOr<DirLock> Acquire(const std::string& path) {
    int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
      return absl::UnavailableError(absl::StrCat("cannot open ", path, ": ", strerror(errno)));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      close(fd);
      return absl::FailedPreconditionError(
          absl::StrCat("another process has the ledger open (", path, " is locked)"));
    }
    return DirLock(fd);
  }
  DirLock(DirLock&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  DirLock& operator=(DirLock&&) = delete;
  ~DirLock() {
    if (fd_ >= 0) close(fd_);
  }

 private:
  explicit DirLock(int fd) : fd_(fd) {}
  int fd_;
};

// Records the public key in the database on first start, and refuses a key
// file that is not the one the ledger was made with.
absl::Status PinPublicKey(Db& db, const std::string& der) {
  absl::StatusOr<Stmt> ins =
      Stmt::Prepare(db, "INSERT OR IGNORE INTO meta(key, value) VALUES('public_key', ?)");
  if (!ins.ok()) return ins.status();
  ins->BindBlob(1, der);
  if (absl::Status s = ins->Run(); !s.ok()) return s;
  absl::StatusOr<Stmt> q = Stmt::Prepare(db, "SELECT value FROM meta WHERE key = 'public_key'");
  if (!q.ok()) return q.status();
  absl::StatusOr<bool> row = q->Step();
  if (!row.ok()) return row.status();
  if (!*row || q->Text(0) != der) {
    return absl::FailedPreconditionError(
        "ledger.key is not the key this ledger was made with; refusing to sign with it");
  }
  return absl::OkStatus();
}

// The writer of a data directory: its lock, its key and the writer thread.
class SqliteWriter final : public StoreWriter {
 public:
  SqliteWriter(DirLock lock, Signer signer) : lock_(std::move(lock)), signer_(std::move(signer)) {}
  ~SqliteWriter() override {
    writer_.reset();
    watch_->Close();
  }

  AppendQueue& queue() override { return writer_->queue(); }
  std::shared_ptr<CommitWatch> watch() override { return watch_; }
  const Signer& signer() const override { return signer_; }

  DirLock lock_;
  Signer signer_;
  std::shared_ptr<CommitWatch> watch_ = std::make_shared<CommitWatch>();
  std::unique_ptr<Writer> writer_;
};

class SqliteStore final : public Store {
 public:
  SqliteStore(std::string dir, std::string database, StoreOptions options)
      : dir_(std::move(dir)), database_(std::move(database)), options_(options) {}

  const std::string& database() const override { return database_; }
  bool shared() const override { return false; }

  absl::StatusOr<std::unique_ptr<LogSource>> OpenReader() override {
    absl::StatusOr<LogReader> r = Open();
    if (!r.ok()) return r.status();
    // A reader (a watch stream's, one of the pool) reads mostly the log's
    // tail: a small page cache of its own, so many of them stay cheap (the
    // operating system caches the file for all).
    if (absl::Status s = r->db().Exec("PRAGMA cache_size = -256"); !s.ok()) return s;
    return std::make_unique<LogReader>(*std::move(r));
  }

  absl::StatusOr<std::unique_ptr<AuditSource>> OpenAuditSource() override {
    std::error_code ec;
    if (!std::filesystem::exists(database_, ec)) return NoDatabase();
    return OpenSqliteAuditSource(database_, options_.vfs);
  }

  absl::StatusOr<std::unique_ptr<VenueTables>> OpenVenueTables(bool read_only) override {
    absl::StatusOr<Db> db = read_only ? Db::OpenReadOnly(database_)
                                      : Db::Open(database_, SQLITE_OPEN_READWRITE, options_.vfs);
    if (!db.ok()) return db.status();
    return SqliteVenueTablesOn(*std::move(db));
  }

  absl::StatusOr<std::unique_ptr<ServerTables>> OpenServerTables(bool read_only) override {
    if (read_only) return OpenSqliteServerTablesToRead(database_, options_.vfs);
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) return absl::UnavailableError(absl::StrCat("cannot create ", dir_, ": ", ec.message()));
    return OpenSqliteServerTables(database_, options_.vfs, options_.tokens_kept_for);
  }

  absl::StatusOr<std::unique_ptr<StoreWriter>> OpenWriter(LedgerOptions options) override;

 private:
  // The log's origin, kept in ledger.db (log_origin.h).
  absl::StatusOr<std::string> SettledOrigin(const std::string& requested) {
    absl::StatusOr<std::unique_ptr<ServerTables>> tables = OpenServerTables(false);
    if (!tables.ok()) return tables.status();
    return SettleLogOrigin(**tables, dir_, requested, DefaultLogOrigin(dir_));
  }

  absl::StatusOr<LogReader> Open() {
    std::error_code ec;
    if (!std::filesystem::exists(database_, ec)) return NoDatabase();
    return LogReader::Open(database_, options_.vfs);
  }
  absl::Status NoDatabase() const {
    return absl::NotFoundError(absl::StrCat("no database at ", database_));
  }

  const std::string dir_;
  const std::string database_;
  const StoreOptions options_;
};

absl::StatusOr<std::unique_ptr<StoreWriter>> SqliteStore::OpenWriter(LedgerOptions options) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return absl::UnavailableError(absl::StrCat("cannot create ", dir_, ": ", ec.message()));
  absl::StatusOr<DirLock> lock = DirLock::Acquire(dir_ + "/ledger.lock");
  if (!lock.ok()) return lock.status();
  absl::StatusOr<std::string> origin = SettledOrigin(options.log_origin);
  if (!origin.ok()) return origin.status();
  absl::StatusOr<Signer> signer = LoadSigningKey(dir_, *origin);
  if (!signer.ok()) return signer.status();

  auto impl = std::make_unique<SqliteWriter>(*std::move(lock), *std::move(signer));
  {
    absl::StatusOr<Db> db =
        Db::Open(database_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, options.vfs);
    if (!db.ok()) return db.status();
    if (absl::Status s = PrepareSchema(*db); !s.ok()) return s;
    if (absl::Status s = PinPublicKey(*db, impl->signer_.public_key_der()); !s.ok()) return s;
  }
  Writer::Config config;
  config.db_path = database_;
  config.vfs = options.vfs;
  config.judge = options.judge;
  config.signer = &impl->signer_;
  config.checkpoint_every = options.checkpoint_every;
  config.sign_within = options.sign_within;
  config.max_batch = std::max<size_t>(1, options.max_batch);
  config.watch = impl->watch_;
  absl::StatusOr<std::unique_ptr<Writer>> writer = Writer::Start(std::move(config));
  if (!writer.ok()) return writer.status();
  impl->writer_ = *std::move(writer);
  return std::unique_ptr<StoreWriter>(std::move(impl));
}

}  // namespace

bool ClaimsSqlite(const std::string& /*location*/) { return true; }

absl::StatusOr<std::unique_ptr<Store>> OpenSqliteStore(const std::string& location,
                                                       const StoreOptions& options) {
  // The database file itself (the offline commands accept it), else a data
  // directory, existing or to be made.
  std::error_code ec;
  if (std::filesystem::is_regular_file(location, ec)) {
    std::string dir = std::filesystem::path(location).parent_path().string();
    return std::make_unique<SqliteStore>(dir.empty() ? "." : dir, location, options);
  }
  return std::make_unique<SqliteStore>(
      location, (std::filesystem::path(location) / kDatabaseFile).string(), options);
}

}  // namespace arbiter::ledger
