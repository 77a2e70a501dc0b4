#include "ledger/sqlite/wal_checkpointer.h"

#include "ledger/sqlite.h"

namespace arbiter::ledger {

absl::Status WalCheckpointer::Attach(sqlite3* writer) {
  int rc = sqlite3_wal_autocheckpoint(writer, 0);
  if (rc != SQLITE_OK) return SqliteError(rc, writer, "disabling the automatic checkpoint");
  sqlite3_wal_hook(writer, &WalCheckpointer::OnCommit, this);
  frames_ = 0;
  return absl::OkStatus();
}

int WalCheckpointer::OnCommit(void* self, sqlite3*, const char*, int pages) {
  static_cast<WalCheckpointer*>(self)->frames_ = pages;
  return SQLITE_OK;
}

void WalCheckpointer::MaybeRun(sqlite3* writer) {
  if (frames_ < pages_) return;
  frames_ = 0;
  sqlite3_wal_checkpoint_v2(writer, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
}

}  // namespace arbiter::ledger
