// An attacker with write access to the database (who drops the triggers
// first) or to a bundle: every change is caught by the audit.
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "ledger/audit.h"
#include "ledger/bundle.h"
#include "ledger/checkpoint.h"
#include "ledger/hash.h"
#include "ledger/internal/audit_source.h"
#include "ledger/ledger.h"
#include "ledger/merkle.h"
#include "ledger/postgres/audit_source.h"
#include "ledger/postgres/log_reader.h"
#include "ledger/postgres/pg.h"
#include "ledger/signer.h"
#include "ledger/sqlite.h"
#include "ledger/sqlite/log_reader.h"
#include "ledger/store.h"
#include "ledger/tournament_referee.h"
#include "tests/ledger/backend.h"
#include "tests/ledger/toy_judge.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using ::arbiter::testing::TempDir;
using testing::Backend;
using testing::BackendName;
using testing::OptionsFor;

using testing::Created;
using testing::Pass;
using testing::Resign;

// A referee that writes down what it was handed: at each tournament event,
// the games whose folds had a result by then (tournament_referee.h: the log
// in position order), and whether it was called on the audit's caller.
class RecordingReferee : public TournamentReferee {
 public:
  void GameAdvanced(const std::string& game_id, const GameJudge& fold) override {
    if (fold.result() != nullptr) finished_.insert(game_id);
    off_thread_ = off_thread_ || std::this_thread::get_id() != caller_;
  }
  std::optional<std::string> Apply(const std::string& tournament_id, uint64_t revision,
                                   const v1::TournamentEvent& /*event*/) override {
    off_thread_ = off_thread_ || std::this_thread::get_id() != caller_;
    seen.push_back(absl::StrCat(tournament_id, "@", revision, ": ", finished_.size(), " over"));
    if (revision == refuse_at) return absl::StrCat("tournament '", tournament_id, "' refused");
    return std::nullopt;
  }
  std::optional<std::string> Finish() override {
    seen.push_back(absl::StrCat("finish: ", finished_.size(), " over"));
    return std::nullopt;
  }
  bool off_thread() const { return off_thread_; }

  std::vector<std::string> seen;
  uint64_t refuse_at = 0;  // the revision whose Apply has a finding; 0: none

 private:
  const std::thread::id caller_ = std::this_thread::get_id();
  std::set<std::string> finished_;
  bool off_thread_ = false;
};

// A judge of ToyGames that counts its folds alive, and the most at once.
class CountingJudge : public Judge {
 public:
  class Fold : public testing::ToyGame {
   public:
    explicit Fold(CountingJudge& judge) : judge_(judge) {
      const int now = ++judge_.live;
      int most = judge_.most.load();
      while (now > most && !judge_.most.compare_exchange_weak(most, now)) {
      }
    }
    ~Fold() override { --judge_.live; }

   private:
    CountingJudge& judge_;
  };

  absl::StatusOr<std::unique_ptr<GameJudge>> Open(absl::string_view /*game_id*/,
                                                  const v1::GameCreated& /*created*/) override {
    return std::make_unique<Fold>(*this);
  }

  std::atomic<int> live{0}, most{0};
};

// On both backends (backend.h): the attacker's SQL is each database's.
class TamperTest : public ::testing::TestWithParam<Backend> {
 protected:
  bool pg() const { return GetParam() == Backend::kPostgres; }

