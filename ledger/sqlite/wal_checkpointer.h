// Copies the write-ahead log back into the database between the writer's
// batches (internal to the ledger).
//
// SQLite's automatic checkpoint runs inside the COMMIT of whichever batch
// crosses the threshold, so that batch's appends would wait for it before
// being answered. A checkpoint on a connection and thread of its own avoids
// that, but it races the writer: the log grows while it copies, so it never
// finishes, the log is never restarted, and every later commit starts
// another one, each with two more fsyncs competing with the writer's. Here
// the writer runs it itself, after answering a batch and before taking the
// next: nothing is appended meanwhile, so the checkpoint completes and the
// log restarts; appends that arrive meanwhile simply form the next batch.
#ifndef ARBITER_LEDGER_SQLITE_WAL_CHECKPOINTER_H_
#define ARBITER_LEDGER_SQLITE_WAL_CHECKPOINTER_H_

#include <sqlite3.h>

#include "absl/status/status.h"

namespace arbiter::ledger {

class WalCheckpointer {
 public:
  // Checkpoints once the log holds `pages` frames.
  explicit WalCheckpointer(int pages) : pages_(pages) {}
  WalCheckpointer(const WalCheckpointer&) = delete;
  WalCheckpointer& operator=(const WalCheckpointer&) = delete;

  // Turns off `writer`'s automatic checkpoint and counts the log's frames
  // at each of its commits instead. Call for every new writer connection.
  absl::Status Attach(sqlite3* writer);

  // Checkpoints (PASSIVE) through `writer`, the connection last attached,
  // if the log has grown past the threshold. Run it outside any
  // transaction. A failure (say, a full disk) leaves the frames
  // in the log, where they are as durable as in the database; the next
  // call tries again.
  void MaybeRun(sqlite3* writer);

  // Whether MaybeRun would checkpoint now.
  bool Due() const { return frames_ >= pages_; }

 private:
  static int OnCommit(void* self, sqlite3* db, const char* name, int pages);

  const int pages_;
  int frames_ = 0;  // in the log at the last commit
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SQLITE_WAL_CHECKPOINTER_H_
