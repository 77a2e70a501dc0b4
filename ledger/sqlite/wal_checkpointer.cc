#include "ledger/sqlite/wal_checkpointer.h"

#include <algorithm>
#include <string>

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

absl::Status WalCheckpointer::Reserve(sqlite3* writer) {
  sqlite3_file* log = nullptr;
  int rc = sqlite3_file_control(writer, "main", SQLITE_FCNTL_JOURNAL_POINTER, &log);
  if (rc != SQLITE_OK || log == nullptr || log->pMethods == nullptr) {
    return absl::OkStatus();  // no log open (not in WAL mode): nothing to reserve
  }
  sqlite3_int64 page_size = 4096;
  sqlite3_stmt* q = nullptr;
  if (sqlite3_prepare_v2(writer, "PRAGMA page_size", -1, &q, nullptr) == SQLITE_OK &&
      sqlite3_step(q) == SQLITE_ROW) {
    page_size = std::max<sqlite3_int64>(sqlite3_column_int64(q, 0), 512);
  }
  sqlite3_finalize(q);
  // A header of 32 bytes, then frames of a 24-byte header and a page; room
  // for the threshold and a batch beyond it.
  const sqlite3_int64 want = 32 + static_cast<sqlite3_int64>(pages_ + 64) * (24 + page_size);
  sqlite3_int64 size = 0;
  rc = log->pMethods->xFileSize(log, &size);
  if (rc != SQLITE_OK) return SqliteError(rc, writer, "reading the log's size");
  if (size >= want) return absl::OkStatus();
  const std::string zeros(64 << 10, '\0');
  for (sqlite3_int64 at = size; at < want; at += static_cast<sqlite3_int64>(zeros.size())) {
    const int n = static_cast<int>(std::min<sqlite3_int64>(zeros.size(), want - at));
    rc = log->pMethods->xWrite(log, zeros.data(), n, at);
    if (rc != SQLITE_OK) return SqliteError(rc, writer, "reserving room for the log");
  }
  rc = log->pMethods->xSync(log, SQLITE_SYNC_NORMAL);
  if (rc != SQLITE_OK) return SqliteError(rc, writer, "syncing the log's room");
  return absl::OkStatus();
}

void WalCheckpointer::MaybeRun(sqlite3* writer) {
  if (frames_ < pages_) return;
  frames_ = 0;
  sqlite3_wal_checkpoint_v2(writer, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
}

}  // namespace arbiter::ledger
