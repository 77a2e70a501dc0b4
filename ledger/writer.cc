#include "ledger/writer.h"

#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "ledger/canonical.h"
#include "ledger/checkpoint.h"
#include "ledger/hash.h"
#include "ledger/schema.h"

namespace arbiter::ledger {

struct Writer::Job {
  bool checkpoint = false;
  std::string game_id;
  ExpectedRevision expected = ExpectedRevision::Any();
  std::vector<v1::Event> events;

  absl::Status status;
  std::vector<v1::LedgerEntry> entries;
  v1::Checkpoint made;
  absl::Notification done;
};

// What a batch has added so far, on top of the committed state.
struct Writer::Batch {
  uint64_t head = 0;
  CompactRange range;
  std::unordered_map<std::string, uint64_t> revisions;
  std::vector<std::string> ended_games;
};

struct Writer::Statements {
  Stmt find_key, max_revision, insert_event, insert_ruling, insert_game, insert_checkpoint,
      game_events, event_at, rulings_at, game_pin, savepoint, release, rollback_to;

  static absl::StatusOr<std::unique_ptr<Statements>> Prepare(const Db& db) {
    auto s = std::make_unique<Statements>();
    std::pair<Stmt*, const char*> all[] = {
        {&s->find_key, "SELECT position, game_id, event FROM events WHERE idempotency_key = ?"},
        {&s->max_revision, "SELECT IFNULL(MAX(revision), 0) FROM events WHERE game_id = ?"},
        {&s->insert_event,
         "INSERT INTO events(position, game_id, revision, idempotency_key, event, leaf_hash) "
         "VALUES(?, ?, ?, ?, ?, ?)"},
        {&s->insert_ruling, "INSERT INTO rulings(position, seq, ruling) VALUES(?, ?, ?)"},
        {&s->insert_game, "INSERT INTO games(game_id, first_position, rules_pin) VALUES(?, ?, ?)"},
        {&s->insert_checkpoint, "INSERT INTO checkpoints(tree_size, checkpoint) VALUES(?, ?)"},
        {&s->game_events, "SELECT event FROM events WHERE game_id = ? ORDER BY revision"},
        {&s->event_at, "SELECT game_id, revision, event FROM events WHERE position = ?"},
        {&s->rulings_at, "SELECT ruling FROM rulings WHERE position = ? ORDER BY seq"},
        {&s->game_pin, "SELECT rules_pin FROM games WHERE game_id = ?"},
        {&s->savepoint, "SAVEPOINT append"},
        {&s->release, "RELEASE append"},
        {&s->rollback_to, "ROLLBACK TO append"},
    };
    for (auto& [stmt, sql] : all) {
      absl::StatusOr<Stmt> p = Stmt::Prepare(db, sql);
      if (!p.ok()) return p.status();
      *stmt = *std::move(p);
    }
    return s;
  }
};

namespace {

// How long the writer waits for one more append to join a batch.
constexpr absl::Duration kLingerQuantum = absl::Microseconds(100);

// Resets a statement when it goes out of scope, so an early return never
// leaves a read cursor open inside the transaction.
class ResetOnExit {
 public:
  explicit ResetOnExit(Stmt& s) : s_(s) {}
  ~ResetOnExit() { s_.Reset(); }

