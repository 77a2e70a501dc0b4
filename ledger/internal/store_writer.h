// A store's writer, as Ledger opens it (Store::OpenWriter; internal to the
// ledger; use ledger.h): the queue appends wait in, the committed head it
// publishes, the key it signs with. Each backend's writer runs its batches
// through the one batch loop (batch.h).
#ifndef ARBITER_LEDGER_INTERNAL_STORE_WRITER_H_
#define ARBITER_LEDGER_INTERNAL_STORE_WRITER_H_

#include <memory>

#include "ledger/internal/append_job.h"
#include "ledger/internal/commit_watch.h"
#include "ledger/signer.h"

namespace arbiter::ledger {

class StoreWriter {
 public:
  // Finishes the appends already queued and closes the watch.
  virtual ~StoreWriter() = default;

  // Where appends and requests for a checkpoint wait for the writer
  // (append_job.h): Ledger::Append, AppendAsync and Checkpoint.
  virtual AppendQueue& queue() = 0;

  // The committed head, published after each commit this writer sees.
  virtual std::shared_ptr<CommitWatch> watch() = 0;

  // The key the writer signs checkpoints with.
  virtual const Signer& signer() const = 0;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_STORE_WRITER_H_
