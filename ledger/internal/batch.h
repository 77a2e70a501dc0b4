// The one batch loop of every backend's writer (internal to the ledger):
// a batch of appends in one transaction, each in a savepoint of its own (a
// refused append leaves the others), the checkpoint when one is due, one
// COMMIT, and only then what the commit made known. A backend supplies the
// transaction (BatchTransaction: its rows and the few statements around
// them); when a batch runs and who runs it (a writer thread, a caller, the
// holder of a lease) stays the backend's.
#ifndef ARBITER_LEDGER_INTERNAL_BATCH_H_
#define ARBITER_LEDGER_INTERNAL_BATCH_H_

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/internal/append_job.h"
#include "ledger/internal/append_rows.h"
#include "ledger/internal/commit_watch.h"
#include "ledger/judge.h"
#include "ledger/merkle.h"
#include "ledger/signer.h"

namespace arbiter::ledger {

// One open transaction of a backend's writer. Errors are the database's.
class BatchTransaction : public AppendRows {
 public:
  // Around each append: begins its savepoint, keeps it, or undoes it (and
  // ends it).
  virtual absl::Status Savepoint() = 0;
  virtual absl::Status Release() = 0;
  virtual absl::Status RollBack() = 0;
  // False once the storage has rolled the whole transaction back on its own
  // (SQLite does after some errors): the batch is lost, not one append.
  virtual bool Alive() { return true; }
  virtual absl::Status InsertCheckpoint(uint64_t tree_size, const std::string& canonical) = 0;
  // Makes the batch durable; on an error nothing of it is.
  virtual absl::Status Commit() = 0;
};

// What is committed, as a writer keeps it: the head, the Merkle edge and
// the latest checkpoint (tree_size 0: none yet).
struct CommittedLog {
  uint64_t head = 0;
  CompactRange range;
  v1::Checkpoint last_checkpoint;
};

class BatchLoop {
 public:
  struct Config {
    Judge* judge = nullptr;  // not owned
    const Signer* signer = nullptr;
    uint64_t checkpoint_every = 0;
    std::shared_ptr<CommitWatch> watch;
  };
  explicit BatchLoop(Config config) : config_(std::move(config)) {}

  // What one batch did.
  struct Outcome {
    absl::Status status;  // of the transaction: not OK, nothing was acknowledged
    absl::Duration commit_took = absl::ZeroDuration();
    // Each game the batch wrote, at its new committed revision.
    std::unordered_map<std::string, uint64_t> revisions;
  };

  // Runs `jobs` in `tx`, and the jobs `take_more` adds to them while it runs
  // (false: none came), then signs the checkpoint when due (`tail_due`: the
  // unsigned tail is), and COMMITs. After the COMMIT, and only then, this
  // is the commit point: committed() moves, the judge is handed the folds
  // the batch advanced, the watch is published and checkpoint jobs are
  // answered. If the transaction fails, every job gets its error and
  // committed() stays. Jobs are not completed here: the caller answers
  // them, after it releases what a batch holds.
  Outcome Run(std::vector<AppendJob*>& jobs, BatchTransaction& tx, bool tail_due,
              absl::FunctionRef<bool(std::vector<AppendJob*>&)> take_more);

  // Fails `jobs` with `s` (a batch whose transaction could not begin).
  static void FailAll(std::vector<AppendJob*>& jobs, const absl::Status& s);

  // The writer's committed state: loaded by the backend (at start, after a
  // failure, or extended by other servers' commits), moved by Run.
  CommittedLog& committed() { return committed_; }
  const Config& config() const { return config_; }

 private:
  const Config config_;
  CommittedLog committed_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_BATCH_H_
