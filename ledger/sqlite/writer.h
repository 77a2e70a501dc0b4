// The ledger's single writer thread and its group commit (internal to the
// ledger; use ledger.h).
//
// Callers queue jobs (queue(), append_job.h) and block. The thread takes every queued job (up to a
// batch limit), runs each inside a SAVEPOINT of one transaction (a refused
// append rolls back to its savepoint and leaves the others), signs a
// checkpoint when one is due (also, with sign_within, once the oldest
// unsigned event has waited that long, batch or no batch), and COMMITs once; only then are the
// callers answered. If the COMMIT fails, every append of the batch gets the error, and the writer
// reloads its state from the database before the next batch, so memory never runs ahead of what is
// durable. Between batches it copies the write-ahead log back into the database once the log is
// long (wal_checkpointer.h).
//
// A blocking append (or checkpoint) that finds no batch running, while the
// last batch answered a single append, runs its batch itself, on the
// caller's thread (AppendQueue::Leader): a lone blocking caller's append
// then costs no thread hand-off either way. Asynchronous appends (a
// server's) are always queued, and under load the thread runs every batch,
// so that a server's few request readers never wait on a commit.
// Batches never overlap: whoever runs one, the thread or a caller, holds
// batch_mu_, and what a batch reads and writes below is guarded by it. The
// thread takes queued jobs only once it holds batch_mu_ (until then they
// join the running batch), a batch's callers are answered after it is
// released (so the caller an answer wakes can run its next batch itself;
// the thread's batches of more than one append are answered on a thread of
// their own, answerer.h, while it writes the next), and a caller's batch
// that moves the unsigned tail's due time wakes the thread, which waits for
// it.
#ifndef ARBITER_LEDGER_SQLITE_WRITER_H_
#define ARBITER_LEDGER_SQLITE_WRITER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/internal/answerer.h"
#include "ledger/internal/append_job.h"
#include "ledger/internal/append_rows.h"
#include "ledger/internal/batch.h"
#include "ledger/internal/commit_watch.h"
#include "ledger/internal/store_writer.h"
#include "ledger/judge.h"
#include "ledger/merkle.h"
#include "ledger/signer.h"
#include "ledger/sqlite.h"
#include "ledger/sqlite/wal_checkpointer.h"

namespace arbiter::ledger {

class Writer final : private BatchTransaction {
 public:
  struct Config {
    std::string db_path;
    const char* vfs = nullptr;
    Judge* judge = nullptr;
    const Signer* signer = nullptr;
    uint64_t checkpoint_every = 0;
    // A checkpoint is signed at most this long after the first event it
    // covers was committed (zero: no bound).
    absl::Duration sign_within = absl::ZeroDuration();
    size_t max_batch = 1024;
    std::shared_ptr<CommitWatch> watch;
  };

  // Opens the write connection, loads the head and Merkle edge, and starts
  // the thread.
  static absl::StatusOr<std::unique_ptr<Writer>> Start(Config config);
  // Drains the queue, then joins the thread.
  ~Writer() override;

  // Where callers queue appends and requests for a checkpoint.
  AppendQueue& queue() { return queue_; }

 private:
  struct Statements;

  // How long a batch may wait for more appends: until it holds
  // `until_jobs` jobs or `deadline` passes, whichever is first.
  struct Linger {
    size_t until_jobs;
    absl::Time deadline;
  };

  explicit Writer(Config config);
  void Run();
  // AppendQueue::Leader: runs `job`'s batch on the caller's thread if no
  // batch is running, the queue is open and the last batch answered one
  // append.
  bool Lead(AppendJob* job);
  // Runs `batch`, releases batch_mu_ (held on entry) and answers its jobs;
  // when the log has grown long, answers them first and copies the log back
  // into the database before releasing. `on_thread`: run by the writer's
  // thread, whose batches of more than one append the answerer answers;
  // otherwise by a caller, whose batch is answered here, and the thread is
  // woken if the batch moved the unsigned tail's due time.
  void RunAndAnswer(std::vector<AppendJob*>& batch, bool on_thread) ABSL_UNLOCK_FUNCTION(batch_mu_);
  // Runs `jobs` and whatever joins them through the batch loop (batch.h),
  // in one transaction; returns what its COMMIT took.
  absl::Duration RunBatch(std::vector<AppendJob*>& jobs, const Linger& linger)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(batch_mu_);
  // Moves queued jobs into `batch`, first waiting as `linger` allows if
  // none is queued; false if none came.
  bool TakeMore(std::vector<AppendJob*>& batch, const Linger& linger);
  // When the unsigned tail must be signed: InfiniteFuture if never.
  absl::Time TailDue() const;
  // Reopens the connection and reloads the state from what is committed.
  absl::Status Recover();

  // BatchTransaction, on the writer's connection (writer_rows.cc).
  absl::Status Savepoint() override;
  absl::Status Release() override;
  absl::Status RollBack() override;
  bool Alive() override { return db_.InTransaction(); }
  absl::Status InsertCheckpoint(uint64_t tree_size, const std::string& canonical) override;
  absl::Status Commit() override;
  absl::StatusOr<std::optional<KeyedEvent>> FindKey(const std::string& game_id,
                                                    const std::string& key) override;
  absl::StatusOr<v1::LedgerEntry> EntryAt(uint64_t position) override;
  // Cached once read: the batch has not touched the game yet.
  absl::StatusOr<uint64_t> CommittedRevision(const std::string& game_id) override;
  absl::StatusOr<std::unique_ptr<GameJudge>> Replay(const std::string& game_id) override;
  absl::Status InsertGame(const std::string& game_id, uint64_t first_position,
                          const std::string& rules_pin) override;
  absl::Status InsertEvent(uint64_t position, const std::string& game_id, uint64_t revision,
                           const std::string& key, const std::string& canonical,
                           const Hash& leaf) override;
  absl::Status InsertRuling(uint64_t position, uint64_t seq, const std::string& canonical) override;
  absl::Status InsertArrival(uint64_t position, absl::Time received_at) override;
  absl::StatusOr<std::optional<std::string>> VenueKeyOf(const std::string& game_id) override;
  absl::Status InsertVenueGame(const std::string& game_id, const std::string& venue_id,
                               const std::string& public_key_der) override;

  const Config config_;

  std::unique_ptr<WalCheckpointer> checkpointer_;
  // Held by whoever runs a batch; guards what follows (and Start has it
  // alone, before the thread runs).
  absl::Mutex batch_mu_;
  // The appends the last commit answered (their callers are the likeliest
  // to come straight back, so a batch waits for that many) and what the
  // last COMMIT took.
  size_t answered_ = 1;
  absl::Duration last_commit_ = absl::ZeroDuration();
  // TailDue() as the last batch left it, in Unix nanoseconds (int64 max:
  // never), for the thread to wait on without taking batch_mu_.
  std::atomic<int64_t> due_ns_{0};
  Db db_;
  std::unique_ptr<Statements> stmts_;
  std::optional<Transaction> tx_;  // the running batch's
  bool healthy_ = false;
  BatchLoop loop_;  // and the committed head, Merkle edge and checkpoint
  // When the oldest event no checkpoint covers was committed (or the
  // ledger opened with such a tail); InfiniteFuture when all are signed.
  absl::Time unsigned_since_ = absl::InfiniteFuture();
  std::unordered_map<std::string, uint64_t> revisions_;  // committed, cached

  AppendQueue queue_;
  // Declared before the thread: it answers the thread's last batches
  // after the thread is joined, and only then is it destroyed.
  Answerer answerer_;
  std::thread thread_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SQLITE_WRITER_H_
