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

  // Makes the log's file, through `writer`'s VFS, at least as long as the
  // log grows between two checkpoints, filled with zeros and synced.
  //
  // Why: a COMMIT that writes past the file's end changes its size, so its
  // fdatasync must write the file's metadata after the data: two writes to
  // the disk, one after the other, for every commit until the log first
  // restarts (and again each time the ledger is opened, since SQLite deletes
  // the log when the last connection closes). Within the file, a commit's
  // fdatasync writes the data alone. PostgreSQL zero-fills its log segments
  // for the same reason. Zeros past the log's last frame are not frames
  // (their checksums fail), so recovery stops there as it does after any
  // restart of the log. Call once the writer has read the database (the log
  // is open then); a log already that long is left as it is. The VFS's
  // error on a write or the sync (what was written stays: zeros).
  absl::Status Reserve(sqlite3* writer);

  // Whether MaybeRun would checkpoint now.
  bool Due() const { return frames_ >= pages_; }

 private:
  static int OnCommit(void* self, sqlite3* db, const char* name, int pages);

  const int pages_;
  int frames_ = 0;  // in the log at the last commit
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SQLITE_WAL_CHECKPOINTER_H_