  // Five games, interleaved, each ending in a resignation (so a checkpoint
  // each), and a sixth still going: 5 * 5 + 3 = 28 events.
  void SetUp() override {
    LedgerOptions o = OptionsFor(GetParam(), dir_.path(), &uri_);
    o.judge = &judge_;
    auto ledger = Ledger::Open(o);
    ASSERT_TRUE(ledger.ok());
    for (int step = 0; step < 5; ++step) {
      for (int g = 0; g < 5; ++g) {
        std::string id = absl::StrCat("g", g);
        std::string key = absl::StrCat(id, "-", step);
        v1::Event e = step == 0   ? Created(id, key)
                      : step == 4 ? Resign(v1::BLACK, key)
                                  : Pass(step % 2 ? v1::BLACK : v1::WHITE, key);
        ASSERT_TRUE(
            (*ledger)
                ->AppendAndWait(AppendRequest::Game(id, ExpectedRevision::Exactly(step), {e}))
                .ok());
      }
    }
    ASSERT_TRUE((*ledger)
                    ->AppendAndWait(
                        AppendRequest::Game("live", ExpectedRevision::NoStream(),
                                            {Created("live"), Pass(v1::BLACK), Pass(v1::WHITE)}))
                    .ok());
    public_key_ = (*ledger)->identity().public_key_der();
    if (pg()) {
      absl::StatusOr<PgConn> conn = PgConn::Connect(uri_);
      ASSERT_TRUE(conn.ok()) << conn.status();
      pg_ = *std::move(conn);
      return;
    }
    absl::StatusOr<Db> db = Db::Open(dir_.File("ledger.db"), SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = *std::move(db);
  }

  // What the attacker runs, triggers dropped first.
  void Attack(const std::string& sql) {
    if (pg()) {
      // Triggers off, and the uniqueness that would stop a renumbering.
      absl::Status s = pg_.Run(absl::StrCat(
          "ALTER TABLE events DISABLE TRIGGER USER; ALTER TABLE rulings DISABLE TRIGGER USER;"
          "ALTER TABLE checkpoints DISABLE TRIGGER USER; ALTER TABLE games DISABLE TRIGGER USER;"
          "ALTER TABLE meta DISABLE TRIGGER USER;"
          "ALTER TABLE events DROP CONSTRAINT IF EXISTS events_pkey;"
          "ALTER TABLE events DROP CONSTRAINT IF EXISTS events_game_id_revision_key;"
          "ALTER TABLE rulings DROP CONSTRAINT IF EXISTS rulings_pkey;",
          sql));
      ASSERT_TRUE(s.ok()) << s;
      return;
    }
    std::string all = absl::StrCat(
        "DROP TRIGGER IF EXISTS events_no_UPDATE; DROP TRIGGER IF EXISTS events_no_DELETE;"
        "DROP TRIGGER IF EXISTS rulings_no_UPDATE; DROP TRIGGER IF EXISTS rulings_no_DELETE;"
        "DROP TRIGGER IF EXISTS checkpoints_no_UPDATE; DROP TRIGGER IF EXISTS "
        "checkpoints_no_DELETE;"
        "DROP TRIGGER IF EXISTS games_no_UPDATE; DROP TRIGGER IF EXISTS meta_no_UPDATE;",
        sql);
    absl::Status s = db_.Exec(all);
    ASSERT_TRUE(s.ok()) << s;
  }

  std::string Blob(const std::string& sql) {
    if (pg()) {
      absl::StatusOr<PgResult> r = pg_.Exec(sql);
      EXPECT_TRUE(r.ok()) << r.status();
      return r.ok() && r->rows() > 0 ? r->Bytes(0, 0) : std::string();
    }
    absl::StatusOr<Stmt> s = Stmt::Prepare(db_, sql);
    EXPECT_TRUE(s.ok()) << s.status();
    if (!s.ok()) return "";
    absl::StatusOr<bool> row = s->Step();
    return row.ok() && *row ? s->Text(0) : std::string();
  }

  void SetBlob(const std::string& sql, const std::string& blob) {
    Attack("");
    if (pg()) {
      absl::StatusOr<PgResult> r = pg_.Exec(
          absl::StrReplaceAll(sql, {{"?", "$1"}, {"x''", "''::bytea"}}), PgParams().Bytes(blob));
      ASSERT_TRUE(r.ok()) << r.status();
      return;
    }
    absl::StatusOr<Stmt> s = Stmt::Prepare(db_, sql);
    ASSERT_TRUE(s.ok()) << s.status();
    absl::Status run = s->BindBlob(1, blob).Run();
    ASSERT_TRUE(run.ok()) << run;
  }

  // Reads of the tampered database.
  std::unique_ptr<LogSource> Reader() {
    if (pg()) {
      auto r = PgLogReader::Open(uri_);
      EXPECT_TRUE(r.ok()) << r.status();
      return r.ok() ? std::unique_ptr<LogSource>(*std::move(r)) : nullptr;
    }
    auto r = LogReader::Open(dir_.File("ledger.db"));
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? std::make_unique<LogReader>(*std::move(r)) : nullptr;
  }

  AuditReport Audit(bool trusted_key = true, bool with_judge = true) {
    AuditOptions o;
    if (with_judge) o.judge = &judge_;
    if (trusted_key) o.public_key_der = public_key_;
    absl::StatusOr<AuditReport> report = (*OpenStore(pg() ? uri_ : dir_.path()))->Audit(o);
    EXPECT_TRUE(report.ok()) << report.status();
    return report.ok() ? *report : AuditReport();
  }

  // A game of 12 events: gameCreated, ten passes and Black's resignation.
  static std::vector<v1::Event> EndedGame(const std::string& id) {
    std::vector<v1::Event> events = {Created(id)};
    for (int i = 0; i < 10; ++i) events.push_back(Pass(i % 2 ? v1::WHITE : v1::BLACK));
    events.push_back(Resign(v1::BLACK));
    return events;
  }

  // Sixty more games after the fixture's, each an EndedGame recorded at once: game k holds
  // positions 29 + 12k to 40 + 12k, enough for every thread of the audit to check several batches.
  void AddGames() {
    LedgerOptions o = OptionsFor(GetParam(), dir_.path(), &uri_);
    o.judge = &judge_;
    auto ledger = Ledger::Open(o);
    ASSERT_TRUE(ledger.ok()) << ledger.status();
    for (int k = 0; k < 60; ++k) {
      std::string id = absl::StrCat("many", k);
      ASSERT_TRUE(
          (*ledger)
              ->AppendAndWait(AppendRequest::Game(id, ExpectedRevision::NoStream(), EndedGame(id)))
              .ok());
    }
  }

  // Re-judging the ruling at `position` gives a different one.
  void AlterRuling(int position) {
    const std::string where = absl::StrCat(" WHERE position = ", position);
    v1::Ruling ruling;
    ASSERT_TRUE(ruling.ParseFromString(Blob("SELECT ruling FROM rulings" + where)));
    ruling.set_against(v1::Ruling::BOTH);
    SetBlob("UPDATE rulings SET ruling = ?" + where, ruling.SerializeAsString());
  }

  // The audit with its games checked on `threads` threads beside the walk,
  // its tournaments re-derived by `referee` when given.
  AuditReport AuditOn(int threads, TournamentReferee* referee = nullptr) {
    AuditOptions o;
    o.judge = &judge_;
    o.tournaments = referee;
    o.public_key_der = public_key_;
    o.game_threads = threads;
    absl::StatusOr<AuditReport> report = (*OpenStore(pg() ? uri_ : dir_.path()))->Audit(o);
    EXPECT_TRUE(report.ok()) << report.status();
    return report.ok() ? *report : AuditReport();
  }

  // The report of the audit on the caller's thread alone, having checked
  // that the audit on 1, 2 and 4 game threads gives the same.
  AuditReport OneReportOnEveryThreadCount() {
    AuditReport one = AuditOn(0);
    for (int threads : {1, 2, 4}) {
      AuditReport r = AuditOn(threads);
      EXPECT_EQ(r.intact, one.intact) << threads;
      EXPECT_EQ(r.first_bad_position, one.first_bad_position) << threads;
      EXPECT_EQ(r.why, one.why) << threads;
      EXPECT_EQ(r.events, one.events) << threads;
      EXPECT_EQ(r.games, one.games) << threads;
      EXPECT_EQ(r.rulings, one.rulings) << threads;
      EXPECT_EQ(r.checkpoints, one.checkpoints) << threads;
      EXPECT_EQ(r.games_readjudicated, one.games_readjudicated) << threads;
      EXPECT_EQ(r.unsigned_tail, one.unsigned_tail) << threads;
      EXPECT_EQ(r.signed_root_hex, one.signed_root_hex) << threads;
    }
    return one;
  }

  TempDir dir_;
  std::string uri_;
  testing::ToyJudge judge_;
  std::string public_key_;
  Db db_;
  PgConn pg_;
};

TEST_P(TamperTest, TheUntouchedLedgerIsIntact) {
  AuditReport r = Audit();
  EXPECT_TRUE(r.intact) << r.why;
  EXPECT_EQ(r.events, 28u);
  EXPECT_EQ(r.games, 6u);
  EXPECT_EQ(r.checkpoints, 5u);
  EXPECT_EQ(r.games_readjudicated, 6u);
}

TEST_P(TamperTest, FlippedByteInAnEvent) {
  std::string e = Blob("SELECT event FROM events WHERE position = 12");
  e[e.size() / 2] ^= 0x04;
  SetBlob("UPDATE events SET event = ? WHERE position = 12", e);
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 12u) << r.why;
}

