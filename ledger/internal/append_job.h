// An append (or a request for a checkpoint) on its way through a store's
// writer thread, the queue it waits in, and what a batch of them adds on top
// of the committed state (internal to the ledger). The SQLite writer
// (sqlite/writer.h) and the PostgreSQL one (postgres/store.cc) share all of it; what
// they read and write for an append is append_rows.h.
#ifndef ARBITER_LEDGER_INTERNAL_APPEND_JOB_H_
#define ARBITER_LEDGER_INTERNAL_APPEND_JOB_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/ledger.pb.h"
#include "arbiter/v1/tournament.pb.h"
#include "ledger/expected_revision.h"
#include "ledger/hash.h"
#include "ledger/internal/append_callback.h"
#include "ledger/judge.h"
#include "ledger/merkle.h"
#include "ledger/signer.h"
#include "ledger/stream.h"

namespace arbiter::ledger {

struct AppendJob {
  bool checkpoint = false;  // a checkpoint, not an append
  bool tail_bound = false;  // the writer's own: the unsigned tail is due
  std::string game_id;
  ExpectedRevision expected = ExpectedRevision::Any();
  std::vector<v1::Event> events;
  // A tournament's append (AppendRequest::Stream::kTournament): `game_id` is its
  // stream ("tournaments/{id}", stream.h), `events` is empty and these are
  // its events. No judge sees them.
  std::vector<v1::TournamentEvent> tournament_events;
  // A tournament's append: the streams it was derived from, which must stand
  // at these revisions (AppendRequest::derived_from).
  std::vector<StreamAt> derived_from;
  // Set by a venue's sync (AppendRequest::venue_key_der):
  // the venue's public key, whose claim on the stream is written with its
  // first events.
  std::string venue_key_der;
  // A venue's synced events (AppendRequest::synced): judged by
  // GameJudge::Apply; a client's by ApplyNew.
  bool synced = false;
  // A dry run (AppendRequest::preview): judged and written as any
  // append, then its savepoint rolled back; the batch is left as it was.
  bool dry_run = false;
  // Worked out by the caller's thread before the job is queued (Prepare),
  // so that the writer thread, which every append waits on, only writes:
  // the canonical bytes of each event and their Merkle leaf hashes.
  std::vector<std::string> canonical;
  std::vector<Hash> leaves;
  // When the ledger received the append (Prepare): each of its events'
  // arrival (log_source.h), what the public broadcast's delay counts from.
  absl::Time received_at;

  absl::Status status;
  std::vector<v1::LedgerEntry> entries;
  v1::Checkpoint made;
  // A dry run's: whether it found every event recorded, and the game's
  // result after it.
  bool recorded = false;
  std::optional<v1::Result> result;

  // Set for Ledger::Append: answered with the fold too (Committed); the job
  // is then on the heap and owned by the writer (as it is when `preview` is
  // set instead). Neither set: a blocking caller waits on `done`.
  CommitCallback committed;
  // The game's fold after this append, set when it was judged and written
  // (not for a retry or a dry run); handed to `committed` after the COMMIT.
  std::shared_ptr<const GameJudge> fold;
  // Set for a preview: answered with what the append would record.
  PreviewCallback preview;
  absl::Notification done;

  // Validates the append (ValidateAppend, or ValidateTournamentAppend for
  // a tournament's: INVALID_ARGUMENT) and computes its canonical bytes and
  // leaf hashes (stream.h: a tournament's are domain-separated).
  absl::Status Prepare();
  bool tournament() const { return IsTournamentStream(game_id); }

  // Answers the caller. A synchronous caller may destroy the job as soon as
  // it is notified, so nothing touches it afterwards.
  void Complete();
};

// Callers queue jobs; the store's one writer thread takes them in batches.
// A store may also let a synchronous caller (Append, Checkpoint) run a
// batch on its own thread when no batch is running (its Leader): the caller
// then waits for nobody, and neither thread hands the job to the other.
// An asynchronous append is always queued: its caller (a server's request
// reader) never waits out a commit (tests/bench/README.md, "The service: appends over gRPC").
class AppendQueue {
 public:
  // Tries to run `job` (and whatever queues meanwhile) as a batch on the
  // calling thread; true when it did and the job is complete, false when a
  // batch is running or the queue is closed (the job is then queued as usual).
  using Leader = std::function<bool(AppendJob* job)>;

