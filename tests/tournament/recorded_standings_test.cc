// Recorded standings (issue 44.1, proto/DOMAIN.md "Tournaments in the
// ledger"): the server appends a round's standings to the tournament's
// stream once the round's last result is in the log, again after each
// correction that changes them, never twice for the same log; and
// `arbiter verify`'s audit (issue 44.2) folds each tournament again, derives
// each recorded standings from the log up to its position, and names a
// tournament whose standings differ, whose started game is missing, or whose
// game was recorded under another pairing.
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/standings_recorder.h"
#include "adjudicator/service/tournament_referee.h"
#include "adjudicator/tournament/fold.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "ledger/ledger.h"
#include "ledger/reader_pool.h"
#include "ledger/store.h"
#include "tests/support/temp_dir.h"
#include "tests/tournament/builders.h"

namespace arbiter::tournament {
namespace {

using testing::Board;
using ::testing::HasSubstr;
using testing::Row;
using testing::TournamentBuilder;

// The ledger's judge as the service's, except that it can hold one commit
// between its COMMIT and the hand-over of its folds (Judge::OnCommit): the
// gap in which a follower that starts finds the commit in the database but
// its game's fold not yet advanced.
class HeldCommits final : public ledger::Judge {
 public:
  explicit HeldCommits(ledger::Judge* judge) : judge_(judge) {}

  // The next commit waits in OnCommit until Release().
  void HoldNext() {
    absl::MutexLock lock(&mu_);
    hold_ = true;
  }
  // Returns once the held commit is in the database and waiting.
  void AwaitHeld() {
    absl::MutexLock lock(&mu_);
    mu_.Await(absl::Condition(&held_));
  }
  void Release() {
    absl::MutexLock lock(&mu_);
    hold_ = false;
  }

  absl::StatusOr<std::unique_ptr<ledger::GameJudge>> Open(absl::string_view game_id,
                                                          const v1::GameCreated& created) override {
    return judge_->Open(game_id, created);
  }
  absl::StatusOr<std::unique_ptr<ledger::GameJudge>> Reopen(absl::string_view game_id,
                                                            const v1::GameCreated& created,
                                                            absl::string_view pin) override {
    return judge_->Reopen(game_id, created, pin);
  }
  std::shared_ptr<const ledger::GameJudge> Committed(absl::string_view game_id,
                                                     uint64_t revision) override {
    return judge_->Committed(game_id, revision);
  }
  void OnCommit(const std::vector<ledger::CommittedFold>& folds) override {
    {
      absl::MutexLock lock(&mu_);
      if (hold_) {
        held_ = true;
        auto released = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return !hold_; };
        mu_.Await(absl::Condition(&released));
        held_ = false;
      }
    }
    judge_->OnCommit(folds);
  }

 private:
  ledger::Judge* const judge_;
  absl::Mutex mu_;
  bool hold_ ABSL_GUARDED_BY(mu_) = false;
  bool held_ ABSL_GUARDED_BY(mu_) = false;
};

v1::Event Parse(const std::string& json) {
  v1::Event e;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &e).ok()) << json;
  return e;
}

