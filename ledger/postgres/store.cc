// The ledger in a PostgreSQL database (OpenPostgresStore, backends.h): the
// same tables, rows and bytes as the SQLite ledger, written by any number of
// processes at once.
//
// Each process groups its concurrent appends into one transaction, as the
// SQLite writer does. The order is decided in the database:
//  - the global order by one sequencer at a time: each batch's transaction
//    first takes a transaction-scoped advisory lock (the lease), so
//    positions are gapless and the Merkle tree and checkpoints are over
//    one order; the lease ends with the COMMIT, or with the connection when
//    its holder dies, and the next server takes it at once;
//  - each game's order by a row lock on its stream head (`streams`), read
//    FOR UPDATE, so the revision an append is checked and judged against
//    is the one it commits after.
// A server keeps only what is committed: the Merkle edge, extended by the
// leaves other servers committed (read under the lease), and the judge's
// folds, which it uses only at the revision the database holds.
//
// The unsigned tail (LedgerOptions::sign_within) is signed by one server at
// a time, the holder of the signer's lease: a session advisory lock that
// every server's head poller asks for and waits for in the database, and
// holds while its connection lives (a dead holder's connection ends, and
// the database grants it to the next at once). Each commit notifies every
// poller, which reads the head and the last checkpoint in one snapshot; the
// holder's UnsignedTail (unsigned_tail.h) bounds when each event it had not
// seen was committed, by any server, by its previous read (after an idle
// stretch, the first commit is due at once), and its writer signs a
// TAIL_BOUND checkpoint, under the sequencer's lease as every checkpoint,
// once the oldest unsigned event has waited `sign_within`.
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <atomic>
#include <optional>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "ledger/hash.h"
#include "ledger/internal/append_checks.h"
#include "ledger/internal/append_job.h"
#include "ledger/internal/append_rows.h"
#include "ledger/internal/backends.h"
#include "ledger/internal/batch.h"
#include "ledger/internal/log_origin.h"
#include "ledger/internal/store_writer.h"
#include "ledger/internal/unsigned_tail.h"
#include "ledger/ledger.h"
#include "ledger/merkle.h"
#include "ledger/postgres/audit_source.h"
#include "ledger/postgres/log_reader.h"
#include "ledger/postgres/pg.h"
#include "ledger/postgres/server_tables.h"
#include "ledger/postgres/venue_tables.h"
#include "ledger/thread_name.h"

namespace arbiter::ledger {
namespace {

// The sequencer's lease: the advisory lock every batch's transaction takes
// first ("arbiter\x02").
constexpr int64_t kSequencerLock = 0x6172626974657202;

// The signer's lease: a session advisory lock, held by the head poller of
// the one server that signs the unsigned tail ("arbiter\x03").
constexpr int64_t kSignerLock = 0x6172626974657203;

// How soon a lost connection to the database is tried again. Nothing else
// is on a timer: every commit carries a NOTIFY on kCommitChannel, which each
// server's poller LISTENs to (its own commits' too), and the signer's lease
// is asked for with a lock that waits in the database until its holder's
// session ends, so an idle server sleeps whatever its bound on the tail.
constexpr absl::Duration kReconnect = absl::Milliseconds(100);
constexpr char kCommitChannel[] = "arbiter_commits";

class PgWriter final : public StoreWriter, private BatchTransaction {
 public:
  PgWriter(LedgerOptions options, Signer signer)
      : options_(std::move(options)),
        signer_(std::move(signer)),
        loop_(BatchLoop::Config{options_.judge, &signer_, options_.checkpoint_every, watch_}),
        tail_(options_.sign_within) {}

  ~PgWriter() override {
    queue_.Close();
    {
      absl::MutexLock lock(&mu_);
      stopping_ = true;
    }
    WakePoller();
    if (thread_.joinable()) thread_.join();
    if (poller_.joinable()) poller_.join();
    watch_->Close();
    if (poller_wake_ >= 0) close(poller_wake_);
  }

