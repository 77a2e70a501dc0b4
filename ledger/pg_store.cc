#include "ledger/pg_store.h"

#include <deque>
#include <fstream>
#include <thread>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "ledger/append_checks.h"
#include "ledger/checkpoint.h"
#include "ledger/hash.h"
#include "ledger/merkle.h"
#include "ledger/pg.h"
#include "ledger/pg_log_reader.h"
#include "ledger/pg_snapshot.h"
#include "proto/canonical/canonical_bytes.h"

namespace arbiter::ledger {
namespace {

// The sequencer's lease: the advisory lock every batch's transaction takes
// first ("arbiter\x02").
constexpr int64_t kSequencerLock = 0x6172626974657202;

// How often a server looks for what other servers committed, to wake its
// subscriptions.
constexpr absl::Duration kHeadPoll = absl::Milliseconds(100);

struct Job {
  bool checkpoint = false;
  std::string game_id;
  ExpectedRevision expected = ExpectedRevision::Any();
  std::vector<v1::Event> events;
  std::vector<std::string> canonical;
  std::vector<Hash> leaves;
  absl::Status status;
  std::vector<v1::LedgerEntry> entries;
  v1::Checkpoint made;
  AppendCallback callback;
  absl::Notification done;

  // As Writer::Job::Complete: nothing touches a synchronous job once its
  // caller is notified.
  void Complete() {
    if (!callback) return done.Notify();
    AppendCallback cb = std::move(callback);
    absl::StatusOr<std::vector<v1::LedgerEntry>> result =
        status.ok() ? absl::StatusOr<std::vector<v1::LedgerEntry>>(std::move(entries)) : status;
    delete this;
    cb(std::move(result));
  }
};

// What a batch has added on top of the committed state.
struct Batch {
  uint64_t head = 0;
  CompactRange range;
  std::unordered_map<std::string, uint64_t> revisions;
  std::vector<std::string> ended_games;
  std::unordered_map<std::string, std::unique_ptr<GameJudge>> folds;
};

absl::Status Prepare(Job& job) {
  if (absl::Status s = ValidateAppend(job.game_id, job.events); !s.ok()) return s;
  for (const v1::Event& e : job.events) {
    job.canonical.push_back(CanonicalBytes(e));
    job.leaves.push_back(LeafHash(job.canonical.back()));
  }
  return absl::OkStatus();
}

class PgStore final : public LedgerStore {
 public:
  PgStore(LedgerOptions options, Signer signer)
      : options_(std::move(options)), signer_(std::move(signer)) {}

  ~PgStore() override {
    {
      absl::MutexLock lock(&mu_);
      stopping_ = true;
    }
    if (thread_.joinable()) thread_.join();
    if (poller_.joinable()) poller_.join();
    watch_->Close();
  }

  absl::Status Start() {
    absl::StatusOr<PgConn> conn = PgConn::Connect(options_.dir);
    if (!conn.ok()) return conn.status();
    conn_ = *std::move(conn);
    thread_ = std::thread([this] { Run(); });
    poller_ = std::thread([this] { PollHead(); });
    return absl::OkStatus();
  }

  absl::StatusOr<std::vector<v1::LedgerEntry>> Append(const std::string& game_id,
                                                      ExpectedRevision expected,
                                                      std::vector<v1::Event> events) override {
    Job job;
    job.game_id = game_id;
    job.expected = expected;
    job.events = std::move(events);
    if (absl::Status s = Prepare(job); !s.ok()) return s;
    if (absl::Status s = Submit(&job); !s.ok()) return s;
    return std::move(job.entries);
  }

  void AppendAsync(const std::string& game_id, ExpectedRevision expected,
                   std::vector<v1::Event> events, AppendCallback done) override {
    auto* job = new Job;
    job->game_id = game_id;
    job->expected = expected;
    job->events = std::move(events);
    job->callback = std::move(done);
    if (absl::Status s = Prepare(*job); !s.ok()) {
      job->status = s;
      return job->Complete();
    }
    if (!Enqueue(job)) {
      job->status = absl::UnavailableError("the ledger is closing");
      job->Complete();
    }
  }

  absl::StatusOr<v1::Checkpoint> Checkpoint() override {
    Job job;
    job.checkpoint = true;
    if (absl::Status s = Submit(&job); !s.ok()) return s;
    return std::move(job.made);
  }