TEST_P(TamperTest, FlippedByteWithItsLeafHashRecomputed) {
  std::string e = Blob("SELECT event FROM events WHERE position = 12");
  e[e.size() - 1] ^= 0x01;
  SetBlob("UPDATE events SET event = ? WHERE position = 12", e);
  SetBlob("UPDATE events SET leaf_hash = ? WHERE position = 12", std::string(AsBytes(LeafHash(e))));
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_LE(r.first_bad_position, 12u);
  EXPECT_NE(r.why.find("Merkle root"), std::string::npos) << r.why;
}

TEST_P(TamperTest, DeletedRow) {
  Attack("DELETE FROM events WHERE position = 7");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 7u);
  EXPECT_NE(r.why.find("missing"), std::string::npos) << r.why;
}

TEST_P(TamperTest, DeletedRowWithTheRestRenumbered) {
  // Position 10 is g4's revision 2; the attacker closes both gaps.
  Attack(
      "DELETE FROM events WHERE position = 10; DELETE FROM rulings WHERE position = 10;"
      "UPDATE events SET position = position - 1 WHERE position > 10;"
      "UPDATE rulings SET position = position - 1 WHERE position > 10;"
      "UPDATE events SET revision = revision - 1 WHERE game_id = 'g4' AND revision > 2;");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_NE(r.why.find("Merkle root"), std::string::npos) << r.why;
}