  absl::Status Start() {
    absl::StatusOr<PgConn> conn = PgConn::Connect(options_.dir);
    if (!conn.ok()) return conn.status();
    conn_ = *std::move(conn);
    thread_ = std::thread([this] {
      NameThisThread("pg-writer");
      Run();
    });
    poller_ = std::thread([this] {
      NameThisThread("pg-poller");
      PollHead();
    });
    return absl::OkStatus();
  }

  AppendQueue& queue() override { return queue_; }
  std::shared_ptr<CommitWatch> watch() override { return watch_; }
  const Signer& signer() const override { return signer_; }

 private:
  void Run() {
    bool signed_at_close = false;
    for (;;) {
      std::vector<AppendJob*> jobs;
      // The writer's own checkpoint, when the unsigned tail comes due with
      // nothing queued, or at the close: a closing signer signs the tail
      // first, once, as it reads it under the sequencer's lease, whether or
      // not a poll has seen it yet.
      AppendJob sign_tail;
      if (!queue_.Next(jobs, options_.max_batch, TailDue(), !signed_at_close && HoldsSignerLease(),
                       sign_tail)) {
        return;
      }
      if (jobs.empty()) continue;
      signed_at_close = signed_at_close || (jobs.back() == &sign_tail && queue_.closed());
      RunBatch(jobs);
      for (AppendJob* job : jobs) job->Complete();
    }
  }

  absl::Time TailDue() {
    absl::MutexLock lock(&mu_);
    return tail_.Due();
  }

  bool HoldsSignerLease() {
    absl::MutexLock lock(&mu_);
    return holds_lease_;
  }

  void WakePoller() {
    const uint64_t one = 1;
    [[maybe_unused]] const ssize_t n = write(poller_wake_, &one, sizeof one);
  }

  // The poller's connections: `conn` listens for commits and reads the
  // head; `lease`, with a bound on the unsigned tail, waits in the server
  // for the signer's lease (granted when its holder's session ends: nothing
  // is polled) and then holds it while it lives.
  struct PollerConns {
    bool bounded = false;  // LedgerOptions::sign_within > 0
    PgConn conn;
    PgConn lease;
    bool asked = false;   // the lease is asked for, not yet granted
    bool signer = false;  // `lease` holds it
  };

  // Sleeps until a notification on `conn` (any server's commit, this
  // one's too), an answer on `lease` (the lease granted, or the connection's
  // end), the writer's close, or `timeout` (InfiniteDuration: none); false
  // once closing.
  bool AwaitNews(const PollerConns& c, absl::Duration timeout) {
    pollfd fds[3] = {{poller_wake_, POLLIN, 0},
                     {c.conn.ok() ? c.conn.socket() : -1, POLLIN, 0},
                     {c.lease.ok() ? c.lease.socket() : -1, POLLIN, 0}};
    const int ms = timeout == absl::InfiniteDuration()
                       ? -1
                       : static_cast<int>(absl::ToInt64Milliseconds(timeout));
    [[maybe_unused]] const int ready = poll(fds, 3, ms);  // EINTR: look again
    uint64_t wakes = 0;
    [[maybe_unused]] const ssize_t n = read(poller_wake_, &wakes, sizeof wakes);
    absl::MutexLock lock(&mu_);
    return !stopping_;
  }

  // Reads what the server sent on both connections: the notifications, and
  // the lease if it was granted. False when a connection broke (a holder's
  // lease connection is readable only then).
  bool TakeNews(PollerConns& c) {
    if (!c.conn.ok() || !c.conn.TakeNotifications().ok()) return false;
    if (!c.bounded) return true;
    if (!c.asked) return c.lease.TakeNotifications().ok();
    absl::StatusOr<std::optional<PgResult>> granted = c.lease.TakeResult();
    if (!granted.ok()) return false;
    if (granted->has_value()) {
      c.asked = false;
      c.signer = true;
      absl::MutexLock lock(&mu_);
      holds_lease_ = true;
    }
    return true;
  }