class RecordedStandings : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = ledger::OpenStore(dir_.path());
    ASSERT_TRUE(store.ok()) << store.status();
    auto readers = std::make_shared<ledger::ReaderPool>(*std::move(store));
    folds_ = std::make_unique<service::GameFolds>(readers);
    judge_ = std::make_unique<HeldCommits>(folds_.get());
    ledger::LedgerOptions o;
    o.dir = dir_.path();
    o.judge = judge_.get();
    o.readers = readers;
    auto l = ledger::Ledger::Open(o);
    ASSERT_TRUE(l.ok()) << l.status();
    ledger_ = *std::move(l);
    auto tournaments = TournamentStore::Open(ledger_.get(), "", dir_.path());
    ASSERT_TRUE(tournaments.ok()) << tournaments.status();
    store_ = *std::move(tournaments);
    recorder_ = std::make_unique<StandingsRecorder>(ledger_.get(), folds_.get(), store_.get());
  }
  void TearDown() override {
    recorder_.reset();
    store_.reset();
    ledger_.reset();
  }

  // A Swiss of four; round 1: A-B played as game g1, C-D as `cd_game`
  // (empty: on paper, its result entered from the score sheet). Pinned to
  // the standings rules `rules` (empty: none, as before the pin).
  void CreateCup(const std::string& cd_game = "g2", const std::string& rules = "") {
    TournamentBuilder b(v1::TournamentSettings::SWISS);
    b.StandingsRules(rules);
    b.settings()->set_rounds(3);
    b.Player("A").Player("B").Player("C").Player("D");
    b.Round(1, {Board{"A", "B", "g1"}, Board{"C", "D", cd_game}});
    Append(b.events());
  }
  void Append(std::vector<v1::TournamentEvent> events, const std::string& id = "T") {
    absl::StatusOr<std::vector<v1::TournamentEvent>> now = ledger_->ReadTournament(id);
    const uint64_t at = now.ok() ? now->size() : 0;
    auto r = ledger_->AppendAndWait(ledger::AppendRequest::Tournament(
        id, ledger::ExpectedRevision::Exactly(at), std::move(events)));
    ASSERT_TRUE(r.ok()) << r.status();
  }
  // Game `id` created with `black` and `white`, begun.
  void Game(const std::string& id, const std::string& black, const std::string& white) {
    auto r = ledger_->AppendAndWait(ledger::AppendRequest::Game(
        id, ledger::ExpectedRevision::NoStream(),
        {Parse(absl::StrCat(R"({"at": "2026-05-01T09:00:00Z", "gameCreated": {"gameId": ")", id,
                            R"(", "ruleset": "cn-2002", "boardSize": 19, "venue": "SAME_SITE",)",
                            R"( "black": {"name": ")", black, R"("}, "white": {"name": ")", white,
                            R"("}, "scheduledStart": "2026-05-01T09:00:00Z",)",
                            R"( "timeControl": {"mainTime": "600s"}}})")),
         Parse(R"({"at": "2026-05-01T09:00:00Z", "gameStarted": {}})")}));
    ASSERT_TRUE(r.ok()) << r.status();
  }
  void Resign(const std::string& id, const std::string& color) {
    auto r = ledger_->AppendAndWait(ledger::AppendRequest::Game(
        id, ledger::ExpectedRevision::Any(),
        {Parse(absl::StrCat(R"({"at": "2026-05-01T09:30:00Z", "resign": )", R"({"color": ")", color,
                            R"("}})"))}));
    ASSERT_TRUE(r.ok()) << r.status();
  }
  void Enter(int board, v1::Result::Outcome outcome) {
    v1::TournamentEvent e;
    e.mutable_corrected()->set_reason("score sheet");
    v1::ResultEntered* r = e.mutable_corrected()->mutable_result_entered();
    r->set_round(1);
    r->set_board(board);
    r->set_outcome(outcome);
    Append({e});
  }
  // The standings_recorded events of tournament `id`, in order.
  std::vector<v1::StandingsRecorded> Recorded(const std::string& id = "T") {
    absl::StatusOr<std::vector<v1::TournamentEvent>> events = ledger_->ReadTournament(id);
    EXPECT_TRUE(events.ok()) << events.status();
    std::vector<v1::StandingsRecorded> out;
    for (const v1::TournamentEvent& e :
         events.ok() ? *events : std::vector<v1::TournamentEvent>{}) {
      if (e.has_standings_recorded()) out.push_back(e.standings_recorded());
    }
    return out;
  }
  // Waits until tournament `id` has standings recorded, woken by each
  // commit to look again (no sleep stands for the wait), 30 s at most.
  void AwaitRecorded(const std::string& id = "T") {
    absl::Mutex mu;
    bool committed = false;
    const int listener = ledger_->commit_feed()->AddListener([&](uint64_t) {
      absl::MutexLock lock(&mu);
      committed = true;
    });
    const absl::Time give_up = absl::Now() + absl::Seconds(30);
    while (Recorded(id).empty() && absl::Now() < give_up) {
      absl::MutexLock lock(&mu);
      mu.AwaitWithDeadline(absl::Condition(&committed), give_up);
      committed = false;
    }
    ledger_->commit_feed()->RemoveListener(listener);
  }
  ledger::AuditReport Audit() {
    AdjudicatorJudge judge;
    TournamentReferee referee;
    ledger::AuditOptions o;
    o.judge = &judge;
    o.tournaments = &referee;
    absl::StatusOr<ledger::AuditReport> r = ledger_->Audit(o);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *r : ledger::AuditReport{};
  }

  ::arbiter::testing::TempDir dir_{"recorded-standings"};
  std::unique_ptr<service::GameFolds> folds_;
  std::unique_ptr<HeldCommits> judge_;
  std::unique_ptr<ledger::Ledger> ledger_;
  std::unique_ptr<TournamentStore> store_;
  std::unique_ptr<StandingsRecorder> recorder_;
};