  absl::StatusOr<std::unique_ptr<LogSource>> OpenReader() override {
    absl::StatusOr<std::unique_ptr<PgLogReader>> r = PgLogReader::Open(options_.dir);
    if (!r.ok()) return r.status();
    return std::unique_ptr<LogSource>(*std::move(r));
  }

  absl::StatusOr<AuditReport> Audit(const AuditOptions& options) override {
    return AuditPostgres(options_.dir, options);
  }

  std::shared_ptr<CommitWatch> watch() override { return watch_; }
  bool shared() const override { return true; }
  const Signer& signer() const override { return signer_; }

 private:
  bool Enqueue(Job* job) {
    absl::MutexLock lock(&mu_);
    if (stopping_) return false;
    queue_.push_back(job);
    return true;
  }

  absl::Status Submit(Job* job) {
    if (!Enqueue(job)) return absl::UnavailableError("the ledger is closing");
    job->done.WaitForNotification();
    return job->status;
  }

  void Run() {
    for (;;) {
      std::vector<Job*> jobs;
      {
        absl::MutexLock lock(&mu_);
        auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
          return stopping_ || !queue_.empty();
        };
        mu_.Await(absl::Condition(&ready));
        if (queue_.empty()) return;  // stopping, and drained
        while (!queue_.empty() && jobs.size() < options_.max_batch) {
          jobs.push_back(queue_.front());
          queue_.pop_front();
        }
      }
      RunBatch(jobs);
      for (Job* job : jobs) job->Complete();
    }
  }

  void PollHead() {
    std::unique_ptr<PgLogReader> reader;
    for (;;) {
      {
        absl::MutexLock lock(&mu_);
        auto stop = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_; };
        if (mu_.AwaitWithTimeout(absl::Condition(&stop), kHeadPoll)) return;
      }
      if (reader == nullptr) {
        absl::StatusOr<std::unique_ptr<PgLogReader>> r = PgLogReader::Open(options_.dir);
        if (!r.ok()) continue;
        reader = *std::move(r);
      }
      if (absl::StatusOr<uint64_t> head = reader->Head(); head.ok()) watch_->Publish(*head);
    }
  }

  // Extends the committed Merkle edge by what other servers committed, and
  // reads the latest checkpoint; under the lease, so nothing is in flight.
  absl::Status CatchUp() {
    absl::StatusOr<PgResult> r =
        conn_.Exec("SELECT position, leaf_hash FROM events WHERE position > $1 ORDER BY position",
                   PgParams().Int(static_cast<int64_t>(range_.size())));
    if (!r.ok()) return r.status();
    for (int i = 0; i < r->rows(); ++i) {
      Hash h;
      if (static_cast<uint64_t>(r->Int(i, 0)) != range_.size() + 1 ||
          !HashFromBytes(r->Bytes(i, 1), &h)) {
        return absl::DataLossError(absl::StrCat("the log is damaged at position ",
                                                range_.size() + 1, "; run `arbiter verify`"));
      }
      range_.Append(h);
    }
    absl::StatusOr<PgResult> c =
        conn_.Exec("SELECT checkpoint FROM checkpoints ORDER BY tree_size DESC LIMIT 1");
    if (!c.ok()) return c.status();
    last_checkpoint_.Clear();
    if (c->rows() == 1 && !last_checkpoint_.ParseFromString(c->Bytes(0, 0))) {
      return absl::DataLossError("the latest checkpoint is damaged; run `arbiter verify`");
    }
    return absl::OkStatus();
  }