  // Connects `conn` and LISTENs and, with a bound, asks for the lease on a
  // connection of its own. False when either failed.
  bool Connect(PollerConns& c) {
    absl::StatusOr<PgConn> conn = PgConn::Connect(options_.dir);
    if (!conn.ok() || !conn->Run(absl::StrCat("LISTEN ", kCommitChannel)).ok()) return false;
    c.conn = *std::move(conn);
    if (!c.bounded) return true;
    absl::StatusOr<PgConn> lease = PgConn::Connect(options_.dir);
    if (!lease.ok() ||
        !lease->Send("SELECT pg_advisory_lock($1)", PgParams().Int(kSignerLock)).ok()) {
      return false;
    }
    c.lease = *std::move(lease);
    c.asked = true;
    return true;
  }

  // Closes both connections (the lease, if held, ends with its own).
  void LoseConns(PollerConns& c) {
    c.conn = PgConn();
    c.lease = PgConn();
    c.asked = false;
    if (!c.signer) return;
    c.signer = false;
    absl::MutexLock lock(&mu_);
    holds_lease_ = false;
    tail_.Reset();
  }

  // Publishes the head and the last checkpoint, read in one snapshot (other
  // servers' commits wake this one's followers) and, holding the lease,
  // tells the writer when the tail is due; reads again while notifications
  // came during the read. False when a read failed.
  //
  // Why again: PostgreSQL sends a notification to a listener that is
  // running a statement when it ends, before its ReadyForQuery, and one that
  // comes just after may arrive with it; libpq then takes it in with the
  // answer, so the socket shows nothing and poll() would sleep, while the
  // commit it announces may be later than the read's snapshot. A holder of
  // the lease would then never see that commit, nor sign it, until some
  // other commit came: e.g. a new holder's own write, committed as it reads
  // the head on the lease's grant (tests/ledger/ledger_test.cc forces it).
  bool ReadHead(PollerConns& c) {
    for (;;) {
      if (!ReadHeadOnce(c)) return false;
      absl::StatusOr<int> came = c.conn.TakeNotifications();
      if (!came.ok()) return false;
      if (*came == 0) return true;
    }
  }

  bool ReadHeadOnce(PollerConns& c) {
    const absl::Time read_at = absl::Now();
    if (!c.conn
             .Send("SELECT (SELECT COALESCE(MAX(position), 0) FROM events), "
                   "(SELECT COALESCE(MAX(tree_size), 0) FROM checkpoints)")
             .ok()) {
      return false;
    }
    if (options_.pg_head_read_sent) options_.pg_head_read_sent(c.conn.socket());
    absl::StatusOr<PgResult> r = c.conn.AwaitResult();
    if (!r.ok()) return false;
    const uint64_t head = r->Int(0, 0);
    watch_->Publish(head);
    watch_->feed().PublishCheckpoint(static_cast<uint64_t>(r->Int(0, 1)));
    if (c.signer) {
      absl::MutexLock lock(&mu_);
      if (tail_.Read(head, r->Int(0, 1), read_at)) queue_.Wake();
    }
    return true;
  }

  // On connections of its own, whenever a server commits (a notification)
  // or the signer's lease is granted: reads the head. Nothing on a timer
  // but a lost connection, tried again every kReconnect.
  void PollHead() {
    PollerConns c;
    c.bounded = options_.sign_within > absl::ZeroDuration();
    // The first read at once: the writes after the start are then bounded
    // by when it began.
    for (bool first = true;; first = false) {
      if (!first) {
        if (!AwaitNews(c, c.conn.ok() ? absl::InfiniteDuration() : kReconnect)) return;
        if (!TakeNews(c)) LoseConns(c);
      }
      if (!c.conn.ok() && !Connect(c)) {
        LoseConns(c);
        continue;
      }
      if (!ReadHead(c)) LoseConns(c);
    }
  }