TEST_P(TamperTest, SwappedRows) {
  // Positions 7 and 8 are passes of g1 and g2; swapping their bytes keeps
  // every stream contiguous, so only the Merkle root can tell.
  Attack(
      "UPDATE events SET position = -7 WHERE position = 7;"
      "UPDATE events SET position = 7 WHERE position = 8;"
      "UPDATE events SET position = 8 WHERE position = -7;");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_LE(r.first_bad_position, 7u) << r.why;
}

TEST_P(TamperTest, SwappedContentKeepingGameAndRevision) {
  // Positions 7 and 17 are g1's revisions 2 and 4, both passes by Black.
  std::string a = Blob("SELECT event FROM events WHERE position = 7");
  std::string b = Blob("SELECT event FROM events WHERE position = 17");
  std::string la = Blob("SELECT leaf_hash FROM events WHERE position = 7");
  std::string lb = Blob("SELECT leaf_hash FROM events WHERE position = 17");
  SetBlob("UPDATE events SET event = ? WHERE position = 7", b);
  SetBlob("UPDATE events SET leaf_hash = ? WHERE position = 7", lb);
  SetBlob("UPDATE events SET event = ? WHERE position = 17", a);
  SetBlob("UPDATE events SET leaf_hash = ? WHERE position = 17", la);
  Attack(
      "UPDATE events SET idempotency_key = 'swap' WHERE position = 7;"
      "UPDATE events SET idempotency_key = 'g1-1' WHERE position = 17;"
      "UPDATE events SET idempotency_key = 'g1-3' WHERE position = 7;");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_NE(r.why.find("Merkle root"), std::string::npos) << r.why;
}

TEST_P(TamperTest, TailTruncatedPastACheckpoint) {
  Attack("DELETE FROM events WHERE position > 20; DELETE FROM rulings WHERE position > 20;");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 21u);
  EXPECT_NE(r.why.find("truncated"), std::string::npos) << r.why;
}

TEST_P(TamperTest, DeletedRuling) {
  Attack("DELETE FROM rulings WHERE position = 12");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 12u);
  EXPECT_NE(r.why.find("re-adjudication"), std::string::npos) << r.why;
}

TEST_P(TamperTest, AlteredRuling) {
  v1::Ruling ruling;
  ASSERT_TRUE(ruling.ParseFromString(Blob("SELECT ruling FROM rulings WHERE position = 12")));
  ruling.set_against(v1::Ruling::BOTH);
  SetBlob("UPDATE rulings SET ruling = ? WHERE position = 12", ruling.SerializeAsString());
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 12u) << r.why;
}

// Unknown fields change no ruling's meaning, so no re-adjudication would see
// them; the audit refuses them as bytes the writer never stores.
TEST_P(TamperTest, RulingWithAnUnknownField) {
  std::string ruling = Blob("SELECT ruling FROM rulings WHERE position = 12");
  ASSERT_FALSE(ruling.empty());
  ruling += std::string("\xb8\x3e\x01", 3);  // field 999, varint 1
  v1::Ruling parsed;
  ASSERT_TRUE(parsed.ParseFromString(ruling));
  SetBlob("UPDATE rulings SET ruling = ? WHERE position = 12", ruling);
  AuditReport r = Audit(/*trusted_key=*/true, /*with_judge=*/false);
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 12u) << r.why;
  EXPECT_NE(r.why.find("not canonical"), std::string::npos) << r.why;
}

TEST_P(TamperTest, ForgedCheckpointRoot) {
  v1::Checkpoint c;
  ASSERT_TRUE(c.ParseFromString(Blob("SELECT checkpoint FROM checkpoints WHERE tree_size = 25")));
  std::string root = c.root_hash();
  root[0] ^= 1;
  c.set_root_hash(root);
  SetBlob("UPDATE checkpoints SET checkpoint = ? WHERE tree_size = 25", c.SerializeAsString());
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_NE(r.why.find("signature"), std::string::npos) << r.why;
}

