// The ledger in a SQLite file (OpenSqliteStore, ledger_store.h): one writing
// process per data directory, and the writer thread of writer.h.
#include "ledger/ledger_store.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "ledger/log_reader.h"
#include "ledger/schema.h"
#include "ledger/writer.h"

namespace arbiter::ledger {
namespace {

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

}  // namespace

class SqliteStore final : public LedgerStore {
 public:
  SqliteStore(LedgerOptions options, DirLock lock, Signer signer)
      : options_(std::move(options)), lock_(std::move(lock)), signer_(std::move(signer)) {}

  ~SqliteStore() override {
    writer_.reset();
    watch_->Close();
  }

  std::string db_path() const { return options_.dir + "/ledger.db"; }

  AppendQueue& queue() override { return writer_->queue(); }

  absl::StatusOr<std::unique_ptr<LogSource>> OpenReader() override {
    absl::StatusOr<LogReader> r = LogReader::Open(db_path(), options_.vfs);
    if (!r.ok()) return r.status();
    // A reader (a watch stream's, one of the pool) reads mostly the log's
    // tail: a small page cache of its own, so many of them stay cheap (the
    // operating system caches the file for all).
    if (absl::Status s = r->db().Exec("PRAGMA cache_size = -256"); !s.ok()) return s;
    return std::make_unique<LogReader>(*std::move(r));
  }

  absl::StatusOr<AuditReport> Audit(const AuditOptions& options) override {
    absl::StatusOr<LogReader> r = LogReader::Open(db_path(), options_.vfs);
    if (!r.ok()) return r.status();
    return AuditLog(*r, options);
  }

  std::shared_ptr<CommitWatch> watch() override { return watch_; }
  bool shared() const override { return false; }
  const Signer& signer() const override { return signer_; }

  LedgerOptions options_;
  DirLock lock_;
  Signer signer_;
  std::shared_ptr<CommitWatch> watch_ = std::make_shared<CommitWatch>(0);
  std::unique_ptr<Writer> writer_;
};

absl::StatusOr<std::unique_ptr<LedgerStore>> OpenSqliteStore(LedgerOptions options) {
  std::error_code ec;
  std::filesystem::create_directories(options.dir, ec);
  if (ec)
    return absl::UnavailableError(absl::StrCat("cannot create ", options.dir, ": ", ec.message()));
  absl::StatusOr<DirLock> lock = DirLock::Acquire(options.dir + "/ledger.lock");
  if (!lock.ok()) return lock.status();
  absl::StatusOr<Signer> signer = LoadSigningKey(options.dir, options.log_origin);
  if (!signer.ok()) return signer.status();

  auto impl =
      std::make_unique<SqliteStore>(std::move(options), *std::move(lock), *std::move(signer));
  {
    absl::StatusOr<Db> db =
        Db::Open(impl->db_path(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, impl->options_.vfs);
    if (!db.ok()) return db.status();
    if (absl::Status s = PrepareSchema(*db); !s.ok()) return s;
    if (absl::Status s = PinPublicKey(*db, impl->signer_.public_key_der()); !s.ok()) return s;
  }
  Writer::Config config;
  config.db_path = impl->db_path();
  config.vfs = impl->options_.vfs;
  config.judge = impl->options_.judge;
  config.signer = &impl->signer_;
  config.checkpoint_every = impl->options_.checkpoint_every;
  config.sign_within = impl->options_.sign_within;
  config.max_batch = std::max<size_t>(1, impl->options_.max_batch);
  config.watch = impl->watch_;
  absl::StatusOr<std::unique_ptr<Writer>> writer = Writer::Start(std::move(config));
  if (!writer.ok()) return writer.status();
  impl->writer_ = *std::move(writer);
  return std::unique_ptr<LedgerStore>(std::move(impl));
}

}  // namespace arbiter::ledger