TEST_F(RecordedStandings, TheRoundsLastResultRecordsItsStandingsOnce) {
  CreateCup();
  Game("g1", "A", "B");
  Game("g2", "C", "D");
  Resign("g1", "WHITE");  // A wins
  ASSERT_TRUE(recorder_->Update("T").ok());
  EXPECT_TRUE(Recorded().empty()) << "round 1 is not over: C-D goes on";

  Resign("g2", "BLACK");  // D wins
  ASSERT_TRUE(recorder_->Update("T").ok());
  std::vector<v1::StandingsRecorded> recorded = Recorded();
  ASSERT_EQ(recorded.size(), 1u);
  EXPECT_EQ(recorded[0].round(), 1);
  // Art. 27: a win is 2 points, a loss 0.
  EXPECT_EQ(Row(recorded[0].standings().standings(), "A").points(), 2);
  EXPECT_EQ(Row(recorded[0].standings().standings(), "D").points(), 2);
  EXPECT_EQ(Row(recorded[0].standings().standings(), "B").points(), 0);
  EXPECT_EQ(recorded[0].standings().tournament(), "tournaments/T");

  // A retry, and a second server's recorder on the same log: nothing more.
  ASSERT_TRUE(recorder_->Update("T").ok());
  StandingsRecorder second(ledger_.get(), folds_.get(), store_.get());
  ASSERT_TRUE(second.Update("T").ok());
  EXPECT_EQ(Recorded().size(), 1u);
  EXPECT_TRUE(Audit().intact) << Audit().why;
}

TEST_F(RecordedStandings, ACorrectionAfterTheRoundRecordsThemAgain) {
  CreateCup(/*cd_game=*/"");
  Game("g1", "A", "B");
  Resign("g1", "WHITE");
  Enter(2, v1::Result::BLACK_WINS);  // the score sheet: C wins
  ASSERT_TRUE(recorder_->Update("T").ok());
  ASSERT_EQ(Recorded().size(), 1u);
  EXPECT_EQ(Row(Recorded()[0].standings().standings(), "C").points(), 2);

  Enter(2, v1::Result::WHITE_WINS);  // the sheet read again: D won
  ASSERT_TRUE(recorder_->Update("T").ok());
  std::vector<v1::StandingsRecorded> recorded = Recorded();
  ASSERT_EQ(recorded.size(), 2u);
  EXPECT_EQ(recorded[1].round(), 1);
  EXPECT_EQ(Row(recorded[1].standings().standings(), "C").points(), 0);
  EXPECT_EQ(Row(recorded[1].standings().standings(), "D").points(), 2);
  ledger::AuditReport audit = Audit();
  EXPECT_TRUE(audit.intact) << audit.why;
  EXPECT_EQ(audit.tournaments_rederived, 1u);
}

TEST_F(RecordedStandings, TheRecorderFollowsTheCommitFeed) {
  CreateCup();
  Game("g1", "A", "B");
  Game("g2", "C", "D");
  Resign("g1", "WHITE");
  recorder_->Start();
  Resign("g2", "BLACK");  // the round's last result, through the ledger alone
  AwaitRecorded();
  recorder_->Stop();
  ASSERT_EQ(Recorded().size(), 1u);
  EXPECT_EQ(Recorded()[0].round(), 1);
}

// A recorder that starts after a commit is in the database but before the
// commit's folds are handed on (and the feed publishes it) reads the commit
// when it is published; had it started from the database's head, it would
// count it as read while its first pass saw the game's older fold, and the
// round's standings would never be recorded (found by the suite under ASan).
TEST_F(RecordedStandings, ARecorderStartedBeforeACommitIsPublishedReadsIt) {
  CreateCup();
  Game("g1", "A", "B");
  Game("g2", "C", "D");
  Resign("g1", "WHITE");
  // Tournament U, listed after T, has its round over and no standings yet:
  // the recorder's first pass records them, after it has looked at T.
  TournamentBuilder u(v1::TournamentSettings::SWISS);
  u.Player("E").Player("F");
  u.Round(1, {Board{"E", "F", "u1"}});
  std::vector<v1::TournamentEvent> u_events = u.events();
  u_events[0].mutable_created()->set_tournament_id("U");
  Append(u_events, "U");
  Game("u1", "E", "F");
  Resign("u1", "WHITE");

  judge_->HoldNext();
  std::thread last_result([this] { Resign("g2", "BLACK"); });  // T's round is over
  judge_->AwaitHeld();
  // The recorder asks the time only for standings it is about to record,
  // U's, by which point its first pass has read T with g2's older fold.
  recorder_ =
      std::make_unique<StandingsRecorder>(ledger_.get(), folds_.get(), store_.get(), [this] {
        judge_->Release();
        return absl::Now();
      });
  recorder_->Start();
  last_result.join();
  AwaitRecorded();
  recorder_->Stop();
  ASSERT_EQ(Recorded().size(), 1u);
  EXPECT_EQ(Recorded()[0].round(), 1);
  EXPECT_EQ(Recorded("U").size(), 1u);
}