  // Extends the committed Merkle edge by what other servers committed, and
  // reads the latest checkpoint; under the lease, so nothing is in flight.
  absl::Status CatchUp() {
    CompactRange& range = loop_.committed().range;
    absl::StatusOr<PgResult> r =
        conn_.Exec("SELECT position, leaf_hash FROM events WHERE position > $1 ORDER BY position",
                   PgParams().Int(static_cast<int64_t>(range.size())));
    if (!r.ok()) return r.status();
    for (int i = 0; i < r->rows(); ++i) {
      Hash h;
      if (static_cast<uint64_t>(r->Int(i, 0)) != range.size() + 1 ||
          !HashFromBytes(r->Bytes(i, 1), &h)) {
        return absl::DataLossError(absl::StrCat("the log is damaged at position ", range.size() + 1,
                                                "; run `arbiter verify`"));
      }
      range.Append(h);
    }
    loop_.committed().head = range.size();
    absl::StatusOr<PgResult> c =
        conn_.Exec("SELECT checkpoint FROM checkpoints ORDER BY tree_size DESC LIMIT 1");
    if (!c.ok()) return c.status();
    v1::Checkpoint& latest = loop_.committed().last_checkpoint;
    latest.Clear();
    if (c->rows() == 1 && !latest.ParseFromString(c->Bytes(0, 0))) {
      return absl::DataLossError("the latest checkpoint is damaged; run `arbiter verify`");
    }
    return absl::OkStatus();
  }

