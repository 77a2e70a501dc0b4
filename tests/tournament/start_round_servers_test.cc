// `tournament start-round` across servers (issue 44.5): two servers of one
// PostgreSQL database (two Ledger objects on it, a TournamentService on
// each) starting the same round at once start it once. No lock of one
// process decides it: the ledger refuses the RoundStarted appended at a
// stale revision, and the loser plans the round again from what was
// recorded, finding the games the winner made and attached.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/tournament_service.h"
#include "adjudicator/service/tournament_store.h"
#include "gtest/gtest.h"
#include "ledger/ledger.h"
#include "tests/support/pg_cluster.h"
#include "tests/support/temp_dir.h"
#include "tests/tournament/builders.h"

namespace arbiter::tournament {
namespace {

using testing::Board;
using testing::TournamentBuilder;

// One server of the database: its ledger, store and service.
struct Server {
  AdjudicatorJudge judge;
  std::unique_ptr<ledger::Ledger> ledger;
  std::unique_ptr<TournamentStore> store;
  std::unique_ptr<TournamentServiceImpl> service;
  service::Callers callers;
  // Called before and after each game this server makes (the test's
  // interleaving).
  std::function<void(const std::string& game_id)> before_make = [](const std::string&) {};
  std::function<void(const std::string& game_id)> after_make = [](const std::string&) {};
};

// A game's players as the ledger recorded them at its creation.
GameSource GamesOf(ledger::Ledger* ledger) {
  return [ledger](const std::string& id) -> absl::StatusOr<GameFacts> {
    absl::StatusOr<std::vector<v1::LedgerEntry>> first = ledger->log().ReadGame(id, 0, 1);
    if (!first.ok()) return first.status();
    if (first->empty()) return absl::NotFoundError(absl::StrCat("no game ", id));
    v1::Event created;
    if (!created.ParseFromString((*first)[0].event())) return absl::DataLossError(id);
    GameFacts facts;
    facts.recorded_black = created.game_created().black().name();
    facts.recorded_white = created.game_created().white().name();
    return facts;
  };
}

class StartRoundOnTwoServers : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> uri = ::arbiter::testing::SharedPgCluster().NewDatabase();
    ASSERT_TRUE(uri.ok()) << uri.status();
    for (Server* s : {&a_, &b_}) Open(*uri, *s);
    TournamentBuilder t(v1::TournamentSettings::SWISS);
    t.Player("A").Player("B").Player("C").Player("D");
    t.Round(1, {Board{"A", "B", ""}, Board{"C", "D", ""}});
    auto r = a_.ledger->AppendAndWait(
        ledger::AppendRequest::Tournament("T", ledger::ExpectedRevision::NoStream(), t.events()));
    ASSERT_TRUE(r.ok()) << r.status();
  }
  void TearDown() override {
    for (Server* s : {&a_, &b_}) {
      s->service.reset();
      s->store.reset();
      s->ledger.reset();
    }
  }
  void Open(const std::string& uri, Server& s) {
    ledger::LedgerOptions o;
    o.dir = uri;
    o.key_dir = dir_.path();  // the one signing key of the database
    o.judge = &s.judge;
    absl::StatusOr<std::unique_ptr<ledger::Ledger>> l = ledger::Ledger::Open(o);
    ASSERT_TRUE(l.ok()) << l.status();
    s.ledger = *std::move(l);
    absl::StatusOr<std::unique_ptr<TournamentStore>> store =
        TournamentStore::Open(s.ledger.get(), "");
    ASSERT_TRUE(store.ok()) << store.status();
    s.store = *std::move(store);
    ledger::Ledger* ledger = s.ledger.get();
    GameMaker make = [&s, ledger](const service::Caller&, const v1::CreateGameRequest& req) {
      s.before_make(req.game().game_id());
      v1::Event e;
      e.mutable_at()->set_seconds(1800000000);
      *e.mutable_game_created() = req.game();
      absl::Status made = ledger
                              ->AppendAndWait(ledger::AppendRequest::Game(
                                  req.game().game_id(), ledger::ExpectedRevision::NoStream(), {e}))
                              .status();
      if (made.ok()) s.after_make(req.game().game_id());
      return made;
    };
    s.service = std::make_unique<TournamentServiceImpl>(
        s.store.get(), GamesOf(ledger), &s.callers,
        [] { return absl::FromUnixSeconds(1800000000); }, std::move(make));
  }
  absl::StatusOr<v1::StartRoundResponse> Start(Server& s) {
    v1::StartRoundRequest req;
    req.set_tournament("tournaments/T");
    req.set_round(1);
    return s.service->StartRoundAs(service::Caller(), req);
  }
  // How many roundStarted the tournament's stream holds, and the games it attached.
  int RoundStarts(std::vector<std::string>* games) {
    absl::StatusOr<std::vector<v1::TournamentEvent>> events = a_.ledger->ReadTournament("T");
    EXPECT_TRUE(events.ok()) << events.status();
    int n = 0;
    for (const v1::TournamentEvent& e :
         events.ok() ? *events : std::vector<v1::TournamentEvent>{}) {
      if (!e.has_round_started()) continue;
      ++n;
      for (const auto& g : e.round_started().games()) games->push_back(g.game_id());
    }
    return n;
  }
  void ExpectStartedOnce() {
    std::vector<std::string> games;
    EXPECT_EQ(RoundStarts(&games), 1);
    EXPECT_EQ(games, (std::vector<std::string>{"T-r1-b1", "T-r1-b2"}));
    for (const std::string& g : games) {
      absl::StatusOr<uint64_t> revision = b_.ledger->log().GameRevision(g);
      ASSERT_TRUE(revision.ok()) << revision.status();
      EXPECT_EQ(*revision, 1u) << g << " is created once";
    }
  }

  ::arbiter::testing::TempDir dir_{"start-round-servers"};
  Server a_, b_;
};

TEST_F(StartRoundOnTwoServers, TheSecondStartFindsTheFirstsGamesMadeMeanwhile) {
  // B starts the round while A is about to make its first game: A's plan
  // (both games to make) is stale when it makes them.
  absl::StatusOr<v1::StartRoundResponse> b_started = absl::UnknownError("B never ran");
  bool once = false;
  a_.before_make = [&](const std::string&) {
    if (std::exchange(once, true)) return;
    b_started = Start(b_);
  };
  absl::StatusOr<v1::StartRoundResponse> a_started = Start(a_);
  ASSERT_TRUE(b_started.ok()) << b_started.status();
  ASSERT_TRUE(a_started.ok()) << a_started.status();
  ASSERT_EQ(a_started->tables_size(), 2);
  EXPECT_EQ(a_started->tables(0).game_id(), "T-r1-b1");
  ExpectStartedOnce();
}

TEST_F(StartRoundOnTwoServers, TheStartAttachingLastReadsAgainAndAttachesNothing) {
  // B starts the round once A has made both games but not attached them:
  // B attaches A's games, and A's roundStarted, at the revision A read, is
  // refused by the ledger; A reads again and finds the round started.
  absl::StatusOr<v1::StartRoundResponse> b_started = absl::UnknownError("B never ran");
  bool once = false;
  a_.after_make = [&](const std::string& game) {
    if (game != "T-r1-b2" || std::exchange(once, true)) return;
    b_started = Start(b_);  // finds both games made, attaches them
  };
  absl::StatusOr<v1::StartRoundResponse> a_started = Start(a_);
  ASSERT_TRUE(b_started.ok()) << b_started.status();
  ASSERT_TRUE(a_started.ok()) << a_started.status();
  ExpectStartedOnce();
}

}  // namespace
}  // namespace arbiter::tournament