TEST_P(TamperTest, ResignedWithTheAttackersKey) {
  // The attacker rewrites an event, then re-signs every checkpoint with a
  // key of their own and records it as the ledger's key.
  std::string e = Blob("SELECT event FROM events WHERE position = 3");
  e[e.size() - 1] ^= 0x01;
  SetBlob("UPDATE events SET event = ?, leaf_hash = x'' WHERE position = 3", e);
  SetBlob("UPDATE events SET leaf_hash = ? WHERE position = 3", std::string(AsBytes(LeafHash(e))));
  TempDir attacker_dir;
  auto attacker = Signer::LoadOrCreate(attacker_dir.path() + "/k");
  ASSERT_TRUE(attacker.ok());
  SetBlob("UPDATE meta SET value = ? WHERE key = 'public_key'", attacker->public_key_der());
  std::unique_ptr<LogSource> reader = Reader();
  ASSERT_NE(reader, nullptr);
  auto cps = reader->Checkpoints();
  ASSERT_TRUE(cps.ok());
  auto leaves = reader->LeafHashes(28);
  ASSERT_TRUE(leaves.ok());
  for (const v1::Checkpoint& c : *cps) {
    auto forged = SignCheckpoint(*attacker, c.tree_size(),
                                 MerkleRoot(std::span<const Hash>(*leaves).first(c.tree_size())),
                                 absl::Now(), c.reason(), {});
    ASSERT_TRUE(forged.ok());
    SetBlob(absl::StrCat("UPDATE checkpoints SET checkpoint = ? WHERE tree_size = ", c.tree_size()),
            forged->SerializeAsString());
  }
  // Against the key the database itself now carries, it looks intact...
  EXPECT_TRUE(Audit(/*trusted_key=*/false).intact);
  // ...but not against the ledger's published key.
  AuditReport r = Audit(/*trusted_key=*/true);
  EXPECT_FALSE(r.intact);
  EXPECT_NE(r.why.find("another key"), std::string::npos) << r.why;
}

TEST_P(TamperTest, ChangedRulesPin) {
  Attack("UPDATE games SET rules_pin = 'toy v0' WHERE game_id = 'g3'");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_NE(r.why.find("toy v0"), std::string::npos) << r.why;
}

// TMPDIR pointed at `dir` for the scope, restored after.
class ScopedTmpdir {
 public:
  explicit ScopedTmpdir(const std::string& dir) {
    if (const char* old = getenv("TMPDIR")) old_ = old;
    setenv("TMPDIR", dir.c_str(), 1);
  }
  ~ScopedTmpdir() {
    if (old_) {
      setenv("TMPDIR", old_->c_str(), 1);
    } else {
      unsetenv("TMPDIR");
    }
  }

 private:
  std::optional<std::string> old_;
};

// The audit reads the database it is given where it is, on either backend:
// with no temporary directory to write in, it still runs, and finds a
// changed event as it does on SQLite, in the same words.
TEST_P(TamperTest, TheAuditNeedsNoTemporaryDirectory) {
  ScopedTmpdir no_tmp(dir_.File("no-such-directory"));
  AuditReport intact = Audit();
  EXPECT_TRUE(intact.intact) << intact.why;
  EXPECT_EQ(intact.events, 28u);
  EXPECT_EQ(intact.games_readjudicated, 6u);

  std::string e = Blob("SELECT event FROM events WHERE position = 12");
  e[e.size() / 2] ^= 0x04;
  SetBlob("UPDATE events SET event = ? WHERE position = 12", e);
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 12u);
  EXPECT_EQ(r.why, "the event's bytes do not match its recorded leaf hash");
}

// Rows the database holds are the rows audited: a second row at a position
// (PostgreSQL, its primary key dropped) is a finding, not a row passed over.
TEST_P(TamperTest, ADuplicatedPositionIsFound) {
  if (!pg()) GTEST_SKIP() << "a SQLite ledger's position is its rowid: no two rows share one";
  Attack(
      "ALTER TABLE events DROP CONSTRAINT events_game_id_idempotency_key_key;"
      "INSERT INTO events SELECT * FROM events WHERE position = 7");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.why, "position 7 appears twice");
}

// The games are checked on threads beside the walk, each game's events on
// one; whatever their number, the audit reports what it finds in the order
// of the log: structure, then ruling rows, then re-adjudication, each first
// by position.
TEST_P(TamperTest, EveryThreadCountGivesTheSameReport) {
  AddGames();
  AuditReport intact = OneReportOnEveryThreadCount();
  EXPECT_TRUE(intact.intact) << intact.why;
  EXPECT_EQ(intact.events, 28u + 60 * 12);
  EXPECT_EQ(intact.games, 66u);
  EXPECT_EQ(intact.games_readjudicated, 66u);
  // Two games' rulings differ; the earlier in the log is reported.
  AlterRuling(300);  // many22, revision 8
  AlterRuling(153);  // many10, revision 5
  AuditReport differs = OneReportOnEveryThreadCount();
  EXPECT_FALSE(differs.intact);
  EXPECT_EQ(differs.first_bad_position, 153u) << differs.why;
  EXPECT_NE(differs.why.find("game 'many10' revision 5"), std::string::npos) << differs.why;
  // A damaged ruling row, later in the log, comes before both.
  std::string ruling = Blob("SELECT ruling FROM rulings WHERE position = 500");
  ASSERT_FALSE(ruling.empty());
  SetBlob("UPDATE rulings SET ruling = ? WHERE position = 500",
          ruling + std::string("\xb8\x3e\x01", 3));  // field 999, varint 1
  AuditReport damaged = OneReportOnEveryThreadCount();
  EXPECT_EQ(damaged.first_bad_position, 500u) << damaged.why;
  EXPECT_NE(damaged.why.find("not canonical"), std::string::npos) << damaged.why;
}