  void RunBatch(std::vector<AppendJob*>& jobs) {
    auto fail_all = [&](const absl::Status& s) {
      BatchLoop::FailAll(jobs, s);
      // A tail that could not be signed is tried again a bound later, not
      // in a loop against a failing database.
      const absl::Time now = absl::Now();
      absl::MutexLock lock(&mu_);
      if (tail_.Due() <= now) tail_.Postpone(now + options_.sign_within);
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
    tx_.emplace(*std::move(tx));
    BatchLoop::Outcome out = loop_.Run(jobs, *this, absl::Now() >= TailDue(),
                                       [](std::vector<AppendJob*>&) { return false; });
    // Rolls back what a failed batch left. If the COMMIT did land (the
    // connection died after it), the next batch reads it back under the
    // lease, and a retry with the same keys gets the recorded entries.
    tx_.reset();
    if (!out.status.ok()) return fail_all(out.status);
    absl::MutexLock lock(&mu_);
    tail_.Signed(loop_.committed().last_checkpoint.tree_size());
  }

  // BatchTransaction, on the writer's connection inside the batch's
  // transaction.
  absl::Status Savepoint() override { return conn_.Run("SAVEPOINT append"); }
  absl::Status Release() override { return conn_.Run("RELEASE SAVEPOINT append"); }
  // The savepoint stays; the next append's of the same name hides it.
  absl::Status RollBack() override { return conn_.Run("ROLLBACK TO SAVEPOINT append"); }
  absl::Status InsertCheckpoint(uint64_t tree_size, const std::string& canonical) override {
    return conn_
        .Exec("INSERT INTO checkpoints(tree_size, checkpoint) VALUES($1, $2)",
              PgParams().Int(static_cast<int64_t>(tree_size)).Bytes(canonical))
        .status();
  }
  // The commit announces itself: the notification is delivered to every
  // listening poller if, and once, the transaction commits.
  absl::Status Commit() override { return tx_->Commit(absl::StrCat("NOTIFY ", kCommitChannel)); }

  absl::StatusOr<std::optional<KeyedEvent>> FindKey(const std::string& game_id,
                                                    const std::string& key) override {
    absl::StatusOr<PgResult> q =
        conn_.Exec("SELECT position, event FROM events WHERE game_id = $1 AND idempotency_key = $2",
                   PgParams().Text(game_id).Text(key));
    if (!q.ok()) return q.status();
    if (q->rows() == 0) return std::nullopt;
    return KeyedEvent{static_cast<uint64_t>(q->Int(0, 0)), q->Bytes(0, 1)};
  }

  absl::StatusOr<v1::LedgerEntry> EntryAt(uint64_t position) override {
    absl::StatusOr<PgResult> q =
        conn_.Exec("SELECT game_id, revision, event FROM events WHERE position = $1",
                   PgParams().Int(static_cast<int64_t>(position)));
    if (!q.ok()) return q.status();
    if (q->rows() != 1) {
      return absl::InternalError(absl::StrCat("position ", position, " vanished"));
    }
    v1::LedgerEntry e;
    e.set_position(position);
    e.set_game_id(q->Bytes(0, 0));
    e.set_revision(q->Int(0, 1));
    e.set_event(q->Bytes(0, 2));
    absl::StatusOr<PgResult> r =
        conn_.Exec("SELECT ruling FROM rulings WHERE position = $1 ORDER BY seq",
                   PgParams().Int(static_cast<int64_t>(position)));
    if (!r.ok()) return r.status();
    for (int i = 0; i < r->rows(); ++i) {
      if (!e.add_rulings()->ParseFromString(r->Bytes(i, 0))) {
        return absl::DataLossError(
            absl::StrCat("a ruling at position ", position, " does not parse"));
      }
    }
    return e;
  }

  // The game's order: its stream head, locked until the COMMIT.
  absl::StatusOr<uint64_t> CommittedRevision(const std::string& game_id) override {
    absl::StatusOr<PgResult> q = conn_.Exec(
        "SELECT revision FROM streams WHERE game_id = $1 FOR UPDATE", PgParams().Text(game_id));
    if (!q.ok()) return q.status();
    return q->rows() == 1 ? static_cast<uint64_t>(q->Int(0, 0)) : 0;
  }

  absl::StatusOr<std::unique_ptr<GameJudge>> Replay(const std::string& game_id) override {
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

  absl::Status AdvanceStream(const std::string& game_id, uint64_t revision) override {
    return conn_
        .Exec(
            "INSERT INTO streams(game_id, revision) VALUES($1, $2) "
            "ON CONFLICT (game_id) DO UPDATE SET revision = EXCLUDED.revision",
            PgParams().Text(game_id).Int(static_cast<int64_t>(revision)))
        .status();
  }

  absl::Status InsertGame(const std::string& game_id, uint64_t first_position,
                          const std::string& rules_pin) override {
    return conn_
        .Exec("INSERT INTO games(game_id, first_position, rules_pin) VALUES($1, $2, $3)",
              PgParams().Text(game_id).Int(static_cast<int64_t>(first_position)).Text(rules_pin))
        .status();
  }

  absl::Status InsertEvent(uint64_t position, const std::string& game_id, uint64_t revision,
                           const std::string& key, const std::string& canonical,
                           const Hash& leaf) override {
    PgParams row;
    row.Int(static_cast<int64_t>(position)).Text(game_id).Int(static_cast<int64_t>(revision));
    if (key.empty()) {
      row.Null();
    } else {
      row.Text(key);
    }
    row.Bytes(canonical).Bytes(AsBytes(leaf));
    return conn_
        .Exec(
            "INSERT INTO events(position, game_id, revision, idempotency_key, event, leaf_hash) "
            "VALUES($1, $2, $3, $4, $5, $6)",
            row)
        .status();
  }

  absl::StatusOr<std::optional<std::string>> VenueKeyOf(const std::string& game_id) override {
    absl::StatusOr<PgResult> q = conn_.Exec("SELECT public_key FROM venue_games WHERE game_id = $1",
                                            PgParams().Text(game_id));
    if (!q.ok()) return q.status();
    if (q->rows() == 0) return std::nullopt;
    return q->Bytes(0, 0);
  }

  absl::Status InsertVenueGame(const std::string& game_id, const std::string& venue_id,
                               const std::string& public_key_der) override {
    return conn_
        .Exec("INSERT INTO venue_games(game_id, venue_id, public_key) VALUES($1, $2, $3)",
              PgParams().Text(game_id).Text(venue_id).Bytes(public_key_der))
        .status();
  }

  absl::Status InsertRuling(uint64_t position, uint64_t seq,
                            const std::string& canonical) override {
    return conn_
        .Exec("INSERT INTO rulings(position, seq, ruling) VALUES($1, $2, $3)",
              PgParams()
                  .Int(static_cast<int64_t>(position))
                  .Int(static_cast<int64_t>(seq))
                  .Bytes(canonical))
        .status();
  }

  absl::Status InsertArrival(uint64_t position, absl::Time received_at) override {
    return conn_
        .Exec("INSERT INTO arrivals(position, received_micros) VALUES($1, $2)",
              PgParams().Int(static_cast<int64_t>(position)).Int(absl::ToUnixMicros(received_at)))
        .status();
  }

  const LedgerOptions options_;
  const Signer signer_;
  std::shared_ptr<CommitWatch> watch_ = std::make_shared<CommitWatch>();

  // Owned by the writer thread.
  PgConn conn_;
  std::optional<PgTransaction> tx_;  // the running batch's
  BatchLoop loop_;                   // and the committed Merkle edge and latest checkpoint

  AppendQueue queue_;
  absl::Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;     // for the poller
  bool holds_lease_ ABSL_GUARDED_BY(mu_) = false;  // the poller holds the signer's lease
  UnsignedTail tail_ ABSL_GUARDED_BY(mu_);         // known only to the signer
  std::thread thread_;
  std::thread poller_;
  // Wakes the poller (eventfd) when the writer closes.
  const int poller_wake_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
};

class PostgresStore final : public Store {
 public:
  explicit PostgresStore(std::string uri) : uri_(std::move(uri)) {}

  const std::string& database() const override { return uri_; }
  bool shared() const override { return true; }

  absl::StatusOr<std::unique_ptr<LogSource>> OpenReader() override {
    absl::StatusOr<std::unique_ptr<PgLogReader>> r = PgLogReader::Open(uri_);
    if (!r.ok()) return r.status();
    return std::unique_ptr<LogSource>(*std::move(r));
  }

  absl::StatusOr<std::unique_ptr<AuditSource>> OpenAuditSource() override {
    return OpenPgAuditSource(uri_);
  }

  absl::StatusOr<std::unique_ptr<VenueTables>> OpenVenueTables(bool /*read_only*/) override {
    absl::StatusOr<PgConn> conn = PgConn::Connect(uri_);
    if (!conn.ok()) return conn.status();
    return PgVenueTablesOn(*std::move(conn));
  }

  // Read or not, the tables are made if absent (as the readers make the
  // ledger's): a database without them is a new one.
  absl::StatusOr<std::unique_ptr<ServerTables>> OpenServerTables(bool /*read_only*/) override {
    return OpenPgServerTables(uri_);
  }

  absl::StatusOr<std::unique_ptr<StoreWriter>> OpenWriter(LedgerOptions options) override;

 private:
  const std::string uri_;
};

absl::StatusOr<std::unique_ptr<StoreWriter>> PostgresStore::OpenWriter(LedgerOptions options) {
  options.dir = uri_;
  if (options.key_dir.empty()) {
    return absl::InvalidArgumentError(
        "a PostgreSQL ledger needs the directory of its signing key (key_dir)");
  }
  options.max_batch = std::max<size_t>(1, options.max_batch);
  // The origin is the database's: the first server keeps it, every other
  // one signs under it whatever it calls its host.
  absl::StatusOr<std::unique_ptr<ServerTables>> tables = OpenServerTables(false);
  if (!tables.ok()) return tables.status();
  absl::StatusOr<std::string> origin =
      SettleLogOrigin(**tables, options.key_dir, options.log_origin, DefaultLogOrigin(options.dir));
  if (!origin.ok()) return origin.status();
  absl::StatusOr<Signer> signer = LoadSigningKey(options.key_dir, *origin);
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
  auto writer = std::make_unique<PgWriter>(std::move(options), *std::move(signer));
  if (absl::Status s = writer->Start(); !s.ok()) return s;
  return std::unique_ptr<StoreWriter>(std::move(writer));
}

}  // namespace

bool ClaimsPostgres(const std::string& location) {
  return absl::StartsWith(location, "postgresql://") || absl::StartsWith(location, "postgres://");
}

absl::StatusOr<std::unique_ptr<Store>> OpenPostgresStore(const std::string& location,
                                                         const StoreOptions& /*options*/) {
  return std::make_unique<PostgresStore>(location);
}

}  // namespace arbiter::ledger