 private:
  Stmt& s_;
};

absl::Status ValidateBatch(const std::string& game_id, const std::vector<v1::Event>& events) {
  if (game_id.empty()) return absl::InvalidArgumentError("an append needs a game id");
  if (events.empty()) return absl::InvalidArgumentError("an append needs at least one event");
  std::set<std::string> keys;
  for (size_t i = 0; i < events.size(); ++i) {
    const v1::Event& e = events[i];
    if (e.kind_case() == v1::Event::KIND_NOT_SET) {
      return absl::InvalidArgumentError(absl::StrCat("event ", i + 1, " of the append has no kind"));
    }
    if (!e.idempotency_key().empty() && !keys.insert(e.idempotency_key()).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("idempotency key '", e.idempotency_key(), "' is used twice in one append"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

Writer::Writer(Config config) : config_(std::move(config)) {}

absl::StatusOr<std::unique_ptr<Writer>> Writer::Start(Config config) {
  if (config.judge == nullptr) return absl::InvalidArgumentError("the ledger needs a judge");
  std::unique_ptr<Writer> w(new Writer(std::move(config)));
  if (absl::Status s = w->Recover(); !s.ok()) return s;
  w->config_.watch->Publish(w->head_);
  w->thread_ = std::thread([p = w.get()] { p->Run(); });
  return w;
}

Writer::~Writer() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

absl::Status Writer::Recover() {
  judges_.clear();
  revisions_.clear();
  stmts_.reset();
  db_ = Db();
  healthy_ = false;
  absl::StatusOr<Db> db =
      Db::Open(config_.db_path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, config_.vfs);
  if (!db.ok()) return db.status();
  db_ = *std::move(db);
  if (absl::Status s = ConfigureConnection(db_); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<Statements>> stmts = Statements::Prepare(db_);
  if (!stmts.ok()) return stmts.status();
  stmts_ = *std::move(stmts);

  // The Merkle edge and the head, from the committed leaves.
  absl::StatusOr<Stmt> q = Stmt::Prepare(db_, "SELECT position, leaf_hash FROM events ORDER BY position");
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
  last_checkpoint_.Clear();
  if (*row && !last_checkpoint_.ParseFromString(c->Text(0))) {
    return absl::DataLossError("the latest checkpoint is damaged; run `arbiter verify`");
  }
  range_ = range;
  head_ = range.size();
  healthy_ = true;
  return absl::OkStatus();
}

absl::Status Writer::Submit(Job* job) {
  {
    absl::MutexLock lock(&mu_);
    if (stopping_) return absl::UnavailableError("the ledger is closing");
    queue_.push_back(job);
  }
  job->done.WaitForNotification();
  return job->status;
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Writer::Append(std::string game_id,
                                                            ExpectedRevision expected,
                                                            std::vector<v1::Event> events) {
  Job job;
  job.game_id = std::move(game_id);
  job.expected = expected;
  job.events = std::move(events);
  if (absl::Status s = Submit(&job); !s.ok()) return s;
  return std::move(job.entries);
}

absl::StatusOr<v1::Checkpoint> Writer::Checkpoint() {
  Job job;
  job.checkpoint = true;
  if (absl::Status s = Submit(&job); !s.ok()) return s;
  return std::move(job.made);
}

void Writer::Run() {
  absl::Duration last_commit = absl::ZeroDuration();
  for (;;) {
    std::vector<Job*> batch;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || !queue_.empty();
      };
      mu_.Await(absl::Condition(&ready));
      if (queue_.empty()) return;  // stopping, and drained
    }
    absl::Time start = absl::Now();
    // Appends that arrive while the batch is being written join it; once
    // the queue runs dry the writer lingers briefly for stragglers (the
    // writers the last commit woke are coming back), for at most a quarter
    // of the last commit's time, so lingering costs little when commits
    // are cheap.
    RunBatch(batch, start + last_commit / 4);
    last_commit = absl::Now() - start;
    for (Job* job : batch) job->done.Notify();
  }
}

bool Writer::TakeMore(std::vector<Job*>& batch, absl::Time linger_until) {
  absl::MutexLock lock(&mu_);
  if (queue_.empty() && !stopping_) {
    absl::Duration wait = std::min(kLingerQuantum, linger_until - absl::Now());
    auto arrived = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return stopping_ || !queue_.empty();
    };
    if (wait > absl::ZeroDuration()) mu_.AwaitWithTimeout(absl::Condition(&arrived), wait);
  }
  size_t before = batch.size();
  while (!queue_.empty() && batch.size() < config_.max_batch) {
    batch.push_back(queue_.front());
    queue_.pop_front();
  }
  return batch.size() > before;
}

void Writer::RunBatch(std::vector<Job*>& jobs, absl::Time linger_until) {
  TakeMore(jobs, linger_until);
  auto fail_all = [&](const absl::Status& s) {
    for (Job* job : jobs) {
      if (job->status.ok()) job->status = s;
    }
  };
  if (!healthy_) {
    if (absl::Status s = Recover(); !s.ok()) return fail_all(s);
  }
  if (absl::Status s = db_.Exec("BEGIN IMMEDIATE;"); !s.ok()) {
    healthy_ = false;
    return fail_all(s);
  }
  Batch batch;
  batch.head = head_;
  batch.range = range_;
  bool checkpoint_asked = false;
  absl::Status broken;  // a failure of the transaction itself
  for (size_t next = 0; broken.ok(); ++next) {
    if (next == jobs.size() && !TakeMore(jobs, linger_until)) break;
    Job* job = jobs[next];
    if (job->checkpoint) {
      checkpoint_asked = true;
      continue;
    }
    // Each append in a savepoint, so a refused one leaves the others.
    if (broken = stmts_->savepoint.Run(); !broken.ok()) break;
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries = ProcessAppend(*job, batch);
    if (entries.ok()) {
      if (broken = stmts_->release.Run(); !broken.ok()) break;
      job->entries = *std::move(entries);
    } else {
      job->status = entries.status();
      // A judge that saw part of a refused append is discarded.
      judges_.erase(job->game_id);
      // Some storage errors make SQLite roll back the whole transaction:
      // then the batch is lost, not just this append.
      if (sqlite3_get_autocommit(db_.get()) != 0) {
        broken = entries.status();
        break;
      }
      broken = stmts_->rollback_to.Run();
      if (broken.ok()) broken = stmts_->release.Run();
      if (!broken.ok()) break;
    }
  }

  // A checkpoint when asked, at a game's end, or on crossing a multiple of
  // checkpoint_every.
  bool periodic = config_.checkpoint_every > 0 &&
                  batch.head / config_.checkpoint_every > head_ / config_.checkpoint_every;
  bool due = checkpoint_asked || !batch.ended_games.empty() || periodic;
  v1::Checkpoint made;
  if (broken.ok() && due && batch.head > 0 && batch.head != last_checkpoint_.tree_size()) {
    v1::Checkpoint::Reason reason = checkpoint_asked                ? v1::Checkpoint::ON_DEMAND
                                    : !batch.ended_games.empty() ? v1::Checkpoint::GAME_END
                                                                 : v1::Checkpoint::PERIODIC;
    absl::StatusOr<v1::Checkpoint> cp =
        SignCheckpoint(*config_.signer, batch.head, batch.range.Root(), absl::Now(), reason,
                       batch.ended_games);
    broken = cp.status();
    if (cp.ok()) {
      made = *std::move(cp);
      stmts_->insert_checkpoint.Bind(1, static_cast<int64_t>(made.tree_size()))
          .BindBlob(2, DeterministicBytes(made));
      broken = stmts_->insert_checkpoint.Run();
    }
  }
  if (broken.ok()) broken = db_.Exec("COMMIT;");
  if (!broken.ok()) {
    // Nothing of this batch is acknowledged. Whether the storage kept any of
    // it is for Recover() to read back; memory holds only committed state.
    db_.Exec("ROLLBACK;").IgnoreError();
    for (Job* job : jobs) {
      if (job->status.ok()) job->status = broken;
      job->entries.clear();
    }
    healthy_ = false;
    return;
  }

  head_ = batch.head;
  range_ = batch.range;
  for (auto& [game, rev] : batch.revisions) revisions_[game] = rev;
  if (made.tree_size() > 0) last_checkpoint_ = made;
  config_.watch->Publish(head_);
  for (Job* job : jobs) {
    if (!job->checkpoint) continue;
    if (last_checkpoint_.tree_size() == 0) {
      job->status = absl::FailedPreconditionError("the log is empty: nothing to checkpoint");
    } else {
      job->made = last_checkpoint_;
    }
  }
}

absl::StatusOr<uint64_t> Writer::CurrentRevision(const std::string& game_id, const Batch& batch) {
  if (auto it = batch.revisions.find(game_id); it != batch.revisions.end()) return it->second;
  if (auto it = revisions_.find(game_id); it != revisions_.end()) return it->second;
  Stmt& q = stmts_->max_revision;
  ResetOnExit reset(q);
  q.Bind(1, game_id);
  absl::StatusOr<bool> row = q.Step();
  if (!row.ok()) return row.status();
  uint64_t rev = q.Int(0);
  // Cache only what is committed: the batch has not touched this game.
  revisions_[game_id] = rev;
  return rev;
}

absl::StatusOr<GameJudge*> Writer::JudgeFor(const std::string& game_id, uint64_t revision,
                                            const v1::Event& first) {
  if (auto it = judges_.find(game_id); it != judges_.end()) return it->second.get();
  if (judges_.size() >= 4096) judges_.clear();  // bounded: evicted games replay
  if (revision == 0) {
    absl::StatusOr<std::unique_ptr<GameJudge>> j = config_.judge->Open(game_id, first.game_created());
    if (!j.ok()) return j.status();
    return (judges_[game_id] = *std::move(j)).get();
  }
  // Rebuild the fold from the stored stream (this connection sees the
  // batch's own uncommitted events too).
  Stmt& q = stmts_->game_events;
  ResetOnExit reset(q);
  q.Bind(1, game_id);
  std::unique_ptr<GameJudge> judge;
  for (uint64_t rev = 1;; ++rev) {
    absl::StatusOr<bool> row = q.Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    absl::StatusOr<v1::Event> e = ParseCanonicalEvent(q.Text(0));
    if (!e.ok()) return e.status();
    if (judge == nullptr) {
      absl::StatusOr<std::unique_ptr<GameJudge>> j = config_.judge->Open(game_id, e->game_created());
      if (!j.ok()) return j.status();
      judge = *std::move(j);
    }
    absl::StatusOr<Verdict> v = judge->Apply(*e);
    if (!v.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "game '", game_id, "' no longer replays: its event ", rev, " is refused: ",
          v.status().message()));
    }
  }
  if (judge == nullptr) return absl::InternalError(absl::StrCat("game '", game_id, "' has no events"));
  // The game continues only under the rules it was created under.
  Stmt& p = stmts_->game_pin;
  ResetOnExit reset_pin(p);
  p.Bind(1, game_id);
  absl::StatusOr<bool> pinned = p.Step();
  if (!pinned.ok()) return pinned.status();
  if (!*pinned || p.Text(0) != judge->RulesPin()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "game '", game_id, "' was created under '", *pinned ? p.Text(0) : "(no pin)",
        "' but the rules now load as '", judge->RulesPin(), "'"));
  }
  return (judges_[game_id] = std::move(judge)).get();
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Writer::ReadRecorded(
    const std::vector<uint64_t>& positions) {
  std::vector<v1::LedgerEntry> out;
  for (uint64_t pos : positions) {
    v1::LedgerEntry& e = out.emplace_back();
    Stmt& q = stmts_->event_at;
    ResetOnExit reset(q);
    q.Bind(1, static_cast<int64_t>(pos));
    absl::StatusOr<bool> row = q.Step();
    if (!row.ok()) return row.status();
    if (!*row) return absl::InternalError(absl::StrCat("position ", pos, " vanished"));
    e.set_position(pos);
    e.set_game_id(q.Text(0));
    e.set_revision(q.Int(1));
    e.set_event(q.Text(2));
    Stmt& r = stmts_->rulings_at;
    ResetOnExit reset_r(r);
    r.Bind(1, static_cast<int64_t>(pos));
    for (;;) {
      absl::StatusOr<bool> more = r.Step();
      if (!more.ok()) return more.status();
      if (!*more) break;
      if (!e.add_rulings()->ParseFromString(r.Text(0))) {
        return absl::DataLossError(absl::StrCat("a ruling at position ", pos, " does not parse"));
      }
    }
  }
  return out;
}

absl::StatusOr<std::vector<v1::LedgerEntry>> Writer::ProcessAppend(Job& job, Batch& batch) {
  if (absl::Status s = ValidateBatch(job.game_id, job.events); !s.ok()) return s;
  std::vector<std::string> canonical;
  for (const v1::Event& e : job.events) canonical.push_back(CanonicalEvent(e));

  // Idempotency: a key, once recorded, forever names that event.
  std::vector<uint64_t> recorded;
  size_t keyed = 0;
  for (size_t i = 0; i < job.events.size(); ++i) {
    const std::string& key = job.events[i].idempotency_key();
    if (key.empty()) continue;
    ++keyed;
    Stmt& q = stmts_->find_key;
    ResetOnExit reset(q);
    q.Bind(1, key);
    absl::StatusOr<bool> row = q.Step();
    if (!row.ok()) return row.status();
    if (!*row) continue;
    if (q.Text(1) != job.game_id || q.Text(2) != canonical[i]) {
      return absl::AlreadyExistsError(
          absl::StrCat("idempotency key '", key, "' already names the event at position ",
                       q.Int(0), ", with other content"));
    }
    recorded.push_back(q.Int(0));
  }
  if (!recorded.empty()) {
    if (recorded.size() == job.events.size()) return ReadRecorded(recorded);
    return absl::InvalidArgumentError(absl::StrCat(
        "the append mixes ", recorded.size(), " already recorded event(s) with ",
        job.events.size() - recorded.size(), " new one(s); ", keyed, " carry keys"));
  }

  absl::StatusOr<uint64_t> current = CurrentRevision(job.game_id, batch);
  if (!current.ok()) return current.status();
  if (absl::Status s = job.expected.Check(job.game_id, *current); !s.ok()) return s;

  // The stream's shape: gameCreated first, for this game, and only first.
  for (size_t i = 0; i < job.events.size(); ++i) {
    uint64_t rev = *current + 1 + i;
    const v1::Event& e = job.events[i];
    if (rev == 1 && !e.has_game_created()) {
      return absl::InvalidArgumentError(
          absl::StrCat("game '", job.game_id, "' has no stream: its first event must be gameCreated"));
    }
    if (rev != 1 && e.has_game_created()) {
      return absl::InvalidArgumentError(
          absl::StrCat("game '", job.game_id, "' already exists: gameCreated at revision ", rev));
    }
    if (e.has_game_created() && e.game_created().game_id() != job.game_id) {
      return absl::InvalidArgumentError(absl::StrCat("gameCreated names game '",
                                                     e.game_created().game_id(),
                                                     "' in the stream of '", job.game_id, "'"));
    }
  }

  absl::StatusOr<GameJudge*> judge = JudgeFor(job.game_id, *current, job.events[0]);
  if (!judge.ok()) return judge.status();

  // `batch` changes only once the whole append has succeeded.
  std::vector<v1::LedgerEntry> out;
  std::vector<Hash> leaves;
  bool game_over = false;
  for (size_t i = 0; i < job.events.size(); ++i) {
    absl::StatusOr<Verdict> verdict = (*judge)->Apply(job.events[i]);
    if (!verdict.ok()) return verdict.status();
    uint64_t position = batch.head + 1 + i;
    uint64_t revision = *current + 1 + i;
    if (revision == 1) {
      stmts_->insert_game.Bind(1, job.game_id)
          .Bind(2, static_cast<int64_t>(position))
          .Bind(3, (*judge)->RulesPin());
      if (absl::Status s = stmts_->insert_game.Run(); !s.ok()) return s;
    }
    Hash leaf = LeafHash(canonical[i]);
    Stmt& ins = stmts_->insert_event;
    ins.Bind(1, static_cast<int64_t>(position))
        .Bind(2, job.game_id)
        .Bind(3, static_cast<int64_t>(revision))
        .BindBlob(5, canonical[i])
        .BindBlob(6, AsBytes(leaf));
    const std::string& key = job.events[i].idempotency_key();
    if (key.empty()) {
      ins.BindNull(4);
    } else {
      ins.Bind(4, key);
    }
    if (absl::Status s = ins.Run(); !s.ok()) return s;
    v1::LedgerEntry& entry = out.emplace_back();
    for (size_t k = 0; k < verdict->rulings.size(); ++k) {
      stmts_->insert_ruling.Bind(1, static_cast<int64_t>(position))
          .Bind(2, static_cast<int64_t>(k))
          .BindBlob(3, DeterministicBytes(verdict->rulings[k]));
      if (absl::Status s = stmts_->insert_ruling.Run(); !s.ok()) return s;
      *entry.add_rulings() = std::move(verdict->rulings[k]);
    }
    entry.set_position(position);
    entry.set_game_id(job.game_id);
    entry.set_revision(revision);
    entry.set_event(std::move(canonical[i]));
    leaves.push_back(leaf);
    game_over = game_over || verdict->game_over;
  }
  batch.head += job.events.size();
  for (const Hash& leaf : leaves) batch.range.Append(leaf);
  if (game_over) batch.ended_games.push_back(job.game_id);
  batch.revisions[job.game_id] = *current + job.events.size();
  return out;
}

}  // namespace arbiter::ledger