// A structural fault is reported before a re-adjudication difference earlier
// in the log, whichever thread finds which: the walk's own (a leaf hash) or
// a game checker's (a stream).
TEST_P(TamperTest, AStructuralFaultComesBeforeAnEarlierRulingThatDiffers) {
  AddGames();
  AlterRuling(153);                                                // many10, revision 5
  Attack("UPDATE events SET revision = 99 WHERE position = 631");  // many50, revision 3
  AuditReport stream = OneReportOnEveryThreadCount();
  EXPECT_FALSE(stream.intact);
  EXPECT_EQ(stream.first_bad_position, 631u) << stream.why;
  EXPECT_EQ(stream.why, "game 'many50' jumps from revision 2 to 99");
  // The walk finds a later fault of its own before the stream's is checked.
  std::string late = Blob("SELECT event FROM events WHERE position = 700");
  late[late.size() / 2] ^= 0x04;
  SetBlob("UPDATE events SET event = ? WHERE position = 700", late);
  EXPECT_EQ(OneReportOnEveryThreadCount().first_bad_position, 631u);
  std::string e = Blob("SELECT event FROM events WHERE position = 400");
  e[e.size() / 2] ^= 0x04;
  SetBlob("UPDATE events SET event = ? WHERE position = 400", e);
  AuditReport leaf = OneReportOnEveryThreadCount();
  EXPECT_EQ(leaf.first_bad_position, 400u) << leaf.why;
  EXPECT_EQ(leaf.why, "the event's bytes do not match its recorded leaf hash");
}

// A game event's bytes are re-hashed by its game's checker while the walk
// folds the stored leaf hash into its tree: an event changed under its
// stored hash (the roots still match), or a stored hash changed under its
// event (the next root then differs), is named at its own position, in the
// walk's words and with its counts, on every number of threads; the log's
// last event, in the last batch handed on, too.
TEST_P(TamperTest, ALeafHashIsNamedAtItsEventWhicheverThreadChecksIt) {
  AddGames();
  const uint64_t last = 28 + 60 * 12;
  const std::string at_last = absl::StrCat(" WHERE position = ", last);
  const std::string event = Blob("SELECT event FROM events" + at_last);
  std::string changed = event;
  changed[changed.size() / 2] ^= 0x04;
  SetBlob("UPDATE events SET event = ?" + at_last, changed);
  AuditReport r = OneReportOnEveryThreadCount();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, last) << r.why;
  EXPECT_EQ(r.why, "the event's bytes do not match its recorded leaf hash");
  EXPECT_EQ(r.events, last - 1);
  SetBlob("UPDATE events SET event = ?" + at_last, event);
  ASSERT_TRUE(OneReportOnEveryThreadCount().intact);

  std::string leaf = Blob("SELECT leaf_hash FROM events WHERE position = 400");
  leaf[0] ^= 0x01;
  SetBlob("UPDATE events SET leaf_hash = ? WHERE position = 400", leaf);
  r = OneReportOnEveryThreadCount();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 400u) << r.why;
  EXPECT_EQ(r.why, "the event's bytes do not match its recorded leaf hash");
  EXPECT_EQ(r.events, 399u);
}

// The tournaments' referee follows the log in position order whatever the
// number of game threads: at each tournament event it has been handed every
// game event before it and none after, on the caller's thread; its finding
// is reported as a re-adjudication's, and stops it as one does.
TEST_P(TamperTest, TheRefereeFollowsTheLogOnEveryThreadCount) {
  {
    LedgerOptions o = OptionsFor(GetParam(), dir_.path(), &uri_);
    o.judge = &judge_;
    auto ledger = Ledger::Open(o);
    ASSERT_TRUE(ledger.ok()) << ledger.status();
    // Game many<k> (12 events, ended), then revision k + 1 of tournament T.
    for (int k = 0; k < 40; ++k) {
      std::string id = absl::StrCat("many", k);
      ASSERT_TRUE(
          (*ledger)
              ->AppendAndWait(AppendRequest::Game(id, ExpectedRevision::NoStream(), EndedGame(id)))
              .ok());
      v1::TournamentEvent t;
      if (k == 0) {
        t.mutable_created()->set_tournament_id("T");
      } else {
        t.mutable_player_added()->mutable_player()->set_id(absl::StrCat("p", k));
      }
      ASSERT_TRUE(
          (*ledger)
              ->AppendAndWait(AppendRequest::Tournament("T", ExpectedRevision::Exactly(k), {t}))
              .ok());
    }
  }
  // The five games of SetUp are over before T begins; "live" never ends.
  std::vector<std::string> expected;
  for (int k = 0; k < 40; ++k) expected.push_back(absl::StrCat("T@", k + 1, ": ", 6 + k, " over"));
  expected.push_back("finish: 45 over");
  for (int threads : {0, 1, 2, 4}) {
    RecordingReferee referee;
    AuditReport r = AuditOn(threads, &referee);
    EXPECT_TRUE(r.intact) << r.why;
    EXPECT_EQ(r.tournaments, 1u);
    EXPECT_EQ(r.tournaments_rederived, 1u) << threads;
    EXPECT_EQ(referee.seen, expected) << threads;
    EXPECT_FALSE(referee.off_thread()) << threads;
  }
  // A ruling of many10 (position 28 + 10 * 13 + 5) differs: the referee
  // sees nothing after it, and the finding is the ruling's.
  AlterRuling(28 + 10 * 13 + 5);
  expected.resize(10);
  for (int threads : {0, 1, 2, 4}) {
    RecordingReferee referee;
    AuditReport r = AuditOn(threads, &referee);
    EXPECT_EQ(r.first_bad_position, 28u + 10 * 13 + 5) << r.why;
    EXPECT_EQ(r.tournaments_rederived, 0u) << threads;
    EXPECT_EQ(referee.seen, expected) << threads;
  }
  // A referee's finding before it is reported instead, at its event.
  for (int threads : {0, 1, 2, 4}) {
    RecordingReferee referee;
    referee.refuse_at = 4;
    AuditReport r = AuditOn(threads, &referee);
    EXPECT_EQ(r.first_bad_position, 28u + 4 * 13) << r.why;
    EXPECT_EQ(r.why, "tournament 'T' refused") << threads;
    EXPECT_EQ(referee.seen.size(), 4u) << threads;
  }
}