TEST_F(RecordedStandings, TheAppendIsRefusedWhenAGameItWasDerivedFromMoved) {
  CreateCup();
  Game("g1", "A", "B");
  v1::TournamentEvent e;
  e.mutable_standings_recorded()->set_round(1);
  auto r = ledger_->AppendAndWait(ledger::AppendRequest::Tournament(
      "T", ledger::ExpectedRevision::Exactly(6), {e}, {{"g1", 1}, {"g2", 0}}));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kAborted) << r.status();
  EXPECT_THAT(r.status().message(), HasSubstr("'g1' is at revision 2"));
  r = ledger_->AppendAndWait(ledger::AppendRequest::Tournament(
      "T", ledger::ExpectedRevision::Exactly(6), {e}, {{"g1", 2}, {"g2", 1}}));
  EXPECT_EQ(r.status().code(), absl::StatusCode::kAborted) << r.status();
  EXPECT_TRUE(Recorded().empty());
}

TEST_F(RecordedStandings, VerifyNamesATournamentWhoseRecordedStandingsAreNotTheLogs) {
  CreateCup();
  Game("g1", "A", "B");
  Game("g2", "C", "D");
  Resign("g1", "WHITE");
  Resign("g2", "BLACK");
  ASSERT_TRUE(recorder_->Update("T").ok());
  ASSERT_TRUE(Audit().intact);
  // Standings that credit B with A's win, appended as the server would.
  v1::TournamentEvent forged;
  *forged.mutable_standings_recorded() = Recorded()[0];
  for (v1::Standing& s :
       *forged.mutable_standings_recorded()->mutable_standings()->mutable_standings()) {
    if (s.id() == "B") s.set_points(2);
    if (s.id() == "A") s.set_points(0);
  }
  Append({forged});
  ledger::AuditReport audit = Audit();
  EXPECT_FALSE(audit.intact);
  EXPECT_THAT(audit.why, HasSubstr("tournament 'T' round 1"));
  EXPECT_THAT(audit.why, HasSubstr("differ from those the log gives"));
}

TEST_F(RecordedStandings, VerifyNamesATournamentWhoseGameWasRecordedUnderAnotherPairing) {
  CreateCup();
  Game("g1", "B", "A");  // the colours the other way round
  ledger::AuditReport audit = Audit();
  EXPECT_FALSE(audit.intact);
  EXPECT_THAT(audit.why, HasSubstr("tournament 'T' round 1 board 1: game 'g1'"));
}

TEST_F(RecordedStandings, VerifyNamesATournamentWhoseStartedGameIsNotInTheLog) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.Player("A").Player("B");
  b.Round(1, {Board{"A", "B", ""}});
  Append(b.events());
  v1::TournamentEvent started;
  started.mutable_round_started()->set_round(1);
  v1::RoundStarted::BoardGame* g = started.mutable_round_started()->add_games();
  g->set_board(1);
  g->set_game_id("T-r1-b1");
  Append({started});
  ledger::AuditReport audit = Audit();
  EXPECT_FALSE(audit.intact);
  EXPECT_THAT(audit.why, HasSubstr("tournament 'T' round 1 board 1: game 'T-r1-b1'"));
  EXPECT_THAT(audit.why, HasSubstr("not in the log"));
}

