// Tournament streams in the one log (issue 44.1, ledger/README.md
// "Tournament streams"), on both backends: appended through the one write
// path with its checks, read back, listed apart from games, and audited as
// game events are: a changed, deleted, reordered or relabelled tournament
// event fails the audit. And the schema's upgrade from version 2.
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/synchronization/notification.h"
#include "gtest/gtest.h"
#include "ledger/audit.h"
#include "ledger/hash.h"
#include "ledger/internal/schema_version.h"
#include "ledger/ledger.h"
#include "ledger/postgres/pg.h"
#include "ledger/sqlite.h"
#include "ledger/store.h"
#include "ledger/stream.h"
#include "tests/ledger/backend.h"
#include "tests/ledger/toy_judge.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"

namespace arbiter::ledger {
namespace {

using ::arbiter::testing::TempDir;
using testing::Backend;
using testing::BackendName;
using testing::OptionsFor;

v1::TournamentEvent Created(const std::string& id, const std::string& title = "Spring Open") {
  v1::TournamentEvent e;
  e.set_actor("director");
  e.mutable_created()->set_tournament_id(id);
  e.mutable_created()->set_title(title);
  return e;
}

v1::TournamentEvent PlayerAdded(const std::string& player) {
  v1::TournamentEvent e;
  e.set_actor("director");
  e.mutable_player_added()->mutable_player()->set_id(player);
  e.mutable_player_added()->mutable_player()->set_name(absl::StrCat("Name of ", player));
  return e;
}

class TournamentStreamTest : public ::testing::TestWithParam<Backend> {
 protected:
  bool pg() const { return GetParam() == Backend::kPostgres; }

  void Open() {
    LedgerOptions o = OptionsFor(GetParam(), dir_.path(), &uri_);
    o.judge = &judge_;
    auto ledger = Ledger::Open(o);
    ASSERT_TRUE(ledger.ok()) << ledger.status();
    ledger_ = *std::move(ledger);
    public_key_ = ledger_->identity().public_key_der();
  }

  // A game, the tournament T1 of four events between its moves, the game's
  // end, and a checkpoint over all: positions 1 g/created, 2..5 T1, 6 g/pass,
  // 7 g/resign.
  void Fill() {
    ASSERT_TRUE(ledger_
                    ->AppendAndWait(AppendRequest::Game("g", ExpectedRevision::NoStream(),
                                                        {testing::Created("g")}))
                    .ok());
    ASSERT_TRUE(ledger_
                    ->AppendAndWait(AppendRequest::Tournament("T1", ExpectedRevision::NoStream(),
                                                              {Created("T1"), PlayerAdded("a")}))
                    .ok());
    ASSERT_TRUE(ledger_
                    ->AppendAndWait(AppendRequest::Tournament("T1", ExpectedRevision::Exactly(2),
                                                              {PlayerAdded("b")}))
                    .ok());
    ASSERT_TRUE(ledger_
                    ->AppendAndWait(AppendRequest::Tournament("T1", ExpectedRevision::Exactly(3),
                                                              {PlayerAdded("c")}))
                    .ok());
    ASSERT_TRUE(ledger_
                    ->AppendAndWait(
                        AppendRequest::Game("g", ExpectedRevision::Exactly(1),
                                            {testing::Pass(v1::BLACK), testing::Resign(v1::WHITE)}))
                    .ok());
    ASSERT_TRUE(ledger_->Checkpoint().ok());
  }

  // The attacker's SQL, with the append-only triggers and uniqueness off.
  void Attack(const std::string& sql) {
    ledger_.reset();
    if (pg()) {
      absl::StatusOr<PgConn> conn = PgConn::Connect(uri_);
      ASSERT_TRUE(conn.ok()) << conn.status();
      absl::Status s = conn->Run(
          absl::StrCat("ALTER TABLE events DISABLE TRIGGER USER;"
                       "ALTER TABLE events DROP CONSTRAINT IF EXISTS events_pkey;"
                       "ALTER TABLE events DROP CONSTRAINT IF EXISTS events_game_id_revision_key;",
                       sql));
      ASSERT_TRUE(s.ok()) << s;
      return;
    }
    absl::StatusOr<Db> db = Db::Open(dir_.File("ledger.db"), SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db.ok()) << db.status();
    absl::Status s = db->Exec(absl::StrCat(
        "DROP TRIGGER IF EXISTS events_no_UPDATE; DROP TRIGGER IF EXISTS events_no_DELETE;", sql));
    ASSERT_TRUE(s.ok()) << s;
  }