// Each game's fold goes once its last event is re-judged, whichever thread
// checks it: kept to the end, the folds of a 200,000-event log were 72 MB
// and a tenth of the audit's CPU in page faults (tests/bench/README.md).
TEST_P(TamperTest, EachGamesFoldGoesAfterItsLastEvent) {
  AddGames();  // 60 games after SetUp's six, one after another
  for (int threads : {0, 1, 2, 4}) {
    CountingJudge counting;
    AuditOptions o;
    o.judge = &counting;
    o.public_key_der = public_key_;
    o.game_threads = threads;
    absl::StatusOr<AuditReport> r = (*OpenStore(pg() ? uri_ : dir_.path()))->Audit(o);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->intact) << r->why;
    EXPECT_EQ(r->games_readjudicated, 66u) << threads;
    // SetUp's six games are open together (interleaved); the others follow
    // one at a time on each checker.
    EXPECT_LE(counting.most.load(), 6 + std::max(threads, 1)) << threads;
    EXPECT_EQ(counting.live.load(), 0) << threads;
  }
}

// Progress is reported on the caller's thread, the last call (total, total)
// once every game is checked.
TEST_P(TamperTest, ProgressEndsOnTheCallersThreadOnceEveryGameIsChecked) {
  AddGames();
  AuditOptions o;
  o.judge = &judge_;
  o.public_key_der = public_key_;
  o.game_threads = 2;
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<std::pair<uint64_t, uint64_t>> calls;
  o.progress = [&](uint64_t done, uint64_t total) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    calls.emplace_back(done, total);
  };
  absl::StatusOr<AuditReport> r = (*OpenStore(pg() ? uri_ : dir_.path()))->Audit(o);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->intact) << r->why;
  ASSERT_FALSE(calls.empty());
  EXPECT_EQ(calls.back(), std::make_pair(r->events, r->events));
}

// The signatures are checked while the log is walked; a bad one is still
// reported before anything the walk finds.
TEST_P(TamperTest, ABadSignatureComesBeforeTheWalksFindings) {
  std::string e = Blob("SELECT event FROM events WHERE position = 3");
  e[e.size() / 2] ^= 0x04;
  SetBlob("UPDATE events SET event = ? WHERE position = 3", e);
  v1::Checkpoint c;
  ASSERT_TRUE(c.ParseFromString(Blob("SELECT checkpoint FROM checkpoints WHERE tree_size = 25")));
  c.set_root_hash(std::string(32, 'x'));
  SetBlob("UPDATE checkpoints SET checkpoint = ? WHERE tree_size = 25", c.SerializeAsString());
  AuditReport r = OneReportOnEveryThreadCount();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 0u);
  EXPECT_NE(r.why.find("signature"), std::string::npos) << r.why;
}

