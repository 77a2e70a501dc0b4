// The writer thread: batching, group commit and recovery (see writer.h).
#include "ledger/sqlite/writer.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "ledger/checkpoint.h"
#include "ledger/hash.h"
#include "ledger/sqlite/schema.h"
#include "ledger/sqlite/writer_internal.h"
#include "ledger/thread_name.h"

namespace arbiter::ledger {
namespace {

// WAL frames (pages) after which the writer checkpoints between batches;
// SQLite's default for its automatic checkpoint.
constexpr int kCheckpointPages = 1000;

// The longest a batch waits for stragglers, however slow the last commit.
constexpr absl::Duration kMaxLinger = absl::Milliseconds(2);

// A due time as Writer::due_ns_ holds it, and back (never: int64 max).
int64_t DueNanos(absl::Time t) {
  return t == absl::InfiniteFuture() ? std::numeric_limits<int64_t>::max() : absl::ToUnixNanos(t);
}
absl::Time DueTime(int64_t ns) {
  return ns == std::numeric_limits<int64_t>::max() ? absl::InfiniteFuture()
                                                   : absl::FromUnixNanos(ns);
}

}  // namespace

Writer::Writer(Config config)
    : config_(std::move(config)),
      loop_(BatchLoop::Config{config_.judge, config_.signer, config_.checkpoint_every,
                              config_.watch}),
      // No job reaches the queue before Start returns the writer.
      queue_([this](AppendJob* job) { return Lead(job); }) {}

absl::StatusOr<std::unique_ptr<Writer>> Writer::Start(Config config) {
  if (config.judge == nullptr) return absl::InvalidArgumentError("the ledger needs a judge");
  std::unique_ptr<Writer> w(new Writer(std::move(config)));
  w->checkpointer_ = std::make_unique<WalCheckpointer>(kCheckpointPages);
  if (absl::Status s = w->Recover(); !s.ok()) return s;
  w->config_.watch->Publish(w->loop_.committed().head);
  w->due_ns_.store(DueNanos(w->TailDue()), std::memory_order_relaxed);
  w->thread_ = std::thread([p = w.get()] {
    NameThisThread("writer");
    p->Run();
  });
  return w;
}

Writer::~Writer() {
  queue_.Close();
  if (thread_.joinable()) thread_.join();
}

absl::Status Writer::Recover() {
  revisions_.clear();
  tx_.reset();
  stmts_.reset();
  db_ = Db();
  healthy_ = false;
  absl::StatusOr<Db> db =
      Db::Open(config_.db_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, config_.vfs);
  if (!db.ok()) return db.status();
  db_ = *std::move(db);
  if (absl::Status s = ConfigureConnection(db_); !s.ok()) return s;
  if (absl::Status s = checkpointer_->Attach(db_.get()); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<Statements>> stmts = Statements::Prepare(db_);
  if (!stmts.ok()) return stmts.status();
  stmts_ = *std::move(stmts);

  // The Merkle edge and the head, from the committed leaves.
  absl::StatusOr<Stmt> q =
      Stmt::Prepare(db_, "SELECT position, leaf_hash FROM events ORDER BY position");
  if (!q.ok()) return q.status();
  CompactRange range;
  for (;;) {
    absl::StatusOr<bool> row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    Hash h;
    if (static_cast<uint64_t>(q->Int(0)) != range.size() + 1 || !HashFromBytes(q->Text(1), &h)) {
      return absl::DataLossError(absl::StrCat("the log is damaged at position ", range.size() + 1,
                                              "; run `arbiter verify`"));
    }
    range.Append(h);
  }
  absl::StatusOr<Stmt> c =
      Stmt::Prepare(db_, "SELECT checkpoint FROM checkpoints ORDER BY tree_size DESC LIMIT 1");
  if (!c.ok()) return c.status();
  absl::StatusOr<bool> row = c->Step();
  if (!row.ok()) return row.status();
  CommittedLog& committed = loop_.committed();
  committed.last_checkpoint.Clear();
  if (*row && !committed.last_checkpoint.ParseFromString(c->Text(0))) {
    return absl::DataLossError("the latest checkpoint is damaged; run `arbiter verify`");
  }
  committed.range = range;
  committed.head = range.size();
  // The reservation only saves each commit a disk write: a disk too full
  // for it (or failing) still takes the commits that fit, and a commit that
  // does not fit fails with its own error.
  checkpointer_->Reserve(db_.get()).IgnoreError();
  // An unsigned tail found at start (a crash before its checkpoint) is
  // signed within the bound from now.
  unsigned_since_ =
      committed.head > committed.last_checkpoint.tree_size() ? absl::Now() : absl::InfiniteFuture();
  healthy_ = true;
  return absl::OkStatus();
}

void Writer::Run() {
  for (;;) {
    // The due time the last batch left (read without batch_mu_, so the
    // thread takes it only when it has work).
    queue_.AwaitWork(DueTime(due_ns_.load(std::memory_order_acquire)));
    // The jobs are taken only once no caller runs a batch: until then they
    // join that batch instead, which takes what is queued as it goes.
    batch_mu_.Lock();
    const absl::Time due = TailDue();
    std::vector<AppendJob*> batch;
    // The writer's own checkpoint, when the unsigned tail comes due with
    // nothing queued, or at the close: a closing ledger signs its tail
    // first when bounded, so none is left for the next start.
    AppendJob sign_tail;
    if (!queue_.Next(batch, config_.max_batch, due, due != absl::InfiniteFuture() && healthy_,
                     sign_tail, /*wait=*/false)) {
      batch_mu_.Unlock();
      return;  // closed and drained; no caller's batch is running
    }
    if (batch.empty()) {
      batch_mu_.Unlock();
      continue;
    }
    RunAndAnswer(batch, /*on_thread=*/true);
  }
}

bool Writer::Lead(AppendJob* job) {
  if (!batch_mu_.TryLock()) return false;
  // Once closed, the thread may have finished: nothing more runs here.
  // Under load (the last batch answered more than one append) the thread
  // runs the batches: it hands their answers to the answerer and writes
  // the next meanwhile, where a leading caller would answer them itself,
  // after its own fdatasync. (Asynchronous appends never come here.)
  if (queue_.closed() || answered_ > 1) {
    batch_mu_.Unlock();
    return false;
  }
  std::vector<AppendJob*> batch = {job};
  RunAndAnswer(batch, /*on_thread=*/false);
  return true;
}

void Writer::RunAndAnswer(std::vector<AppendJob*>& batch, bool on_thread) {
  const absl::Time due_before = TailDue();
  // Appends that arrive while the batch is being written join it. Once
  // the queue runs dry and fewer appends than the last commit answered
  // have joined, the batch lingers for the stragglers, for at most half
  // of what the last COMMIT cost: waiting is worth it only while it is
  // cheaper than the commit the stragglers would otherwise need. A lone
  // writer is never kept waiting.
  Linger linger{answered_, absl::Now() + std::min(last_commit_ / 2, kMaxLinger)};
  last_commit_ = RunBatch(batch, linger);
  answered_ = 0;
  for (AppendJob* job : batch) answered_ += job->checkpoint ? 0 : 1;
  answered_ = std::max<size_t>(answered_, 1);
  const absl::Time due = TailDue();
  due_ns_.store(DueNanos(due), std::memory_order_release);
  // The thread waits for the due time it last read: tell it it moved.
  if (!on_thread && due != due_before) queue_.Wake();
  // Under load the thread's batches are answered on the answerer's thread,
  // while this one goes on to the next batch (a lone append is answered
  // here: there is no next batch to overlap, and the hand-off would only
  // delay it); all but the thread's own request to sign the tail (Next's
  // `sign_tail`), which lives on its stack and which no one waits for:
  // that is answered here, now.
  const bool hand_over = on_thread && answered_ > 1;
  std::vector<AppendJob*> handed;
  if (hand_over) {
    handed.reserve(batch.size());
    for (AppendJob* job : batch) {
      if (job->tail_bound) {
        job->Complete();
      } else {
        handed.push_back(job);
      }
    }
    batch.clear();
  }
  if (healthy_ && checkpointer_->Due()) {
    // Now and then the log is long: answered first, then copied back
    // before any other batch begins (under load no gap between batches
    // would ever come for it).
    answerer_.Hand(std::move(handed));
    for (AppendJob* job : batch) job->Complete();
    checkpointer_->MaybeRun(db_.get());
    batch_mu_.Unlock();
    return;
  }
  batch_mu_.Unlock();
  // Answered once the batch is released, so that a caller its answer wakes
  // finds no batch running and runs its next append's itself. The thread's
  // writer outlives its thread; a caller's may not: once released, a
  // closing ledger may be destroyed, so nothing of it is touched from here
  // on.
  if (hand_over) return answerer_.Hand(std::move(handed));
  for (AppendJob* job : batch) job->Complete();
}

absl::Time Writer::TailDue() const {
  if (config_.sign_within <= absl::ZeroDuration() || unsigned_since_ == absl::InfiniteFuture()) {
    return absl::InfiniteFuture();
  }
  return unsigned_since_ + config_.sign_within;
}

bool Writer::TakeMore(std::vector<AppendJob*>& batch, const Linger& linger) {
  const absl::Time wait_until =
      batch.size() < linger.until_jobs ? linger.deadline : absl::InfinitePast();
  return queue_.Take(batch, config_.max_batch, wait_until) > 0;
}

absl::Duration Writer::RunBatch(std::vector<AppendJob*>& jobs, const Linger& linger) {
  if (!healthy_) {
    if (absl::Status s = Recover(); !s.ok()) {
      BatchLoop::FailAll(jobs, s);
      return absl::ZeroDuration();
    }
  }
  absl::StatusOr<Transaction> tx = Transaction::Write(db_);
  if (!tx.ok()) {
    healthy_ = false;
    BatchLoop::FailAll(jobs, tx.status());
    return absl::ZeroDuration();
  }
  tx_.emplace(*std::move(tx));
  BatchLoop::Outcome out =
      loop_.Run(jobs, *this, absl::Now() >= TailDue(),
                [&](std::vector<AppendJob*>& batch) { return TakeMore(batch, linger); });
  tx_.reset();  // rolls back what a failed batch left
  if (!out.status.ok()) {
    // Whether the storage kept any of it is for Recover() to read back.
    healthy_ = false;
    // A tail that could not be signed is tried again a bound later, not in
    // a loop against a failing disk.
    if (unsigned_since_ != absl::InfiniteFuture()) unsigned_since_ = absl::Now();
    return out.commit_took;
  }
  for (auto& [game, rev] : out.revisions) revisions_[game] = rev;
  const CommittedLog& committed = loop_.committed();
  if (committed.head == committed.last_checkpoint.tree_size()) {
    unsigned_since_ = absl::InfiniteFuture();
  } else if (unsigned_since_ == absl::InfiniteFuture()) {
    unsigned_since_ = absl::Now();  // the tail's first commit
  }
  return out.commit_took;
}

}  // namespace arbiter::ledger