  std::string Blob(const std::string& sql) {
    if (pg()) {
      absl::StatusOr<PgConn> conn = PgConn::Connect(uri_);
      EXPECT_TRUE(conn.ok()) << conn.status();
      if (!conn.ok()) return "";
      absl::StatusOr<PgResult> r = conn->Exec(sql);
      EXPECT_TRUE(r.ok()) << r.status();
      return r.ok() && r->rows() > 0 ? r->Bytes(0, 0) : std::string();
    }
    absl::StatusOr<Db> db = Db::Open(dir_.File("ledger.db"), SQLITE_OPEN_READONLY);
    EXPECT_TRUE(db.ok()) << db.status();
    if (!db.ok()) return "";
    absl::StatusOr<Stmt> s = Stmt::Prepare(*db, sql);
    EXPECT_TRUE(s.ok()) << s.status();
    if (!s.ok()) return "";
    absl::StatusOr<bool> row = s->Step();
    return row.ok() && *row ? s->Text(0) : std::string();
  }

  void SetBlob(const std::string& sql, const std::string& blob) {
    Attack("");
    if (pg()) {
      absl::StatusOr<PgConn> conn = PgConn::Connect(uri_);
      ASSERT_TRUE(conn.ok()) << conn.status();
      absl::StatusOr<PgResult> r =
          conn->Exec(absl::StrReplaceAll(sql, {{"?", "$1"}}), PgParams().Bytes(blob));
      ASSERT_TRUE(r.ok()) << r.status();
      return;
    }
    absl::StatusOr<Db> db = Db::Open(dir_.File("ledger.db"), SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db.ok()) << db.status();
    absl::StatusOr<Stmt> s = Stmt::Prepare(*db, sql);
    ASSERT_TRUE(s.ok()) << s.status();
    absl::Status run = s->BindBlob(1, blob).Run();
    ASSERT_TRUE(run.ok()) << run;
  }

  // With the toy judge, or (the data folder's games, judged under cn-2002)
  // without re-adjudication.
  AuditReport Audit(bool with_judge = true) {
    AuditOptions o;
    if (with_judge) o.judge = &judge_;
    o.public_key_der = public_key_;
    absl::StatusOr<AuditReport> report = (*OpenStore(pg() ? uri_ : dir_.path()))->Audit(o);
    EXPECT_TRUE(report.ok()) << report.status();
    return report.ok() ? *report : AuditReport();
  }