  // A queue whose jobs only the writer thread runs.
  AppendQueue() = default;
  // A queue that first offers a synchronous caller's job to `leader`.
  explicit AppendQueue(Leader leader) : leader_(std::move(leader)) {}
  AppendQueue(const AppendQueue&) = delete;
  AppendQueue& operator=(const AppendQueue&) = delete;

  // Prepares `job` (a game's or a tournament's append, filled by the
  // caller) and waits for it: as Ledger::AppendAndWait (ledger.h);
  // UNAVAILABLE once the queue is closed.
  absl::StatusOr<std::vector<v1::LedgerEntry>> Run(AppendJob& job);
  // As Ledger::Checkpoint; UNAVAILABLE once the queue is closed.
  absl::StatusOr<v1::Checkpoint> Checkpoint();
  // Prepares a heap job and queues it, or answers it with why not; owns it
  // until it is answered (Complete): Ledger::Append.
  void Launch(AppendJob* job);

  // For a running batch: waits until a job is queued, the queue is closed
  // or `deadline` passes (InfinitePast: no wait), then moves queued jobs
  // into `batch` until it holds `max`. Returns how many it moved.
  size_t Take(std::vector<AppendJob*>& batch, size_t max, absl::Time deadline);
  // The writer's next batch: queued jobs (as Take, waiting until
  // `tail_due` unless `wait` is false), else `sign_tail`, made the writer's
  // own request to sign the unsigned tail, once `tail_due` has passed, or
  // once the queue is closed and drained if `sign_at_close`. Leaves `batch`
  // empty when woken early or when nothing is queued and `wait` is false;
  // false when the queue is closed and drained and nothing is to be signed.
  bool Next(std::vector<AppendJob*>& batch, size_t max, absl::Time tail_due, bool sign_at_close,
            AppendJob& sign_tail, bool wait = true);
  // Waits, taking nothing, until a job is queued, the queue is closed,
  // Wake() is called or `deadline` passes.
  void AwaitWork(absl::Time deadline);
  // Ends the writer thread's wait in Next or AwaitWork early (what it waits
  // for has changed); the next Next consumes it.
  void Wake();
  // Refuses jobs from now on; those already queued are still taken.
  void Close();
  bool closed() const;

 private:
  bool Enqueue(AppendJob* job);
  // Waits until a job is queued, the queue is closed, `deadline` passes or,
  // if `or_woken`, Wake() has been called.
  void WaitLocked(absl::Time deadline, bool or_woken) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  size_t MoveLocked(std::vector<AppendJob*>& batch, size_t max) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status Submit(AppendJob* job);

  const Leader leader_;
  mutable absl::Mutex mu_;
  std::deque<AppendJob*> queue_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool woken_ ABSL_GUARDED_BY(mu_) = false;
};

// What a batch has added so far, on top of the committed state.
struct AppendBatch {
  uint64_t head = 0;
  CompactRange range;
  std::unordered_map<std::string, uint64_t> revisions;
  std::vector<std::string> ended_games;
  // Each game's fold after the batch's appends so far: handed to the judge
  // as committed once the batch commits, dropped if it does not.
  std::unordered_map<std::string, std::shared_ptr<GameJudge>> folds;

  // The checkpoint the batch signs before its COMMIT, if one is due: asked
  // for, at a game's end, on crossing a multiple of `every` since
  // `committed_head`, or when the unsigned tail is due; none if the log is
  // empty or `latest` already covers the batch's head. The signer's error.
  absl::StatusOr<std::optional<v1::Checkpoint>> SignIfDue(const Signer& signer,
                                                          uint64_t committed_head, uint64_t every,
                                                          bool asked, bool tail_bound,
                                                          const v1::Checkpoint& latest) const;

  // After the COMMIT: hands the judge the folds it advanced (OnCommit).
  void HandFoldsTo(Judge& judge);
};

// After the COMMIT: answers the batch's checkpoint jobs with `latest`
// (FAILED_PRECONDITION when the log is still empty).
void AnswerCheckpoints(const std::vector<AppendJob*>& jobs, const v1::Checkpoint& latest);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_APPEND_JOB_H_
