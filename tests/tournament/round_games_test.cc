// A round's games and an OpenGotha round, pure: the game ids, what a board's
// game is created with, a roundStarted's refusals, and how the file's
// players are matched (EGD PIN first, then one name for one player).
#include <string>

#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/opengotha_round.h"
#include "adjudicator/tournament/round_games.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/tournament/builders.h"

namespace arbiter::tournament {
namespace {

using testing::Board;
using ::testing::HasSubstr;
using testing::TournamentBuilder;

TEST(RoundGames, IdsAreTheTournamentRoundAndBoard) {
  EXPECT_EQ(*RoundGameId("cup", 3, 7), "cup-r3-b7");
  absl::StatusOr<std::string> long_id = RoundGameId(std::string(125, 'x'), 3, 7);
  EXPECT_EQ(long_id.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(long_id.status().message(), HasSubstr("shorter tournament id"));
}

TEST(RoundGames, AHandicapBoardIsRefusedAndAnEvenOneCreated) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.settings()->set_komi(3.75);
  b.settings()->set_live_games(true);
  v1::Tournament t = b.Player("A").Player("B").Round(1, {{"A", "B", ""}}).Build();
  v1::Pairing p = t.rounds(0).pairings(0);
  absl::StatusOr<v1::GameCreated> g = RoundGame(t, p, "T-r1-b1");
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->ruleset(), "cn-2002");
  EXPECT_EQ(g->venue(), v1::GameCreated::SAME_SITE);
  EXPECT_EQ(g->komi_stones(), 3.75);
  EXPECT_TRUE(g->live());
  EXPECT_FALSE(g->has_time_control());
  p.set_handicap(3);
  EXPECT_EQ(RoundGame(t, p, "T-r1-b1").status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(RoundGames, RoundStartedAttachesOnlyBoardsWithoutAGame) {
  v1::Tournament t = TournamentBuilder(v1::TournamentSettings::SWISS)
                         .Player("A")
                         .Player("B")
                         .Player("C")
                         .Player("D")
                         .Round(1, {{"A", "B", "G1"}, {"C", "D", ""}})
                         .Build();
  v1::TournamentEvent e;
  e.mutable_round_started()->set_round(1);
  auto* g = e.mutable_round_started()->add_games();
  g->set_board(1);
  g->set_game_id("T-r1-b1");
  v1::Tournament copy = t;
  EXPECT_EQ(Apply(e, &copy).code(), absl::StatusCode::kFailedPrecondition);
  g->set_board(3);
  EXPECT_EQ(Apply(e, &copy).code(), absl::StatusCode::kInvalidArgument);
  g->set_board(2);
  g->set_game_id("G1");  // decides board 1 already
  EXPECT_EQ(Apply(e, &copy).code(), absl::StatusCode::kInvalidArgument);
  g->set_game_id("T-r1-b2");
  ASSERT_TRUE(Apply(e, &copy).ok());
  EXPECT_EQ(copy.rounds(0).pairings(1).game_id(), "T-r1-b2");
  EXPECT_EQ(copy.rounds(0).pairings(0).game_id(), "G1");
  e.mutable_round_started()->set_round(2);
  EXPECT_EQ(Apply(e, &copy).code(), absl::StatusCode::kInvalidArgument);
}

v1::Tournament Registered() {
  v1::Tournament t;
  t.set_tournament_id("T");
  t.mutable_settings()->set_system(v1::TournamentSettings::SWISS);
  auto add = [&](const std::string& id, const std::string& name, const std::string& first,
                 const std::string& pin) {
    v1::TournamentPlayer* p = t.add_players();
    p->set_id(id);
    p->set_name(name);
    p->set_first_name(first);
    p->set_egf_pin(pin);
  };
  // Li Wei registered under another romanization, with his EGD PIN.
  add("li", "Lee", "Way", "12345678");
  add("wang", "Wang", "Ming", "");
  add("mueller", "Müller", "Hans", "");
  add("zhao", "Zhao", "Lin", "");
  add("dupont", "Dupont & Fils", "Jean", "");
  return t;
}

std::string Swiss4() {
  return arbiter::testing::ReadFile(
      arbiter::testing::SourcePath("tests/tournament/data/swiss4.xml"));
}

TEST(OpenGothaRound, PlayersMatchByEgdPinThenByName) {
  // swiss4.xml gives Li Wei the EGD PIN 12345678: the tournament's "Lee
  // Way" holds it.
  absl::StatusOr<v1::TournamentRound> r = RoundFromOpenGotha(Swiss4(), Registered(), 1);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->pairings_size(), 2);
  EXPECT_EQ(r->pairings(0).black(), "li");
  EXPECT_EQ(r->pairings(0).white(), "wang");
  EXPECT_EQ(r->pairings(1).black(), "dupont");
  EXPECT_EQ(r->pairings(1).white(), "mueller");
  EXPECT_EQ(r->pairings(1).entered_outcome(), v1::Result::OUTCOME_UNSPECIFIED);
  ASSERT_EQ(r->byes_size(), 1);
  EXPECT_EQ(r->byes(0), "zhao");
}

TEST(OpenGothaRound, OneNameForTwoPlayersIsRefused) {
  v1::Tournament t = Registered();
  t.mutable_players(0)->clear_egf_pin();
  t.mutable_players(0)->set_name("Li");
  t.mutable_players(0)->set_first_name("Wei");
  v1::TournamentPlayer* twin = t.add_players();
  twin->set_id("li2");
  twin->set_name("Wei");
  twin->set_first_name("Li");  // "Li Wei" the other way round
  absl::StatusOr<v1::TournamentRound> r = RoundFromOpenGotha(Swiss4(), t, 1);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("players li, li2 all bear that name"));
}

}  // namespace
}  // namespace arbiter::tournament