  TempDir dir_;
  std::string uri_;
  testing::ToyJudge judge_;
  std::string public_key_;
  std::unique_ptr<Ledger> ledger_;
};

TEST_P(TournamentStreamTest, AppendedReadListedAndAudited) {
  Open();
  Fill();
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = ledger_->ReadTournament("T1");
  ASSERT_TRUE(events.ok()) << events.status();
  ASSERT_EQ(events->size(), 4u);
  EXPECT_EQ((*events)[0].created().title(), "Spring Open");
  EXPECT_EQ((*events)[3].player_added().player().id(), "c");
  EXPECT_EQ(ledger_->log().ListTournaments().value_or(std::vector<std::string>{}),
            std::vector<std::string>{"T1"});
  // ListGames knows games only; the tournament's entries stand in the log.
  absl::StatusOr<std::vector<GameListing>> games = ledger_->log().ListGames(0, 10);
  ASSERT_TRUE(games.ok());
  ASSERT_EQ(games->size(), 1u);
  EXPECT_EQ((*games)[0].game_id, "g");
  absl::StatusOr<std::vector<v1::LedgerEntry>> log = ledger_->log().ReadLog(0, 10);
  ASSERT_TRUE(log.ok());
  ASSERT_EQ(log->size(), 7u);
  EXPECT_EQ((*log)[1].game_id(), "tournaments/T1");
  EXPECT_TRUE((*log)[1].rulings().empty());
  EXPECT_TRUE(absl::IsNotFound(ledger_->ReadTournament("T2").status()));

  AuditReport r = Audit();
  EXPECT_TRUE(r.intact) << r.why;
  EXPECT_EQ(r.events, 7u);
  EXPECT_EQ(r.games, 1u);
  EXPECT_EQ(r.tournaments, 1u);
}

// The leaf of a tournament entry is domain-separated (stream.h).
TEST_P(TournamentStreamTest, ATournamentLeafHashesItsPrefixedBytes) {
  Open();
  Fill();
  std::string event = Blob("SELECT event FROM events WHERE position = 2");
  std::string leaf = Blob("SELECT leaf_hash FROM events WHERE position = 2");
  ASSERT_FALSE(event.empty());
  EXPECT_EQ(leaf, AsBytes(LeafHash(absl::StrCat(absl::string_view("\0", 1),
                                                "arbiter.v1.TournamentEvent\n", event))));
  EXPECT_NE(leaf, AsBytes(LeafHash(event)));
}

TEST_P(TournamentStreamTest, AStaleRevisionIsAborted) {
  Open();
  Fill();
  absl::StatusOr<std::vector<v1::LedgerEntry>> stale = ledger_->AppendAndWait(
      AppendRequest::Tournament("T1", ExpectedRevision::Exactly(2), {PlayerAdded("d")}));
  EXPECT_TRUE(absl::IsAborted(stale.status())) << stale.status();
  EXPECT_NE(stale.status().message().find("revision 4"), std::string::npos) << stale.status();
  EXPECT_EQ(ledger_->ReadTournament("T1")->size(), 4u);
}

// One request, one asynchronous append for every kind of stream
// (ledger.h): a tournament's append is queued and answered as a game's is,
// without a fold (no judge sees it); a request no stream takes is refused
// with INVALID_ARGUMENT, through either call, and writes nothing.
TEST_P(TournamentStreamTest, ATournamentIsAppendedAsynchronouslyThroughTheOneRequest) {
  Open();
  absl::Notification answered;
  absl::StatusOr<Appended> got = absl::UnknownError("not answered");
  ledger_->Append(AppendRequest::Tournament("T1", ExpectedRevision::NoStream(), {Created("T1")}),
                  [&](absl::StatusOr<Appended> r) {
                    got = std::move(r);
                    answered.Notify();
                  });
  answered.WaitForNotification();
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->entries.size(), 1u);
  EXPECT_EQ(got->entries[0].game_id(), "tournaments/T1");
  EXPECT_EQ(got->fold, nullptr);
  EXPECT_EQ(ledger_->ReadTournament("T1")->size(), 1u);

  AppendRequest preview =
      AppendRequest::Tournament("T1", ExpectedRevision::Exactly(1), {PlayerAdded("a")});
  preview.preview = true;
  AppendRequest mixed = AppendRequest::Game("g", ExpectedRevision::NoStream(), {});
  mixed.tournament_events = {Created("g")};
  AppendRequest late_venue =
      AppendRequest::Tournament("T1", ExpectedRevision::Exactly(1), {PlayerAdded("a")});
  late_venue.venue_key_der = "venue-key-der";
  for (const AppendRequest& bad : {preview, mixed, late_venue}) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> waited = ledger_->AppendAndWait(bad);
    EXPECT_TRUE(absl::IsInvalidArgument(waited.status())) << waited.status();
    absl::Status queued = absl::UnknownError("not answered");
    ledger_->Append(bad, [&](absl::StatusOr<Appended> r) { queued = r.status(); });
    EXPECT_TRUE(absl::IsInvalidArgument(queued)) << queued;
  }
  EXPECT_EQ(*ledger_->log().Head(), 1u);
}