// FINDINGS item 10: tournament-2026.2 counts a NO_RESULT in no column of
// wins, draws and losses; a tournament of 2026.1 (or recorded before the pin)
// keeps its loss, so the standings it recorded still verify.
TEST_F(RecordedStandings, A2026_1TournamentRecordsANoResultAsALossAndVerifies) {
  CreateCup(/*cd_game=*/"");
  Game("g1", "A", "B");
  Resign("g1", "WHITE");
  Enter(2, v1::Result::NO_RESULT);
  ASSERT_TRUE(recorder_->Update("T").ok());
  ASSERT_EQ(Recorded().size(), 1u);
  EXPECT_EQ(Row(Recorded()[0].standings().standings(), "C").losses(), 1);
  EXPECT_EQ(Row(Recorded()[0].standings().standings(), "D").losses(), 1);
  ledger::AuditReport audit = Audit();
  EXPECT_TRUE(audit.intact) << audit.why;
  EXPECT_EQ(audit.tournaments_rederived, 1u);
}

TEST_F(RecordedStandings, A2026_2TournamentVerifiesItsNoResultAsNoLoss) {
  CreateCup(/*cd_game=*/"", "tournament-2026.2");
  Game("g1", "A", "B");
  Resign("g1", "WHITE");
  Enter(2, v1::Result::NO_RESULT);
  ASSERT_TRUE(recorder_->Update("T").ok());
  ASSERT_EQ(Recorded().size(), 1u);
  const v1::StandingsReport r = Recorded()[0].standings();
  for (const char* id : {"C", "D"}) {
    EXPECT_EQ(Row(r.standings(), id).wins(), 0) << id;
    EXPECT_EQ(Row(r.standings(), id).draws(), 0) << id;
    EXPECT_EQ(Row(r.standings(), id).losses(), 0) << id;
  }
  EXPECT_EQ(Row(r.standings(), "B").losses(), 1);
  ASSERT_TRUE(Audit().intact) << Audit().why;
  // The same standings as 2026.1 counts them, recorded in this tournament:
  // verify derives them under its own pin, 2026.2, and names the difference.
  v1::TournamentEvent as_2026_1;
  *as_2026_1.mutable_standings_recorded() = Recorded()[0];
  for (v1::Standing& s :
       *as_2026_1.mutable_standings_recorded()->mutable_standings()->mutable_standings()) {
    if (s.id() == "C" || s.id() == "D") s.set_losses(1);
  }
  Append({as_2026_1});
  ledger::AuditReport audit = Audit();
  EXPECT_FALSE(audit.intact);
  EXPECT_THAT(audit.why, HasSubstr("tournament 'T' round 1"));
  EXPECT_THAT(audit.why, HasSubstr("differ from those the log gives"));
}

// Issue 44.1: the standings rules' version pin. A tournament whose created
// names none (recorded before the pin) is scored under the first version; a
// version this binary does not have is refused by name, never scored under
// another.
TEST(StandingsRulesPin, ATournamentRecordedBeforeThePinReadsAsTheFirstVersion) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.Player("A").Player("B");
  EXPECT_EQ(b.Build().standings_rules(), "tournament-2026.1");
}

TEST(StandingsRulesPin, AVersionThisBinaryDoesNotHaveIsRefused) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  std::vector<v1::TournamentEvent> events = b.events();
  events[0].mutable_created()->set_standings_rules("tournament-2099.1");
  absl::StatusOr<v1::Tournament> t = Fold(events);
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(t.status().message(), HasSubstr("'tournament-2099.1'"));
  EXPECT_THAT(t.status().message(),
              HasSubstr("tournament-2026.1, tournament-2026.2, tournament-2026.3"));
}

// A tournament a venue synced is the venue's record (DOMAIN.md §3.8): its
// standings are the venue's, carried by the sync. The federation's own
// recorder appends nothing to it, or the venue's next events would no longer
// follow on and its proofs would stop covering the stream.
TEST_F(RecordedStandings, NothingIsRecordedInATournamentAVenueSynced) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.settings()->set_rounds(3);
  b.Player("A").Player("B").Player("C").Player("D");
  b.Round(1, {Board{"A", "B", "g1"}, Board{"C", "D", "g2"}});
  ledger::AppendRequest venue_sync =
      ledger::AppendRequest::Tournament("T", ledger::ExpectedRevision::Exactly(0), b.events());
  venue_sync.venue_key_der = "venue-key-der";
  auto claimed = ledger_->AppendAndWait(std::move(venue_sync));
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  Game("g1", "A", "B");
  Game("g2", "C", "D");
  Resign("g1", "WHITE");
  Resign("g2", "BLACK");  // round 1 is over: standings would be due

  ASSERT_TRUE(recorder_->Update("T").ok());
  EXPECT_TRUE(Recorded().empty());
}

}  // namespace
}  // namespace arbiter::tournament