  void RunBatch(std::vector<Job*>& jobs) {
    auto fail_all = [&](const absl::Status& s) {
      for (Job* job : jobs) {
        if (job->status.ok()) job->status = s;
        job->entries.clear();
      }
    };
    if (!conn_.ok()) {
      absl::StatusOr<PgConn> conn = PgConn::Connect(options_.dir);
      if (!conn.ok()) return fail_all(conn.status());
      conn_ = *std::move(conn);
    }
    absl::StatusOr<PgTransaction> tx = PgTransaction::Begin(conn_);
    if (!tx.ok()) return fail_all(tx.status());
    absl::Status broken =
        conn_.Exec("SELECT pg_advisory_xact_lock($1)", PgParams().Int(kSequencerLock)).status();
    if (broken.ok()) broken = CatchUp();
    if (!broken.ok()) return fail_all(broken);
    const uint64_t committed_head = range_.size();
    Batch batch;
    batch.head = committed_head;
    batch.range = range_;
    bool checkpoint_asked = false;
    for (Job* job : jobs) {
      if (job->checkpoint) {
        checkpoint_asked = true;
        continue;
      }
      if (broken = conn_.Run("SAVEPOINT append"); !broken.ok()) break;
      absl::StatusOr<std::vector<v1::LedgerEntry>> entries = ProcessAppend(*job, batch);
      if (entries.ok()) {
        job->entries = *std::move(entries);
        if (broken = conn_.Run("RELEASE SAVEPOINT append"); !broken.ok()) break;
      } else {
        job->status = entries.status();
        if (broken = conn_.Run("ROLLBACK TO SAVEPOINT append"); !broken.ok()) break;
      }
    }
    const uint64_t every = options_.checkpoint_every;
    const bool periodic = every > 0 && batch.head / every > committed_head / every;
    const bool due = checkpoint_asked || !batch.ended_games.empty() || periodic;
    v1::Checkpoint made;
    if (broken.ok() && due && batch.head > 0 && batch.head != last_checkpoint_.tree_size()) {
      v1::Checkpoint::Reason reason = checkpoint_asked             ? v1::Checkpoint::ON_DEMAND
                                      : !batch.ended_games.empty() ? v1::Checkpoint::GAME_END
                                                                   : v1::Checkpoint::PERIODIC;
      absl::StatusOr<v1::Checkpoint> cp = SignCheckpoint(signer_, batch.head, batch.range.Root(),
                                                         absl::Now(), reason, batch.ended_games);
      broken = cp.status();
      if (cp.ok()) {
        made = *std::move(cp);
        broken = conn_
                     .Exec("INSERT INTO checkpoints(tree_size, checkpoint) VALUES($1, $2)",
                           PgParams()
                               .Int(static_cast<int64_t>(made.tree_size()))
                               .Bytes(CanonicalBytes(made)))
                     .status();
      }
    }
    if (broken.ok()) broken = tx->Commit();
    if (!broken.ok()) {
      // Nothing of this batch is acknowledged. If the COMMIT did land (the
      // connection died after it), the next batch reads it back under the
      // lease, and a retry with the same keys gets the recorded entries.
      return fail_all(broken);
    }
    range_ = batch.range;
    if (made.tree_size() > 0) last_checkpoint_ = made;
    if (!batch.folds.empty()) {
      std::vector<CommittedFold> folds;
      for (auto& [game, fold] : batch.folds) {
        folds.push_back(CommittedFold{game, batch.revisions[game], std::move(fold)});
      }
      options_.judge->OnCommit(folds);
    }
    watch_->Publish(range_.size());
    for (Job* job : jobs) {
      if (!job->checkpoint) continue;
      if (last_checkpoint_.tree_size() == 0) {
        job->status = absl::FailedPreconditionError("the log is empty: nothing to checkpoint");
      } else {
        job->made = last_checkpoint_;
      }
    }
  }

  absl::StatusOr<std::vector<v1::LedgerEntry>> ReadRecorded(
      const std::vector<uint64_t>& positions) {
    std::vector<v1::LedgerEntry> out;
    for (uint64_t pos : positions) {
      absl::StatusOr<PgResult> q =
          conn_.Exec("SELECT game_id, revision, event FROM events WHERE position = $1",
                     PgParams().Int(static_cast<int64_t>(pos)));
      if (!q.ok()) return q.status();
      if (q->rows() != 1) return absl::InternalError(absl::StrCat("position ", pos, " vanished"));
      v1::LedgerEntry& e = out.emplace_back();
      e.set_position(pos);
      e.set_game_id(q->Bytes(0, 0));
      e.set_revision(q->Int(0, 1));
      e.set_event(q->Bytes(0, 2));
      absl::StatusOr<PgResult> r =
          conn_.Exec("SELECT ruling FROM rulings WHERE position = $1 ORDER BY seq",
                     PgParams().Int(static_cast<int64_t>(pos)));
      if (!r.ok()) return r.status();
      for (int i = 0; i < r->rows(); ++i) {
        if (!e.add_rulings()->ParseFromString(r->Bytes(i, 0))) {
          return absl::DataLossError(absl::StrCat("a ruling at position ", pos, " does not parse"));
        }
      }
    }
    return out;
  }