TEST_P(TournamentStreamTest, AStreamMustBeginWithItsOwnCreated) {
  Open();
  absl::StatusOr<std::vector<v1::LedgerEntry>> headless = ledger_->AppendAndWait(
      AppendRequest::Tournament("T2", ExpectedRevision::Any(), {PlayerAdded("a")}));
  EXPECT_TRUE(absl::IsNotFound(headless.status())) << headless.status();
  absl::StatusOr<std::vector<v1::LedgerEntry>> other = ledger_->AppendAndWait(
      AppendRequest::Tournament("T2", ExpectedRevision::Any(), {Created("T3")}));
  EXPECT_TRUE(absl::IsInvalidArgument(other.status())) << other.status();
  ASSERT_TRUE(
      ledger_
          ->AppendAndWait(AppendRequest::Tournament("T2", ExpectedRevision::Any(), {Created("T2")}))
          .ok());
  absl::StatusOr<std::vector<v1::LedgerEntry>> again = ledger_->AppendAndWait(
      AppendRequest::Tournament("T2", ExpectedRevision::Any(), {Created("T2")}));
  EXPECT_TRUE(absl::IsAlreadyExists(again.status())) << again.status();
  EXPECT_TRUE(absl::IsInvalidArgument(ledger_
                                          ->AppendAndWait(AppendRequest::Tournament(
                                              "a/b", ExpectedRevision::Any(), {Created("a/b")}))
                                          .status()));
  // A game cannot be written under a tournament's stream name.
  absl::StatusOr<std::vector<v1::LedgerEntry>> game = ledger_->AppendAndWait(AppendRequest::Game(
      "tournaments/T2", ExpectedRevision::Any(), {testing::Created("tournaments/T2")}));
  EXPECT_TRUE(absl::IsInvalidArgument(game.status())) << game.status();
  EXPECT_EQ(ledger_->ReadTournament("T2")->size(), 1u);
}

TEST_P(TournamentStreamTest, AOneByteChangeToATournamentEventFailsTheAudit) {
  Open();
  Fill();
  std::string e = Blob("SELECT event FROM events WHERE position = 3");
  e[e.size() - 1] ^= 0x01;
  SetBlob("UPDATE events SET event = ? WHERE position = 3", e);
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 3u) << r.why;
}

TEST_P(TournamentStreamTest, AChangeWithItsLeafHashRecomputedFailsTheRoot) {
  Open();
  Fill();
  std::string e = Blob("SELECT event FROM events WHERE position = 3");
  e[e.size() - 1] ^= 0x01;
  SetBlob("UPDATE events SET event = ? WHERE position = 3", e);
  SetBlob("UPDATE events SET leaf_hash = ? WHERE position = 3",
          std::string(AsBytes(EntryLeafHash("tournaments/T1", e))));
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_NE(r.why.find("Merkle root"), std::string::npos) << r.why;
}

TEST_P(TournamentStreamTest, DeletingTheLastTournamentEventFailsTheAudit) {
  Open();
  Fill();
  Attack("DELETE FROM events WHERE position = 5");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 5u) << r.why;
}

TEST_P(TournamentStreamTest, DeletingTheLastTournamentEventWithTheRestRenumberedFails) {
  Open();
  Fill();
  Attack(
      "DELETE FROM events WHERE position = 5;"
      "UPDATE events SET position = position - 1 WHERE position > 5;");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_LE(r.first_bad_position, 7u) << r.why;
  EXPECT_FALSE(r.why.empty());
}

TEST_P(TournamentStreamTest, ReorderedTournamentEventsFailTheAudit) {
  Open();
  Fill();
  // Revisions 3 and 4 (players b and c) swap places, revisions kept in order.
  Attack(
      "UPDATE events SET position = -4, revision = -3 WHERE position = 4;"
      "UPDATE events SET position = 4, revision = 3 WHERE position = 5;"
      "UPDATE events SET position = 5, revision = 4 WHERE position = -4;");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_LE(r.first_bad_position, 4u) << r.why;
}

TEST_P(TournamentStreamTest, ATournamentRowRelabelledAsAGameRowFails) {
  Open();
  Fill();
  Attack("UPDATE events SET game_id = 'T1' WHERE game_id = 'tournaments/T1'");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 2u) << r.why;
  EXPECT_NE(r.why.find("leaf hash"), std::string::npos) << r.why;
}

