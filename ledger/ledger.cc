#include "ledger/ledger.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "ledger/bundle.h"
#include "ledger/merkle.h"
#include "ledger/schema.h"
#include "ledger/signer.h"
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

class Ledger::Impl {
 public:
  Impl(LedgerOptions options, DirLock lock, Signer signer)
      : options_(std::move(options)), lock_(std::move(lock)), signer_(std::move(signer)) {}

  ~Impl() {
    writer_.reset();
    watch_->Close();
  }

  std::string db_path() const { return options_.dir + "/ledger.db"; }

  // Runs `fn` on a pooled read connection.
  template <typename Fn>
  auto WithReader(Fn fn) -> decltype(fn(std::declval<LogReader&>())) {
    absl::StatusOr<LogReader> reader = TakeReader();
    if (!reader.ok()) return reader.status();
    auto result = fn(*reader);
    absl::MutexLock lock(&pool_mu_);
    pool_.push_back(*std::move(reader));
    return result;
  }

  absl::StatusOr<LogReader> TakeReader() {
    {
      absl::MutexLock lock(&pool_mu_);
      if (!pool_.empty()) {
        LogReader r = std::move(pool_.back());
        pool_.pop_back();
        return r;
      }
    }
    return OpenReader();
  }

  // Runs `fn` on the proof tree once it holds the first `tree_size` leaves.
  // The tree only grows, by the leaves it has not read yet: the log is
  // append-only, so a tree over its first n leaves answers every proof
  // within n from then on. Without it each proof read and hashed the whole
  // log (an auditor fetching a game's 250 proofs read it 250 times). It
  // holds every perfect subtree: about 64 bytes per event.
  template <typename Fn>
  auto WithProofTree(uint64_t tree_size, Fn fn) -> decltype(fn(std::declval<const MerkleTree&>())) {
    absl::MutexLock lock(&proof_tree_mu_);
    if (const uint64_t have = proof_tree_.size(); have < tree_size) {
      absl::StatusOr<std::vector<Hash>> leaves =
          WithReader([&](LogReader& r) { return r.LeafHashes(tree_size, have); });
      if (!leaves.ok()) return leaves.status();
      for (const Hash& leaf : *leaves) proof_tree_.Append(leaf);
    }
    return fn(proof_tree_);
  }

  absl::StatusOr<LogReader> OpenReader() {
    absl::StatusOr<LogReader> r = LogReader::Open(db_path(), options_.vfs);
    if (!r.ok()) return r.status();
    return r;
  }

  LedgerOptions options_;
  DirLock lock_;
  Signer signer_;
  std::shared_ptr<CommitWatch> watch_ = std::make_shared<CommitWatch>(0);
  std::unique_ptr<Writer> writer_;
  absl::Mutex pool_mu_;
  std::vector<LogReader> pool_ ABSL_GUARDED_BY(pool_mu_);
  absl::Mutex proof_tree_mu_;
  MerkleTree proof_tree_ ABSL_GUARDED_BY(proof_tree_mu_);
};