  absl::StatusOr<std::unique_ptr<GameJudge>> Replay(const std::string& game_id) {
    absl::StatusOr<PgResult> p =
        conn_.Exec("SELECT rules_pin FROM games WHERE game_id = $1", PgParams().Text(game_id));
    if (!p.ok()) return p.status();
    const std::optional<std::string> pin =
        p->rows() == 1 ? std::optional<std::string>(p->Bytes(0, 0)) : std::nullopt;
    absl::StatusOr<PgResult> q = conn_.Exec(
        "SELECT event FROM events WHERE game_id = $1 ORDER BY revision", PgParams().Text(game_id));
    if (!q.ok()) return q.status();
    int row = 0;
    return ReplayStream(*options_.judge, game_id, pin,
                        [&]() -> absl::StatusOr<std::optional<std::string>> {
                          if (row == q->rows()) return std::nullopt;
                          return q->Bytes(row++, 0);
                        });
  }

  absl::StatusOr<std::vector<v1::LedgerEntry>> ProcessAppend(Job& job, Batch& batch) {
    // Idempotency: a key, once recorded, forever names that event.
    std::vector<uint64_t> recorded;
    size_t keyed = 0;
    for (size_t i = 0; i < job.events.size(); ++i) {
      const std::string& key = job.events[i].idempotency_key();
      if (key.empty()) continue;
      ++keyed;
      absl::StatusOr<PgResult> q = conn_.Exec(
          "SELECT position, game_id, event FROM events WHERE game_id = $1 AND "
          "idempotency_key = $2",
          PgParams().Text(job.game_id).Text(key));
      if (!q.ok()) return q.status();
      if (q->rows() == 0) continue;
      if (q->Bytes(0, 2) != job.canonical[i]) {
        return absl::AlreadyExistsError(absl::StrCat("idempotency key '", key,
                                                     "' already names the event at position ",
                                                     q->Int(0, 0), ", with other content"));
      }
      recorded.push_back(q->Int(0, 0));
    }
    if (!recorded.empty()) {
      if (recorded.size() == job.events.size()) return ReadRecorded(recorded);
      return absl::InvalidArgumentError(
          absl::StrCat("the append mixes ", recorded.size(), " already recorded event(s) with ",
                       job.events.size() - recorded.size(), " new one(s); ", keyed, " carry keys"));
    }

    // The game's order: its stream head, locked until the COMMIT.
    uint64_t current = 0;
    if (auto it = batch.revisions.find(job.game_id); it != batch.revisions.end()) {
      current = it->second;
    } else {
      absl::StatusOr<PgResult> q =
          conn_.Exec("SELECT revision FROM streams WHERE game_id = $1 FOR UPDATE",
                     PgParams().Text(job.game_id));
      if (!q.ok()) return q.status();
      if (q->rows() == 1) current = q->Int(0, 0);
    }
    if (absl::Status s = CheckAgainstStream(job.game_id, job.events, current, job.expected);
        !s.ok()) {
      return s;
    }

    // The fold as of `current`: the batch's, the judge's own if it holds
    // that very revision (another server may have moved the game on), a new
    // one, or the stream replayed.
    absl::StatusOr<std::unique_ptr<GameJudge>> fold;
    if (auto it = batch.folds.find(job.game_id); it != batch.folds.end()) {
      fold = it->second->Clone();
    } else if (current == 0) {
      fold = options_.judge->Open(job.game_id, job.events[0].game_created());
    } else if (std::shared_ptr<const GameJudge> committed =
                   options_.judge->Committed(job.game_id, current)) {
      fold = committed->Clone();
    } else {
      fold = Replay(job.game_id);
    }
    if (!fold.ok()) return fold.status();
    GameJudge* judge = fold->get();

    std::vector<v1::LedgerEntry> out;
    bool game_over = false;
    for (size_t i = 0; i < job.events.size(); ++i) {
      absl::StatusOr<Verdict> verdict = judge->Apply(job.events[i]);
      if (!verdict.ok()) return verdict.status();
      const uint64_t position = batch.head + 1 + i;
      const uint64_t revision = current + 1 + i;
      if (revision == 1) {
        absl::Status s = conn_
                             .Exec(
                                 "INSERT INTO games(game_id, first_position, rules_pin) "
                                 "VALUES($1, $2, $3)",
                                 PgParams()
                                     .Text(job.game_id)
                                     .Int(static_cast<int64_t>(position))
                                     .Text(judge->RulesPin()))
                             .status();
        if (!s.ok()) return s;
      }
      PgParams row;
      row.Int(static_cast<int64_t>(position)).Text(job.game_id).Int(static_cast<int64_t>(revision));
      const std::string& key = job.events[i].idempotency_key();
      if (key.empty()) {
        row.Null();
      } else {
        row.Text(key);
      }
      row.Bytes(job.canonical[i]).Bytes(AsBytes(job.leaves[i]));
      absl::Status s = conn_
                           .Exec(
                               "INSERT INTO events(position, game_id, revision, "
                               "idempotency_key, event, leaf_hash) "
                               "VALUES($1, $2, $3, $4, $5, $6)",
                               row)
                           .status();
      if (!s.ok()) return s;
      v1::LedgerEntry& entry = out.emplace_back();
      for (size_t k = 0; k < verdict->rulings.size(); ++k) {
        s = conn_
                .Exec("INSERT INTO rulings(position, seq, ruling) VALUES($1, $2, $3)",
                      PgParams()
                          .Int(static_cast<int64_t>(position))
                          .Int(static_cast<int64_t>(k))
                          .Bytes(CanonicalBytes(verdict->rulings[k])))
                .status();
        if (!s.ok()) return s;
        *entry.add_rulings() = std::move(verdict->rulings[k]);
      }
      entry.set_position(position);
      entry.set_game_id(job.game_id);
      entry.set_revision(revision);
      entry.set_event(job.canonical[i]);
      game_over = game_over || verdict->game_over;
    }
    const uint64_t revision = current + job.events.size();
    absl::Status s = conn_
                         .Exec(
                             "INSERT INTO streams(game_id, revision) VALUES($1, $2) "
                             "ON CONFLICT (game_id) DO UPDATE SET revision = EXCLUDED.revision",
                             PgParams().Text(job.game_id).Int(static_cast<int64_t>(revision)))
                         .status();
    if (!s.ok()) return s;
    batch.head += job.events.size();
    for (const Hash& leaf : job.leaves) batch.range.Append(leaf);
    if (game_over) batch.ended_games.push_back(job.game_id);
    batch.revisions[job.game_id] = revision;
    batch.folds[job.game_id] = *std::move(fold);
    return out;
  }