TEST_P(TournamentStreamTest, AGameRowRelabelledAsATournamentRowFails) {
  Open();
  Fill();
  Attack("UPDATE events SET game_id = 'tournaments/g' WHERE game_id = 'g'");
  AuditReport r = Audit();
  EXPECT_FALSE(r.intact);
  EXPECT_EQ(r.first_bad_position, 1u) << r.why;
}

// A ledger of schema 2 (made by the release before tournament streams) is
// upgraded in place when opened, keeping every row, and takes tournaments.
TEST_P(TournamentStreamTest, ALedgerOfSchema2IsUpgradedInPlace) {
  if (pg()) {
    // A PostgreSQL ledger of schema 2 had these very tables: the version
    // row is what made it one (ledger/README.md, "Tournament streams").
    Open();
    ASSERT_TRUE(ledger_
                    ->AppendAndWait(AppendRequest::Game("g", ExpectedRevision::NoStream(),
                                                        {testing::Created("g")}))
                    .ok());
    ledger_.reset();
    absl::StatusOr<PgConn> conn = PgConn::Connect(uri_);
    ASSERT_TRUE(conn.ok());
    ASSERT_TRUE(conn->Run("ALTER TABLE meta DISABLE TRIGGER USER;"
                          "UPDATE meta SET value = '2'::bytea WHERE key = 'schema_version';"
                          "ALTER TABLE meta ENABLE TRIGGER USER;")
                    .ok());
  } else {
    // Written by the code at 58edc68 (tests/data/upgrade/README.md).
    for (const char* f : {"ledger.db", "ledger.key", "ledger.pub"}) {
      std::filesystem::copy_file(::arbiter::testing::TestDataPath(std::string("upgrade/") + f),
                                 dir_.File(f));
    }
  }
  EXPECT_EQ(Blob("SELECT value FROM meta WHERE key = 'schema_version'"), "2");
  Open();
  EXPECT_EQ(Blob("SELECT value FROM meta WHERE key = 'schema_version'"),
            absl::StrCat(kSchemaVersion));  // through 3, to today's
  absl::StatusOr<uint64_t> head = ledger_->log().Head();
  ASSERT_TRUE(head.ok());
  ASSERT_TRUE(ledger_
                  ->AppendAndWait(AppendRequest::Tournament("T9", ExpectedRevision::NoStream(),
                                                            {Created("T9")}))
                  .ok());
  ASSERT_TRUE(ledger_->Checkpoint().ok());
  AuditReport r = Audit(/*with_judge=*/pg());
  EXPECT_TRUE(r.intact) << r.why;
  EXPECT_EQ(r.events, *head + 1);
  EXPECT_EQ(r.tournaments, 1u);
}

// A ledger newer than this code is refused, not misread.
TEST_P(TournamentStreamTest, ALedgerOfANewerSchemaIsRefused) {
  Open();
  ledger_.reset();
  if (pg()) {
    absl::StatusOr<PgConn> conn = PgConn::Connect(uri_);
    ASSERT_TRUE(conn.ok());
    ASSERT_TRUE(conn->Run("ALTER TABLE meta DISABLE TRIGGER USER;"
                          "UPDATE meta SET value = '99'::bytea WHERE key = 'schema_version';")
                    .ok());
  } else {
    absl::StatusOr<Db> db = Db::Open(dir_.File("ledger.db"), SQLITE_OPEN_READWRITE);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->Exec("DROP TRIGGER meta_no_UPDATE;"
                         "UPDATE meta SET value = 99 WHERE key = 'schema_version';")
                    .ok());
  }
  LedgerOptions o = OptionsFor(GetParam(), dir_.path(), &uri_);
  o.judge = &judge_;
  absl::StatusOr<std::unique_ptr<Ledger>> again = Ledger::Open(o);
  EXPECT_TRUE(absl::IsFailedPrecondition(again.status())) << again.status();
}

INSTANTIATE_TEST_SUITE_P(Backends, TournamentStreamTest, ::testing::ValuesIn(testing::kAllBackends),
                         BackendName);

}  // namespace
}  // namespace arbiter::ledger
