#include "ledger/internal/append_job.h"

#include <utility>

#include "absl/time/clock.h"
#include "ledger/checkpoint.h"
#include "ledger/internal/append_checks.h"
#include "ledger/stream.h"
#include "proto/canonical/canonical_bytes.h"

namespace arbiter::ledger {

absl::Status AppendJob::Prepare() {
  received_at = absl::Now();
  if (tournament()) {
    if (absl::Status s = ValidateTournamentAppend(game_id, tournament_events); !s.ok()) return s;
    for (const v1::TournamentEvent& e : tournament_events) {
      canonical.push_back(CanonicalBytes(e));
      leaves.push_back(EntryLeafHash(game_id, canonical.back()));
    }
    return absl::OkStatus();
  }
  if (absl::Status s = ValidateAppend(game_id, events); !s.ok()) return s;
  canonical.reserve(events.size());
  leaves.reserve(events.size());
  for (const v1::Event& e : events) {
    canonical.push_back(CanonicalBytes(e));
    leaves.push_back(LeafHash(canonical.back()));
  }
  return absl::OkStatus();
}

void AppendJob::Complete() {
  if (preview) {
    PreviewCallback cb = std::move(preview);
    absl::StatusOr<AppendPreview> answer =
        status.ok() ? absl::StatusOr<AppendPreview>(
                          AppendPreview{std::move(entries), recorded, std::move(result)})
                    : status;
    delete this;
    return cb(std::move(answer));
  }
  if (committed) {
    CommitCallback cb = std::move(committed);
    absl::StatusOr<Committed> answer =
        status.ok() ? absl::StatusOr<Committed>(Committed{std::move(entries), std::move(fold)})
                    : status;
    delete this;
    return cb(std::move(answer));
  }
  done.Notify();
}

bool AppendQueue::Enqueue(AppendJob* job) {
  absl::MutexLock lock(&mu_);
  if (closed_) return false;
  queue_.push_back(job);
  return true;
}

absl::Status AppendQueue::Submit(AppendJob* job) {
  if (leader_ && leader_(job)) return job->status;
  if (!Enqueue(job)) return absl::UnavailableError("the ledger is closing");
  job->done.WaitForNotification();
  return job->status;
}

absl::StatusOr<std::vector<v1::LedgerEntry>> AppendQueue::Run(AppendJob& job) {
  if (absl::Status s = job.Prepare(); !s.ok()) return s;
  if (absl::Status s = Submit(&job); !s.ok()) return s;
  return std::move(job.entries);
}

void AppendQueue::Launch(AppendJob* job) {
  if (absl::Status s = job->Prepare(); !s.ok()) {
    job->status = s;
    return job->Complete();
  }
  if (!Enqueue(job)) {
    job->status = absl::UnavailableError("the ledger is closing");
    job->Complete();
  }
}

absl::StatusOr<v1::Checkpoint> AppendQueue::Checkpoint() {
  AppendJob job;
  job.checkpoint = true;
  if (absl::Status s = Submit(&job); !s.ok()) return s;
  return std::move(job.made);
}

void AppendQueue::WaitLocked(absl::Time deadline, bool or_woken) {
  auto ready = [this, or_woken]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return closed_ || (or_woken && woken_) || !queue_.empty();
  };
  if (deadline == absl::InfiniteFuture()) {
    mu_.Await(absl::Condition(&ready));
  } else if (deadline > absl::Now()) {
    mu_.AwaitWithDeadline(absl::Condition(&ready), deadline);
  }
}

size_t AppendQueue::MoveLocked(std::vector<AppendJob*>& batch, size_t max) {
  size_t moved = 0;
  while (!queue_.empty() && batch.size() < max) {
    batch.push_back(queue_.front());
    queue_.pop_front();
    ++moved;
  }
  return moved;
}

size_t AppendQueue::Take(std::vector<AppendJob*>& batch, size_t max, absl::Time deadline) {
  absl::MutexLock lock(&mu_);
  WaitLocked(deadline, /*or_woken=*/false);
  return MoveLocked(batch, max);
}

bool AppendQueue::Next(std::vector<AppendJob*>& batch, size_t max, absl::Time tail_due,
                       bool sign_at_close, AppendJob& sign_tail, bool wait) {
  {
    absl::MutexLock lock(&mu_);
    if (wait) WaitLocked(tail_due, /*or_woken=*/true);
    woken_ = false;  // the writer has looked again
    if (MoveLocked(batch, max) > 0) return true;
  }
  sign_tail.checkpoint = true;
  sign_tail.tail_bound = true;
  if (closed()) {
    if (!sign_at_close) return false;
    batch.push_back(&sign_tail);
  } else if (absl::Now() >= tail_due) {
    batch.push_back(&sign_tail);
  }
  return true;
}

void AppendQueue::AwaitWork(absl::Time deadline) {
  absl::MutexLock lock(&mu_);
  WaitLocked(deadline, /*or_woken=*/true);
}

void AppendQueue::Wake() {
  absl::MutexLock lock(&mu_);
  woken_ = true;
}

void AppendQueue::Close() {
  absl::MutexLock lock(&mu_);
  closed_ = true;
}

bool AppendQueue::closed() const {
  absl::MutexLock lock(&mu_);
  return closed_;
}

absl::StatusOr<std::optional<v1::Checkpoint>> AppendBatch::SignIfDue(
    const Signer& signer, uint64_t committed_head, uint64_t every, bool asked, bool tail_bound,
    const v1::Checkpoint& latest) const {
  const bool periodic = every > 0 && head / every > committed_head / every;
  if (!(asked || !ended_games.empty() || periodic || tail_bound)) return std::nullopt;
  if (head == 0 || head == latest.tree_size()) return std::nullopt;
  const v1::Checkpoint::Reason reason = asked                  ? v1::Checkpoint::ON_DEMAND
                                        : !ended_games.empty() ? v1::Checkpoint::GAME_END
                                        : periodic             ? v1::Checkpoint::PERIODIC
                                                               : v1::Checkpoint::TAIL_BOUND;
  absl::StatusOr<v1::Checkpoint> cp =
      SignCheckpoint(signer, head, range.Root(), absl::Now(), reason, ended_games);
  if (!cp.ok()) return cp.status();
  return *std::move(cp);
}

void AppendBatch::HandFoldsTo(Judge& judge) {
  if (folds.empty()) return;
  std::vector<CommittedFold> committed;
  committed.reserve(folds.size());
  for (auto& [game, fold] : folds) {
    committed.push_back(CommittedFold{game, revisions[game], std::move(fold)});
  }
  judge.OnCommit(committed);
}

void AnswerCheckpoints(const std::vector<AppendJob*>& jobs, const v1::Checkpoint& latest) {
  for (AppendJob* job : jobs) {
    if (!job->checkpoint) continue;
    if (latest.tree_size() == 0) {
      job->status = absl::FailedPreconditionError("the log is empty: nothing to checkpoint");
    } else {
      job->made = latest;
    }
  }
}

}  // namespace arbiter::ledger