  const LedgerOptions options_;
  const Signer signer_;
  std::shared_ptr<CommitWatch> watch_ = std::make_shared<CommitWatch>(0);

  // Owned by the writer thread.
  PgConn conn_;
  CompactRange range_;              // the committed Merkle edge
  v1::Checkpoint last_checkpoint_;  // tree_size 0: none yet

  absl::Mutex mu_;
  std::deque<Job*> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
  std::thread poller_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<LedgerStore>> OpenPgStore(LedgerOptions options) {
  if (options.key_dir.empty()) {
    return absl::InvalidArgumentError(
        "a PostgreSQL ledger needs the directory of its signing key (key_dir)");
  }
  options.max_batch = std::max<size_t>(1, options.max_batch);
  absl::StatusOr<Signer> signer = LoadSigningKey(options.key_dir);
  if (!signer.ok()) return signer.status();
  absl::StatusOr<PgConn> conn = PgConn::Connect(options.dir);
  if (!conn.ok()) return conn.status();
  if (absl::Status s = PreparePgSchema(*conn); !s.ok()) return s;
  // The key is pinned in the database by the first server; every other
  // server must sign with the same one.
  absl::StatusOr<PgResult> ins = conn->Exec(
      "INSERT INTO meta(key, value) VALUES('public_key', $1) ON CONFLICT (key) DO NOTHING",
      PgParams().Bytes(signer->public_key_der()));
  if (!ins.ok()) return ins.status();
  absl::StatusOr<PgResult> q = conn->Exec("SELECT value FROM meta WHERE key = 'public_key'");
  if (!q.ok()) return q.status();
  if (q->rows() != 1 || q->Bytes(0, 0) != signer->public_key_der()) {
    return absl::FailedPreconditionError(
        absl::StrCat(options.key_dir,
                     "/ledger.key is not the key this ledger was made with; refusing to sign "
                     "with it"));
  }
  auto store = std::make_unique<PgStore>(std::move(options), *std::move(signer));
  if (absl::Status s = store->Start(); !s.ok()) return s;
  return std::unique_ptr<LedgerStore>(std::move(store));
}

}  // namespace arbiter::ledger