Ledger::Ledger(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Ledger::~Ledger() = default;

absl::StatusOr<std::unique_ptr<Ledger>> Ledger::Open(LedgerOptions options) {
  if (options.judge == nullptr) return absl::InvalidArgumentError("the ledger needs a judge");
  if (options.dir.empty()) return absl::InvalidArgumentError("the ledger needs a data directory");
  std::error_code ec;
  std::filesystem::create_directories(options.dir, ec);
  if (ec)
    return absl::UnavailableError(absl::StrCat("cannot create ", options.dir, ": ", ec.message()));
  absl::StatusOr<DirLock> lock = DirLock::Acquire(options.dir + "/ledger.lock");
  if (!lock.ok()) return lock.status();
  absl::StatusOr<Signer> signer = Signer::LoadOrCreate(options.dir + "/ledger.key");
  if (!signer.ok()) return signer.status();
  std::string pub = options.dir + "/ledger.pub";
  if (access(pub.c_str(), F_OK) != 0) {
    std::ofstream out(pub + ".tmp", std::ios::binary | std::ios::trunc);
    out << signer->PublicKeyPem();
    out.close();
    if (!out || std::rename((pub + ".tmp").c_str(), pub.c_str()) != 0) {
      return absl::UnavailableError(absl::StrCat("cannot write ", pub));
    }
  }

  auto impl = std::make_unique<Impl>(std::move(options), *std::move(lock), *std::move(signer));
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
  return std::unique_ptr<Ledger>(new Ledger(std::move(impl)));
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Ledger::Append(const std::string& game_id,
                                                            ExpectedRevision expected,
                                                            std::vector<v1::Event> events) {
  return impl_->writer_->Append(game_id, expected, std::move(events));
}

void Ledger::AppendAsync(const std::string& game_id, ExpectedRevision expected,
                         std::vector<v1::Event> events, AppendCallback done) {
  impl_->writer_->AppendAsync(game_id, expected, std::move(events), std::move(done));
}

absl::StatusOr<v1::Checkpoint> Ledger::Checkpoint() { return impl_->writer_->Checkpoint(); }

absl::StatusOr<uint64_t> Ledger::Head() {
  return impl_->WithReader([](LogReader& r) { return r.Head(); });
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Ledger::ReadLog(uint64_t after_position, size_t max) {
  return impl_->WithReader([&](LogReader& r) { return r.ReadLog(after_position, max); });
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Ledger::ReadGame(const std::string& game_id,
                                                              uint64_t after_revision, size_t max) {
  return impl_->WithReader([&](LogReader& r) { return r.ReadGame(game_id, after_revision, max); });
}

absl::StatusOr<uint64_t> Ledger::GameRevision(const std::string& game_id) {
  return impl_->WithReader([&](LogReader& r) { return r.GameRevision(game_id); });
}

absl::StatusOr<std::optional<v1::LedgerEntry>> Ledger::FindByKey(const std::string& game_id,
                                                                 const std::string& key) {
  return impl_->WithReader([&](LogReader& r) { return r.FindKey(game_id, key); });
}

absl::StatusOr<std::vector<GameListing>> Ledger::ListGames(uint64_t after, size_t max) {
  return impl_->WithReader([&](LogReader& r) { return r.ListGames(after, max); });
}

absl::StatusOr<std::string> Ledger::RulesPin(const std::string& game_id) {
  return impl_->WithReader([&](LogReader& r) { return r.RulesPin(game_id); });
}

absl::StatusOr<AuditReport> Ledger::Audit(const AuditOptions& options) {
  return impl_->WithReader([&](LogReader& r) { return AuditLog(r, options); });
}

absl::StatusOr<v1::AuditBundle> Ledger::ExportBundle(const std::string& game_id) {
  absl::StatusOr<uint64_t> revision = GameRevision(game_id);
  if (!revision.ok()) return revision.status();
  if (*revision == 0)
    return absl::NotFoundError(absl::StrCat("game '", game_id, "' does not exist"));
  absl::StatusOr<v1::AuditBundle> bundle =
      impl_->WithReader([&](LogReader& r) { return ledger::ExportBundle(r, game_id); });
  if (absl::IsFailedPrecondition(bundle.status())) {
    // No checkpoint covers the game's last event yet: sign one now.
    if (absl::StatusOr<v1::Checkpoint> c = Checkpoint(); !c.ok()) return c.status();
    bundle = impl_->WithReader([&](LogReader& r) { return ledger::ExportBundle(r, game_id); });
  }
  return bundle;
}

absl::StatusOr<std::vector<v1::Checkpoint>> Ledger::Checkpoints() {
  return impl_->WithReader([](LogReader& r) { return r.Checkpoints(); });
}

absl::StatusOr<InclusionProofResult> Ledger::ProveInclusion(uint64_t position, uint64_t tree_size) {
  if (position == 0 || position > tree_size) {
    return absl::OutOfRangeError(
        absl::StrCat("position ", position, " is not in a tree of size ", tree_size));
  }
  absl::StatusOr<std::vector<Hash>> path = impl_->WithProofTree(
      tree_size, [&](const MerkleTree& t) { return t.InclusionProof(position - 1, tree_size); });
  if (!path.ok()) return path.status();
  return InclusionProofResult{tree_size, *std::move(path)};
}

absl::StatusOr<std::vector<Hash>> Ledger::ProveConsistency(uint64_t old_size, uint64_t new_size) {
  if (old_size > new_size) {
    return absl::OutOfRangeError(absl::StrCat("tree size ", old_size, " exceeds ", new_size));
  }
  return impl_->WithProofTree(
      new_size, [&](const MerkleTree& t) { return t.ConsistencyProof(old_size, new_size); });
}

absl::StatusOr<std::unique_ptr<Subscription>> Ledger::SubscribeLog(uint64_t after_position) {
  absl::StatusOr<LogReader> r = impl_->OpenReader();
  if (!r.ok()) return r.status();
  return Subscription::ForLog(*std::move(r), impl_->watch_, after_position);
}

absl::StatusOr<std::unique_ptr<Subscription>> Ledger::SubscribeGame(const std::string& game_id,
                                                                    uint64_t after_revision) {
  absl::StatusOr<LogReader> r = impl_->OpenReader();
  if (!r.ok()) return r.status();
  return Subscription::ForGame(*std::move(r), impl_->watch_, game_id, after_revision);
}

const std::string& Ledger::public_key_der() const { return impl_->signer_.public_key_der(); }
std::string Ledger::PublicKeyPem() const { return impl_->signer_.PublicKeyPem(); }

}  // namespace arbiter::ledger