// PostgreSQL's snapshot is read through cursors a page at a time: every
// page size, across and at the pages' edges, reads every row once.
TEST_P(TamperTest, ThePostgresSnapshotIsReadAPageAtATime) {
  if (!pg()) GTEST_SKIP() << "SQLite steps its rows one at a time";
  AuditOptions o;
  o.judge = &judge_;
  o.public_key_der = public_key_;
  AuditReport whole = Audit();
  ASSERT_TRUE(whole.intact) << whole.why;
  ASSERT_GT(whole.rulings, 0u);
  for (int page : {1, 2, 3, 14, 27, 28, 29}) {
    absl::StatusOr<std::unique_ptr<AuditSource>> source = OpenPgAuditSource(uri_, page);
    ASSERT_TRUE(source.ok()) << source.status();
    absl::StatusOr<AuditReport> r = AuditLog(**source, o);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->intact) << page << ": " << r->why;
    EXPECT_EQ(r->events, 28u) << page;
    EXPECT_EQ(r->rulings, whole.rulings) << page;
    EXPECT_EQ(r->games_readjudicated, 6u) << page;
  }
  Attack(
      "ALTER TABLE events DROP CONSTRAINT events_game_id_idempotency_key_key;"
      "INSERT INTO events SELECT * FROM events WHERE position = 14");
  // The second row of position 14 inside a page, first in one, last in one.
  for (int page : {13, 14, 15}) {
    absl::StatusOr<std::unique_ptr<AuditSource>> source = OpenPgAuditSource(uri_, page);
    ASSERT_TRUE(source.ok()) << source.status();
    absl::StatusOr<AuditReport> r = AuditLog(**source, o);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->why, "position 14 appears twice") << page;
  }
}

class BundleTamperTest : public TamperTest {
 protected:
  v1::AuditBundle Export(const std::string& game) {
    std::unique_ptr<LogSource> reader = Reader();
    if (reader == nullptr) return v1::AuditBundle();
    auto bundle = ExportBundle(*reader, game);
    EXPECT_TRUE(bundle.ok()) << bundle.status();
    return bundle.ok() ? *bundle : v1::AuditBundle();
  }
  AuditReport Check(const v1::AuditBundle& b, bool trusted = true) {
    AuditOptions o;
    o.judge = &judge_;
    if (trusted) o.public_key_der = public_key_;
    auto r = AuditBundle(b, o);
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : AuditReport();
  }
};

TEST_P(BundleTamperTest, AnIntactBundleVerifiesAlone) {
  v1::AuditBundle b = Export("g2");
  EXPECT_EQ(b.entries_size(), 5);
  EXPECT_EQ(b.checkpoint().tree_size(), 23u);  // g2's resignation
  AuditReport r = Check(b);
  EXPECT_TRUE(r.intact) << r.why;
  EXPECT_EQ(r.events, 5u);
  // The live game has no checkpoint covering it yet.
  std::unique_ptr<LogSource> reader = Reader();
  ASSERT_NE(reader, nullptr);
  EXPECT_TRUE(absl::IsFailedPrecondition(ExportBundle(*reader, "live").status()));
  EXPECT_TRUE(absl::IsNotFound(ExportBundle(*reader, "nope").status()));
}

TEST_P(BundleTamperTest, EveryChangeToABundleIsCaught) {
  const v1::AuditBundle good = Export("g2");
  v1::AuditBundle b = good;
  std::string* bytes = b.mutable_entries(2)->mutable_entry()->mutable_event();
  (*bytes)[bytes->size() - 1] ^= 1;
  EXPECT_FALSE(Check(b).intact);

  b = good;
  b.mutable_entries()->DeleteSubrange(2, 1);
  EXPECT_FALSE(Check(b).intact);

  b = good;  // the resignation left off the end
  b.mutable_entries()->RemoveLast();
  AuditReport cut = Check(b);
  EXPECT_FALSE(cut.intact);
  EXPECT_NE(cut.why.find("left out"), std::string::npos) << cut.why;

  b = good;
  std::string* h = b.mutable_entries(1)->mutable_inclusion_proof(0);
  (*h)[0] ^= 1;
  EXPECT_FALSE(Check(b).intact);

  b = good;
  b.mutable_entries(1)->mutable_entry()->set_position(b.entries(1).entry().position() + 1);
  EXPECT_FALSE(Check(b).intact);

  b = good;
  b.mutable_entries(4)->mutable_entry()->clear_rulings();
  AuditReport r = Check(b);
  EXPECT_FALSE(r.intact);
  EXPECT_NE(r.why.find("re-adjudication"), std::string::npos) << r.why;

  b = good;
  b.mutable_checkpoint()->set_tree_size(24);
  EXPECT_FALSE(Check(b).intact);

  TempDir other;
  auto attacker = Signer::LoadOrCreate(other.path() + "/k");
  ASSERT_TRUE(attacker.ok());
  b = good;
  b.set_public_key(attacker->public_key_der());
  EXPECT_FALSE(Check(b, /*trusted=*/false).intact);  // the old signature fails
}

INSTANTIATE_TEST_SUITE_P(Backends, TamperTest, ::testing::ValuesIn(testing::kAllBackends),
                         BackendName);
INSTANTIATE_TEST_SUITE_P(Backends, BundleTamperTest, ::testing::ValuesIn(testing::kAllBackends),
                         BackendName);

}  // namespace
}  // namespace arbiter::ledger
