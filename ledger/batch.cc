#include "ledger/internal/batch.h"

#include <optional>
#include <utility>

#include "ledger/commit_feed.h"
#include "proto/canonical/canonical_bytes.h"

namespace arbiter::ledger {
namespace {

// One job's append inside its own savepoint: released when it is judged and
// written, rolled back when it fails or is a dry run, so that one refused
// append never spoils the others in the batch. The job gets its entries or
// its error; the status returned is the transaction's, not OK only when
// the transaction itself failed.
absl::Status AppendInSavepoint(AppendJob& job, AppendBatch& batch, Judge& judge,
                               BatchTransaction& tx) {
  if (absl::Status s = tx.Savepoint(); !s.ok()) return s;
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries = AppendOnto(job, batch, judge, tx);
  if (entries.ok() && !job.dry_run) {
    job.entries = *std::move(entries);
    return tx.Release();
  }
  if (entries.ok()) {
    // A dry run: judged and written as any append, then undone.
    job.entries = *std::move(entries);
  } else {
    // The append was judged on a copy, which is dropped with it.
    job.status = entries.status();
    if (!tx.Alive()) return entries.status();
  }
  return tx.RollBack();
}

}  // namespace

void BatchLoop::FailAll(std::vector<AppendJob*>& jobs, const absl::Status& s) {
  for (AppendJob* job : jobs) {
    if (job->status.ok()) job->status = s;
    job->entries.clear();
  }
}

BatchLoop::Outcome BatchLoop::Run(std::vector<AppendJob*>& jobs, BatchTransaction& tx,
                                  bool tail_due,
                                  absl::FunctionRef<bool(std::vector<AppendJob*>&)> take_more) {
  Outcome out;
  AppendBatch batch;
  batch.head = committed_.head;
  batch.range = committed_.range;
  bool checkpoint_asked = false;
  bool tail_bound = tail_due;
  absl::Status& broken = out.status;  // a failure of the transaction itself
  for (size_t next = 0; broken.ok(); ++next) {
    if (next == jobs.size() && !take_more(jobs)) break;
    AppendJob* job = jobs[next];
    if (job->checkpoint) {
      (job->tail_bound ? tail_bound : checkpoint_asked) = true;
      continue;
    }
    broken = AppendInSavepoint(*job, batch, *config_.judge, tx);
  }

  v1::Checkpoint made;
  if (broken.ok()) {
    absl::StatusOr<std::optional<v1::Checkpoint>> cp =
        batch.SignIfDue(*config_.signer, committed_.head, config_.checkpoint_every,
                        checkpoint_asked, tail_bound, committed_.last_checkpoint);
    broken = cp.status();
    if (cp.ok() && *cp) {
      made = **std::move(cp);
      broken = tx.InsertCheckpoint(made.tree_size(), CanonicalBytes(made));
    }
  }
  const absl::Time commit_start = absl::Now();
  if (broken.ok()) broken = tx.Commit();
  out.commit_took = absl::Now() - commit_start;
  if (!broken.ok()) {
    // Nothing of this batch is acknowledged; memory holds only what is
    // committed (the backend reads back whatever the storage kept).
    FailAll(jobs, broken);
    for (AppendJob* job : jobs) job->fold.reset();
    return out;
  }

  // The commit point.
  committed_.head = batch.head;
  committed_.range = batch.range;
  if (made.tree_size() > 0) committed_.last_checkpoint = made;
  batch.HandFoldsTo(*config_.judge);
  out.revisions = std::move(batch.revisions);
  config_.watch->Publish(committed_.head, CommittedEntries(jobs));
  if (made.tree_size() > 0) config_.watch->feed().PublishCheckpoint(made.tree_size());
  AnswerCheckpoints(jobs, committed_.last_checkpoint);
  return out;
}

}  // namespace arbiter::ledger
