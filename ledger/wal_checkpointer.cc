#include "ledger/wal_checkpointer.h"

#include "ledger/schema.h"

namespace arbiter::ledger {

absl::StatusOr<std::unique_ptr<WalCheckpointer>> WalCheckpointer::Start(const std::string& db_path,
                                                                        const char* vfs,
                                                                        int pages) {
  absl::StatusOr<Db> db = Db::Open(db_path, SQLITE_OPEN_READWRITE, vfs);
  if (!db.ok()) return db.status();
  if (absl::Status s = ConfigureConnection(*db); !s.ok()) return s;
  std::unique_ptr<WalCheckpointer> c(new WalCheckpointer(*std::move(db), pages));
  c->thread_ = std::thread([p = c.get()] { p->Run(); });
  return c;
}

WalCheckpointer::~WalCheckpointer() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  thread_.join();
}

absl::Status WalCheckpointer::Attach(sqlite3* writer) {
  int rc = sqlite3_wal_autocheckpoint(writer, 0);
  if (rc != SQLITE_OK) return SqliteError(rc, writer, "disabling the automatic checkpoint");
  sqlite3_wal_hook(writer, &WalCheckpointer::OnCommit, this);
  return absl::OkStatus();
}

int WalCheckpointer::OnCommit(void* self, sqlite3*, const char*, int pages) {
  auto* c = static_cast<WalCheckpointer*>(self);
  if (pages >= c->pages_) {
    absl::MutexLock lock(&c->mu_);
    c->requested_ = true;
  }
  return SQLITE_OK;
}

void WalCheckpointer::Run() {
  for (;;) {
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return requested_ || stopping_; };
      mu_.Await(absl::Condition(&ready));
      if (stopping_) return;
      requested_ = false;
    }
    // A failure (say, a full disk) leaves the frames in the WAL, where they
    // are as durable as in the database; the next commit asks again.
    sqlite3_wal_checkpoint_v2(db_.get(), nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
  }
}

}  // namespace arbiter::ledger
