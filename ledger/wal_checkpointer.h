// Copies the write-ahead log back into the database on a thread and
// connection of its own, so that no append waits for it (internal to the
// ledger). SQLite's automatic checkpoint would run inside the COMMIT of
// whichever batch crossed the threshold, stalling every append in it.
#ifndef ARBITER_LEDGER_WAL_CHECKPOINTER_H_
#define ARBITER_LEDGER_WAL_CHECKPOINTER_H_

#include <sqlite3.h>

#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "ledger/sqlite.h"

namespace arbiter::ledger {

class WalCheckpointer {
 public:
  // Starts the thread with its own connection to `db_path`; it checkpoints
  // (PASSIVE: never blocking the writer) once the WAL holds `pages` frames.
  static absl::StatusOr<std::unique_ptr<WalCheckpointer>> Start(const std::string& db_path,
                                                                const char* vfs, int pages);
  ~WalCheckpointer();

  // Turns off `writer`'s own automatic checkpoint and has its commits wake
  // this thread instead. Call for every new writer connection.
  absl::Status Attach(sqlite3* writer);

 private:
  WalCheckpointer(Db db, int pages) : db_(std::move(db)), pages_(pages) {}
  static int OnCommit(void* self, sqlite3* db, const char* name, int pages);
  void Run();

  Db db_;
  const int pages_;
  absl::Mutex mu_;
  bool requested_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_WAL_CHECKPOINTER_H_
