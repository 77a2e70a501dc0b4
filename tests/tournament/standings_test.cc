// Art. 27 standings, each expectation computed by hand in the comments.
#include "adjudicator/tournament/standings.h"

#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/scoring.h"
#include "adjudicator/tournament/standings_columns.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/tournament/builders.h"

namespace arbiter::tournament {
namespace {

using testing::Decided;
using ::testing::ElementsAre;
using testing::kBlack;
using testing::kDraw;
using testing::kWhite;
using testing::Order;
using testing::Row;
using testing::TournamentBuilder;

TEST(RoundRobin, PointsThenTieBreakA) {
  // R1: A beats B (A black), C draws D.  R2: A draws C, B beats D (B black).
  // R3: D beats A (D white), C beats B (C white).
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  b.Player("A").Player("B").Player("C").Player("D");
  b.Round(1, {{"A", "B", "G1"}, {"C", "D", "G2"}});
  b.Round(2, {{"A", "C", "G3"}, {"B", "D", "G4"}});
  b.Round(3, {{"A", "D", "G5"}, {"B", "C", "G6"}});
  GameFactsMap games = {{"G1", Decided(kBlack)}, {"G2", Decided(kDraw)},  {"G3", Decided(kDraw)},
                        {"G4", Decided(kBlack)}, {"G5", Decided(kWhite)}, {"G6", Decided(kWhite)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  // Points: A 2+1+0 = 3, B 0+2+0 = 2, C 1+1+2 = 4, D 1+0+2 = 3.
  // A and D are level on 3. A (胜者小分): A beat B (2) and drew C (4): 2 + 4/2 = 4;
  // D beat A (3) and drew C (4): 3 + 4/2 = 5. D is ahead on A.
  EXPECT_THAT(Order(r.standings()), ElementsAre("C", "D", "A", "B"));
  EXPECT_EQ(Row(r.standings(), "C").points(), 4);
  EXPECT_EQ(Row(r.standings(), "D").tie_break_a(), 5.0);
  EXPECT_EQ(Row(r.standings(), "A").tie_break_a(), 4.0);
  EXPECT_EQ(Row(r.standings(), "D").rank(), 2);
  EXPECT_EQ(Row(r.standings(), "A").rank(), 3);
  EXPECT_EQ(Row(r.standings(), "A").decided_by(), "A");
  EXPECT_EQ(Row(r.standings(), "B").decided_by(), "");  // fewer points
  // C: B beaten (2) + halves of A (3) and D (3) = 2 + 1.5 + 1.5 = 5.
  EXPECT_EQ(Row(r.standings(), "C").tie_break_a(), 5.0);
  EXPECT_EQ(Row(r.standings(), "C").wins(), 1);
  EXPECT_EQ(Row(r.standings(), "C").draws(), 2);
}

TEST(RoundRobin, WarningsThenLotsThenShared) {
  // Every game drawn: each player 3 points; A = half of three opponents' 3
  // points each = 4.5 for everyone. B: warnings over the event, from the
  // rulings: Q got 1 (as Black in G2), R got 2 (as White in G1 and G5), P and
  // S none. So P and S share first, Q third, R fourth.
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  b.Player("P").Player("Q").Player("R").Player("S");
  b.Round(1, {{"P", "R", "G1"}, {"Q", "S", "G2"}});
  b.Round(2, {{"P", "Q", "G3"}, {"S", "R", "G4"}});
  b.Round(3, {{"P", "S", "G5"}, {"Q", "R", "G6"}});
  GameFactsMap games = {{"G1", Decided(kDraw, v1::Result::COUNT, 0, 1)},
                        {"G2", Decided(kDraw, v1::Result::COUNT, 1, 0)},
                        {"G3", Decided(kDraw)},
                        {"G4", Decided(kDraw)},
                        {"G5", Decided(kDraw)},
                        {"G6", Decided(kDraw, v1::Result::COUNT, 0, 1)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  for (const v1::Standing& s : r.standings()) {
    EXPECT_EQ(s.points(), 3) << s.id();
    EXPECT_EQ(s.tie_break_a(), 4.5) << s.id();
  }
  EXPECT_EQ(Row(r.standings(), "Q").warnings(), 1);
  EXPECT_EQ(Row(r.standings(), "R").warnings(), 2);
  EXPECT_EQ(Row(r.standings(), "P").rank(), 1);
  EXPECT_EQ(Row(r.standings(), "S").rank(), 1);  // shared: no C decision yet
  EXPECT_EQ(Row(r.standings(), "Q").rank(), 3);
  EXPECT_EQ(Row(r.standings(), "Q").decided_by(), "B");
  EXPECT_EQ(Row(r.standings(), "R").rank(), 4);

  // C: lots drawn between P and S, S first.
  b.Lots({"S", "P"});
  r = ComputeStandings(b.Build(), games);
  EXPECT_THAT(Order(r.standings()), ElementsAre("S", "P", "Q", "R"));
  EXPECT_EQ(Row(r.standings(), "S").rank(), 1);
  EXPECT_EQ(Row(r.standings(), "P").rank(), 2);
  EXPECT_EQ(Row(r.standings(), "P").decided_by(), "C:LOTS");
}

TEST(RoundRobin, ExtraGameOrdersOnlyTheWholeLevelGroup) {
  // Four players, every game drawn: all level on points (3), A (4.5) and B (0).
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  b.Player("P").Player("Q").Player("R").Player("S");
  b.Round(1, {{"P", "R", "G1"}, {"Q", "S", "G2"}});
  b.Round(2, {{"P", "Q", "G3"}, {"S", "R", "G4"}});
  b.Round(3, {{"P", "S", "G5"}, {"Q", "R", "G6"}});
  GameFactsMap games;
  for (const char* g : {"G1", "G2", "G3", "G4", "G5", "G6"}) games[g] = Decided(kDraw);
  // An extra game between R and Q only does not order a group of four: shared.
  v1::TournamentEvent partial;
  partial.mutable_tie_break_decided()->set_method(v1::TieBreakDecided::EXTRA_GAME);
  partial.mutable_tie_break_decided()->add_order("R");
  partial.mutable_tie_break_decided()->add_order("Q");
  partial.mutable_tie_break_decided()->add_game_ids("X1");
  std::vector<v1::TournamentEvent> events = b.events();
  events.push_back(partial);
  absl::StatusOr<v1::Tournament> t = Fold(events);
  ASSERT_TRUE(t.ok()) << t.status();
  v1::StandingsReport r = ComputeStandings(*t, games);
  for (const v1::Standing& s : r.standings()) EXPECT_EQ(s.rank(), 1) << s.id();
  // Extra games ordering all four decide every place.
  v1::TournamentEvent full = partial;
  full.mutable_tie_break_decided()->clear_order();
  for (const char* id : {"R", "Q", "S", "P"}) full.mutable_tie_break_decided()->add_order(id);
  full.mutable_tie_break_decided()->set_game_ids(0, "X2");
  events.push_back(full);
  t = Fold(events);
  ASSERT_TRUE(t.ok()) << t.status();
  r = ComputeStandings(*t, games);
  EXPECT_THAT(Order(r.standings()), ElementsAre("R", "Q", "S", "P"));
  EXPECT_EQ(Row(r.standings(), "P").rank(), 4);
  EXPECT_EQ(Row(r.standings(), "Q").decided_by(), "C:EXTRA_GAME");
  // The same extra game cannot decide twice.
  events.push_back(full);
  EXPECT_FALSE(Fold(events).ok());
}

TEST(RoundRobin, ByeScoresTheSettingsPoints) {
  // Three players, three rounds, one bye a round worth 0 (the default).
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  b.Player("A").Player("B").Player("C");
  b.Round(1, {{"A", "B", "G1"}}, {"C"});
  b.Round(2, {{"C", "A", "G2"}}, {"B"});
  b.Round(3, {{"B", "C", "G3"}}, {"A"});
  GameFactsMap games = {{"G1", Decided(kBlack)}, {"G2", Decided(kBlack)}, {"G3", Decided(kBlack)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  // Each won once and lost once: 2 points each; A: beat B (2) = 2 for all.
  for (const v1::Standing& s : r.standings()) {
    EXPECT_EQ(s.points(), 2);
    EXPECT_EQ(s.rank(), 1);
  }
}

// Six players, two rounds (R = 2, so ½ of the maximum 2R points is 2).
// R1: P1 beats P2, P3 beats P4, P5 draws P6.  R2: P1 beats P3, P2 beats P5, P6 beats P4.
TournamentBuilder SixPlayerSwiss(v1::TournamentSettings::SwissMethod method) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.settings()->set_swiss_method(method);
  for (int i = 1; i <= 6; ++i) b.Player(absl::StrCat("P", i));
  b.Round(1, {{"P1", "P2", "G1"}, {"P3", "P4", "G2"}, {"P5", "P6", "G3"}});
  b.Round(2, {{"P1", "P3", "G4"}, {"P2", "P5", "G5"}, {"P4", "P6", "G6"}});
  return b;
}

GameFactsMap SixPlayerGames() {
  return {{"G1", Decided(kBlack)}, {"G2", Decided(kBlack)}, {"G3", Decided(kDraw)},
          {"G4", Decided(kBlack)}, {"G5", Decided(kBlack)}, {"G6", Decided(kWhite)}};
}

TEST(Swiss, TotalScore) {
  v1::StandingsReport r = ComputeStandings(
      SixPlayerSwiss(v1::TournamentSettings::TOTAL_SCORE).Build(), SixPlayerGames());
  // Points: P1 4, P2 2, P3 2, P4 0, P5 1, P6 3.
  // Opponents' points: P1 P2+P3 = 4; P2 P1+P5 = 5; P3 P4+P1 = 4; P4 P3+P6 = 5;
  // P5 P6+P2 = 5; P6 P5+P4 = 1.
  // Total = points + ΣOpp / 2 − 2:
  //   P1 4 + 2 − 2 = 4;  P2 2 + 2.5 − 2 = 2.5;  P3 2 + 2 − 2 = 2;
  //   P4 0 + 2.5 − 2 = 0.5;  P5 1 + 2.5 − 2 = 1.5;  P6 3 + 0.5 − 2 = 1.5.
  EXPECT_EQ(r.rounds(), 2);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "P1").total_score(), 4.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "P2").total_score(), 2.5);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "P3").total_score(), 2.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "P4").total_score(), 0.5);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "P5").total_score(), 1.5);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "P6").total_score(), 1.5);
  EXPECT_EQ(Row(r.standings(), "P6").opponents_points(), 1);
  // P5 and P6 are level at 1.5 with no warnings: they share 4th.
  EXPECT_THAT(Order(r.standings()), ElementsAre("P1", "P2", "P3", "P5", "P6", "P4"));
  EXPECT_EQ(Row(r.standings(), "P5").rank(), 4);
  EXPECT_EQ(Row(r.standings(), "P6").rank(), 4);
  EXPECT_EQ(Row(r.standings(), "P4").rank(), 6);
}

// Art. 27 2.A: 总得分＝个人积分＋[对手积分总和/(1/2最高积分)－轮次], the rounds
// being those played: a round counts in a player's total once that player's
// game of it has its result. R1: A (Black) v B, C v D; R2: A v C, B v D.
TEST(Swiss, ARoundCountsInATotalOnceThePlayersGameHasItsResult) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.settings()->set_swiss_method(v1::TournamentSettings::TOTAL_SCORE);
  b.Player("A").Player("B").Player("C").Player("D");
  b.Round(1, {{"A", "B", "G1"}, {"C", "D", "G2"}});

  // Round 1 in play, no result: no round counts, each total is the points, 0.
  GameFactsMap games = {{"G1", GameFacts{}}, {"G2", GameFacts{}}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  EXPECT_EQ(r.rounds(), 1);
  for (const v1::Standing& s : r.standings()) {
    EXPECT_DOUBLE_EQ(s.total_score(), 0.0) << s.id();
    EXPECT_THAT(s.counted_rounds(), ElementsAre()) << s.id();
    EXPECT_EQ(s.rank(), 1) << s.id();
  }
  EXPECT_EQ(CountedRoundsWords(r, false), "counted: no round yet");

  // A beats B; C v D still playing. A: 2 + 0/1 − 1 = 1; B: 0 + 2/1 − 1 = 1;
  // C and D: round 1 not counted yet, 0.
  games["G1"] = Decided(kBlack);
  r = ComputeStandings(b.Build(), games);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "A").total_score(), 1.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "B").total_score(), 1.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "C").total_score(), 0.0);
  EXPECT_THAT(Row(r.standings(), "A").counted_rounds(), ElementsAre(1));
  EXPECT_THAT(Row(r.standings(), "C").counted_rounds(), ElementsAre());
  EXPECT_EQ(CountedRoundsWords(r, false), "counted: round 1; no round yet for C, D");
  EXPECT_EQ(CountedRoundsWords(r, true), "计入：第1轮；C、D：尚无");

  // C draws D; round 2 paired and A beats C, B v D playing. Points: A 4, B 0,
  // C 1, D 1. A (rounds 1-2): 4 + (B 0 + C 1)/2 − 2 = 2.5; C (1-2): 1 +
  // (D 1 + A 4)/2 − 2 = 1.5; B (round 1): 0 + 4/1 − 1 = 3; D (round 1):
  // 1 + 1/1 − 1 = 1. Totals over different rounds rank as their values.
  games["G2"] = Decided(kDraw);
  b.Round(2, {{"A", "C", "G3"}, {"B", "D", "G4"}});
  games["G3"] = Decided(kBlack);
  games["G4"] = GameFacts{};
  r = ComputeStandings(b.Build(), games);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "A").total_score(), 2.5);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "B").total_score(), 3.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "C").total_score(), 1.5);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "D").total_score(), 1.0);
  EXPECT_THAT(Row(r.standings(), "A").counted_rounds(), ElementsAre(1, 2));
  EXPECT_THAT(Row(r.standings(), "B").counted_rounds(), ElementsAre(1));
  EXPECT_THAT(Order(r.standings()), ElementsAre("B", "A", "C", "D"));
  EXPECT_EQ(CountedRoundsWords(r, false), "counted: rounds 1–2; round 1 for B, D");

  // B v D decided: every player counts rounds 1-2, as before this rule.
  games["G4"] = Decided(kWhite);
  r = ComputeStandings(b.Build(), games);
  for (const v1::Standing& s : r.standings()) {
    EXPECT_THAT(s.counted_rounds(), ElementsAre(1, 2)) << s.id();
  }
  EXPECT_EQ(CountedRoundsWords(r, false), "counted: rounds 1–2");
}

// A bye has its result when it is paired: its round counts at once.
TEST(Swiss, AByeRoundCountsAtOnce) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.settings()->set_swiss_method(v1::TournamentSettings::TOTAL_SCORE);
  b.Player("A").Player("B").Player("C");
  b.Round(1, {{"A", "B", "G1"}}, {"C"});
  v1::StandingsReport r = ComputeStandings(b.Build(), {{"G1", GameFacts{}}});
  EXPECT_THAT(Row(r.standings(), "C").counted_rounds(), ElementsAre(1));
  EXPECT_THAT(Row(r.standings(), "A").counted_rounds(), ElementsAre());
  EXPECT_DOUBLE_EQ(Row(r.standings(), "A").total_score(), 0.0);
}

TEST(Swiss, TotalScoreThenWarnings) {
  GameFactsMap games = SixPlayerGames();
  games["G3"].warnings_white = 1;  // P6 was warned in G3
  v1::StandingsReport r =
      ComputeStandings(SixPlayerSwiss(v1::TournamentSettings::TOTAL_SCORE).Build(), games);
  EXPECT_EQ(Row(r.standings(), "P5").rank(), 4);
  EXPECT_EQ(Row(r.standings(), "P6").rank(), 5);
  EXPECT_EQ(Row(r.standings(), "P6").decided_by(), "B");
}

TEST(Swiss, PointsThenOpponents) {
  v1::StandingsReport r = ComputeStandings(
      SixPlayerSwiss(v1::TournamentSettings::POINTS_THEN_OPPONENTS).Build(), SixPlayerGames());
  // Points: P1 4, P6 3, then P2 and P3 on 2: P2's opponents 5 > P3's 4.
  EXPECT_THAT(Order(r.standings()), ElementsAre("P1", "P6", "P2", "P3", "P5", "P4"));
  EXPECT_EQ(Row(r.standings(), "P3").decided_by(), "opponents' points");
}

TEST(Team, MatchPointsBoardPointsBoardByBoard) {
  // Four teams of two boards, one round. A v B: A1 beats B1, A2 draws B2:
  // 3-1, A wins the match. C v D: C1 draws D1, C2 beats D2: 3-1, C wins.
  // A and C: 2 match points, 3 board points; board 1: A1 2 > C1 1: A first.
  // B and D: 0 match points, 1 board point; board 1: B1 0 < D1 1: D third.
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN, /*teams=*/true);
  for (const char* t : {"A", "B", "C", "D"}) {
    b.Team(t);
    b.Player(absl::StrCat(t, "1"), t, 1).Player(absl::StrCat(t, "2"), t, 2);
  }
  b.Round(1, {{"A1", "B1", "G1"}, {"B2", "A2", "G2"}, {"C1", "D1", "G3"}, {"D2", "C2", "G4"}});
  GameFactsMap games = {{"G1", Decided(kBlack)},
                        {"G2", Decided(kDraw)},
                        {"G3", Decided(kDraw)},
                        {"G4", Decided(kWhite)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  EXPECT_THAT(Order(r.standings()), ElementsAre("A", "C", "D", "B"));
  EXPECT_EQ(Row(r.standings(), "A").points(), 2);
  EXPECT_EQ(Row(r.standings(), "A").board_points(), 3);
  EXPECT_THAT(Row(r.standings(), "A").board_by_board(), ElementsAre(2, 1));
  EXPECT_THAT(Row(r.standings(), "C").board_by_board(), ElementsAre(1, 2));
  EXPECT_EQ(Row(r.standings(), "C").rank(), 2);
  EXPECT_EQ(Row(r.standings(), "C").decided_by(), "board 1");
  EXPECT_EQ(Row(r.standings(), "D").decided_by(), "");  // fewer match points than C
  EXPECT_EQ(Row(r.standings(), "B").decided_by(), "board 1");
  // Each player's own record too.
  EXPECT_EQ(Row(r.player_standings(), "A1").points(), 2);
  EXPECT_EQ(Row(r.player_standings(), "B2").points(), 1);
}

TEST(Team, RoundRobinOverRoundsAndEqualTeamsShare) {
  // Three teams, three rounds, one match a round.
  // R1 X v Y: X1 beats Y1, Y2 beats X2: 2-2, drawn match (1 each).
  // R2 X v Z: X1 draws Z1, X2 beats Z2: 3-1, X wins.
  // R3 Y v Z: Z1 beats Y1, Z2 beats Y2: 0-4, Z wins.
  // Match points: X 1+2 = 3, Z 0+2 = 2, Y 1+0 = 1.
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN, true);
  for (const char* t : {"X", "Y", "Z"}) {
    b.Team(t);
    b.Player(absl::StrCat(t, "1"), t, 1).Player(absl::StrCat(t, "2"), t, 2);
  }
  b.Round(1, {{"X1", "Y1", "G1"}, {"X2", "Y2", "G2"}});
  b.Round(2, {{"X1", "Z1", "G3"}, {"X2", "Z2", "G4"}});
  b.Round(3, {{"Y1", "Z1", "G5"}, {"Y2", "Z2", "G6"}});
  GameFactsMap games = {{"G1", Decided(kBlack)}, {"G2", Decided(kWhite)}, {"G3", Decided(kDraw)},
                        {"G4", Decided(kBlack)}, {"G5", Decided(kWhite)}, {"G6", Decided(kWhite)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  EXPECT_THAT(Order(r.standings()), ElementsAre("X", "Z", "Y"));
  EXPECT_EQ(Row(r.standings(), "X").points(), 3);
  EXPECT_EQ(Row(r.standings(), "X").board_points(), 5);  // 2 + 3
  EXPECT_EQ(Row(r.standings(), "Z").board_points(), 5);  // 1 + 4
  EXPECT_EQ(Row(r.standings(), "Y").board_points(), 2);  // 2 + 0
  EXPECT_EQ(Row(r.standings(), "X").draws(), 1);
  EXPECT_EQ(Row(r.standings(), "X").wins(), 1);

  // A match with a board still pending gives no match points yet.
  games.erase("G6");
  r = ComputeStandings(b.Build(), games);
  EXPECT_EQ(Row(r.standings(), "Z").points(), 0);            // only R2's lost match counts
  EXPECT_EQ(Row(r.standings(), "Z").board_points(), 1 + 2);  // R2's 1, and G5 won
}

TEST(Team, SwissTotalScoreOverMatchPoints) {
  // Four teams of one board, two rounds (R = 2):
  // R1: A beats B, C beats D.  R2: A beats C, B beats D.
  // Match points: A 4, B 2, C 2, D 0. Opponents' match points:
  // A B+C = 4, B A+D = 4, C D+A = 4, D C+B = 4.
  // Total = MP + ΣOpp/2 − 2: A 4, B 2, C 2, D 0; B and C level, then board
  // points (2 each), board 1 (2 each): shared.
  TournamentBuilder b(v1::TournamentSettings::SWISS, true);
  for (const char* t : {"A", "B", "C", "D"}) b.Team(t).Player(absl::StrCat(t, "1"), t, 1);
  b.Round(1, {{"A1", "B1", "G1"}, {"C1", "D1", "G2"}});
  b.Round(2, {{"A1", "C1", "G3"}, {"B1", "D1", "G4"}});
  GameFactsMap games = {{"G1", Decided(kBlack)},
                        {"G2", Decided(kBlack)},
                        {"G3", Decided(kBlack)},
                        {"G4", Decided(kBlack)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "A").total_score(), 4.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "B").total_score(), 2.0);
  EXPECT_EQ(Row(r.standings(), "B").rank(), 2);
  EXPECT_EQ(Row(r.standings(), "C").rank(), 2);
  EXPECT_EQ(Row(r.standings(), "D").rank(), 4);
}

// 27 团体赛 2 (the total score "与个人积分编排制比赛相同"): a team's round counts
// once its match is complete. R1: A v B decided, C v D playing.
TEST(Team, ASwissTeamsRoundCountsOnceItsMatchIsComplete) {
  TournamentBuilder b(v1::TournamentSettings::SWISS, true);
  for (const char* t : {"A", "B", "C", "D"}) b.Team(t).Player(absl::StrCat(t, "1"), t, 1);
  b.Round(1, {{"A1", "B1", "G1"}, {"C1", "D1", "G2"}});
  v1::StandingsReport r = ComputeStandings(b.Build(), {{"G1", Decided(kBlack)}});
  // A: 2 + 0/1 − 1 = 1; B: 0 + 2/1 − 1 = 1; C and D: no round counted, 0.
  EXPECT_DOUBLE_EQ(Row(r.standings(), "A").total_score(), 1.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "B").total_score(), 1.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "C").total_score(), 0.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "D").total_score(), 0.0);
  EXPECT_THAT(Row(r.standings(), "A").counted_rounds(), ElementsAre(1));
  EXPECT_THAT(Row(r.standings(), "D").counted_rounds(), ElementsAre());
}

// Six teams of two boards, two rounds (R = 2), black the first team named:
// R1: A v B 4-0 (A1, A2 win); C v D 2-2 (C1 wins, D2 wins); E v F 2-2 (E1
//     wins, F2 wins).
// R2: A v C 3-1 (A1 wins, board 2 drawn); B v E 3-1 (board 1 drawn, B2
//     wins); D v F 4-0.
// Match points: A 4, B 2, C 1, D 3, E 1, F 1. Board points: A 7, B 3, C 3,
// D 6, E 3, F 2. Board 1: B 0+1 = 1, C 2+0 = 2, E 2+1 = 3.
v1::StandingsReport SixTeamSwiss(v1::TournamentSettings::SwissMethod method,
                                 const std::string& ruleset = "") {
  TournamentBuilder b(v1::TournamentSettings::SWISS, /*teams=*/true);
  b.settings()->set_swiss_method(method);
  b.settings()->set_ruleset(ruleset);
  for (const char* t : {"A", "B", "C", "D", "E", "F"}) {
    b.Team(t);
    b.Player(absl::StrCat(t, "1"), t, 1).Player(absl::StrCat(t, "2"), t, 2);
  }
  b.Round(1, {{"A1", "B1", "1a"},
              {"A2", "B2", "1b"},
              {"C1", "D1", "1c"},
              {"C2", "D2", "1d"},
              {"E1", "F1", "1e"},
              {"E2", "F2", "1f"}});
  b.Round(2, {{"A1", "C1", "2a"},
              {"A2", "C2", "2b"},
              {"B1", "E1", "2c"},
              {"B2", "E2", "2d"},
              {"D1", "F1", "2e"},
              {"D2", "F2", "2f"}});
  GameFactsMap games = {{"1a", Decided(kBlack)}, {"1b", Decided(kBlack)}, {"1c", Decided(kBlack)},
                        {"1d", Decided(kWhite)}, {"1e", Decided(kBlack)}, {"1f", Decided(kWhite)},
                        {"2a", Decided(kBlack)}, {"2b", Decided(kDraw)},  {"2c", Decided(kDraw)},
                        {"2d", Decided(kBlack)}, {"2e", Decided(kBlack)}, {"2f", Decided(kBlack)}};
  return ComputeStandings(b.Build(), games);
}

TEST(Team, SwissTiesOnTotalScoreGoOnAsARoundRobinMatchPointsFirst) {
  // Total score = MP + ΣOpp / R − R: B 2 + (A 4 + E 1)/2 − 2 = 2.5, C 1 +
  // (D 3 + A 4)/2 − 2 = 2.5: level. "依循环赛顺序": match points, B 2 > C 1,
  // so B is above C (board points, 3 each, and board 1, C's 2 > B's 1, would
  // have put C first).
  v1::StandingsReport r = SixTeamSwiss(v1::TournamentSettings::TOTAL_SCORE);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "B").total_score(), 2.5);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "C").total_score(), 2.5);
  EXPECT_LT(Row(r.standings(), "B").rank(), Row(r.standings(), "C").rank());
  EXPECT_EQ(Row(r.standings(), "C").decided_by(), "match points");
}

TEST(Team, SwissByMatchPointsNamesNoOpponentsPoints) {
  // 总积分: match points A 4, D 3, B 2, then C, E, F on 1. Board points: C 3,
  // E 3, F 2; board 1: E 3 > C 2. So A D B E C F (the individual Swiss's
  // opponents' points, C's 7 against E's 3, would have put C first).
  v1::StandingsReport r = SixTeamSwiss(v1::TournamentSettings::POINTS_THEN_OPPONENTS);
  EXPECT_THAT(Order(r.standings()), ElementsAre("A", "D", "B", "E", "C", "F"));
  EXPECT_EQ(Row(r.standings(), "C").decided_by(), "board 1");
  EXPECT_EQ(Row(r.standings(), "F").decided_by(), "board points");
}

// Three teams of two boards, one Swiss round: A v B, both A's players win
// (4-0); C has the bye, named as the team (`--bye C`: its players with a
// board). With a bye worth 2 each of C1, C2 is credited 2 (the players'
// table), so C has 4 board points, 2 on each board, and a won match: 2 match
// points, as A. Total score (R = 1): A 2 + 0/1 - 1 = 1, C 2 + 0 - 1 = 1 (a
// bye has no opponent); level on everything: A and C share rank 1.
TEST(Team, AByeIsAMatchWorthTheSettingAndAgreesWithThePlayersTable) {
  for (int bye : {2, 1}) {
    SCOPED_TRACE(bye);
    TournamentBuilder b(v1::TournamentSettings::SWISS, /*teams=*/true);
    b.settings()->set_bye_points(bye);
    for (const char* t : {"A", "B", "C"}) {
      b.Team(t);
      b.Player(absl::StrCat(t, "1"), t, 1).Player(absl::StrCat(t, "2"), t, 2);
    }
    b.Round(1, {{"A1", "B1", "G1"}, {"A2", "B2", "G2"}}, {"C"});
    v1::StandingsReport r =
        ComputeStandings(b.Build(), {{"G1", Decided(kBlack)}, {"G2", Decided(kBlack)}});
    const v1::Standing& c = Row(r.standings(), "C");
    EXPECT_EQ(c.points(), bye == 2 ? 2 : 1);  // a won match, or a drawn one
    EXPECT_EQ(c.board_points(), 2 * bye);
    EXPECT_THAT(c.board_by_board(), ElementsAre(bye, bye));
    EXPECT_EQ(Row(r.player_standings(), "C1").points(), bye);
    EXPECT_EQ(Row(r.player_standings(), "C2").points(), bye);
    EXPECT_EQ(c.opponents_points(), 0);
    if (bye == 2) {
      EXPECT_EQ(Row(r.standings(), "A").rank(), 1);
      EXPECT_EQ(c.rank(), 1);
      EXPECT_EQ(c.wins(), 1);
    } else {
      EXPECT_EQ(c.draws(), 1);
    }
  }
}

// A Swiss team event, teams of two boards: B2 withdraws after round 1. Art.
// 28.4 ("未赛部分均作弃权处理"), not the individual Swiss's 28.3: B's board 2
// is paired in round 2 all the same, with no game, and lost by default.
// R1: A v B, both A's win; C v D, both C's win. R2: B v C: B1 draws C1 (1-1),
// B2 v C2 forfeited (0-2): C wins the match 3-1.
TEST(Team, AWithdrawalInASwissTeamEventForfeitsTheBoard) {
  TournamentBuilder b(v1::TournamentSettings::SWISS, /*teams=*/true);
  for (const char* t : {"A", "B", "C", "D"}) {
    b.Team(t);
    b.Player(absl::StrCat(t, "1"), t, 1).Player(absl::StrCat(t, "2"), t, 2);
  }
  b.Round(1, {{"A1", "B1", "G1"}, {"A2", "B2", "G2"}, {"C1", "D1", "G3"}, {"C2", "D2", "G4"}});
  b.Withdraw("B2", 1);
  b.Round(2, {{"B1", "C1", "G5"}, {"B2", "C2", ""}, {"A1", "D1", "G6"}, {"A2", "D2", "G7"}});
  GameFactsMap games = {{"G1", Decided(kBlack)}, {"G2", Decided(kBlack)}, {"G3", Decided(kBlack)},
                        {"G4", Decided(kBlack)}, {"G5", Decided(kDraw)},  {"G6", Decided(kBlack)},
                        {"G7", Decided(kBlack)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  ASSERT_EQ(r.pairings_size(), 8);
  EXPECT_EQ(r.pairings(5).status(), v1::ScoredPairing::FORFEIT);
  EXPECT_EQ(r.pairings(5).white_points(), 2);
  EXPECT_EQ(Row(r.standings(), "C").points(), 4);        // two matches won
  EXPECT_EQ(Row(r.standings(), "C").board_points(), 7);  // 4 + 3
  EXPECT_EQ(Row(r.standings(), "B").board_points(), 1);
  EXPECT_EQ(Row(r.standings(), "B").points(), 0);
}

TEST(Team, Cn1988SwissTeamsAreRankedByTotalScoreOnly) {
  // 1988 art. 28 二 2: "团体成绩根据总得分的高低区分名次": no 总积分.
  v1::TournamentEvent created;
  created.mutable_created()->set_tournament_id("t");
  v1::TournamentSettings* s = created.mutable_created()->mutable_settings();
  s->set_system(v1::TournamentSettings::SWISS);
  s->set_teams(true);
  s->set_ruleset("cn-1988");
  s->set_swiss_method(v1::TournamentSettings::POINTS_THEN_OPPONENTS);
  v1::Tournament t;
  absl::Status refused = Apply(created, &t);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.message()), ::testing::HasSubstr("总得分 only"));
  s->set_swiss_method(v1::TournamentSettings::TOTAL_SCORE);
  EXPECT_TRUE(Apply(created, &t).ok());
  // The 2002 rules allow either (27 团体赛 2: 总得分或总积分).
  v1::Tournament t2;
  s->set_ruleset("cn-2002");
  s->set_swiss_method(v1::TournamentSettings::POINTS_THEN_OPPONENTS);
  EXPECT_TRUE(Apply(created, &t2).ok());
}

TEST(Results, GameOutcomesMapToPoints) {
  // Lateness forfeits are by default; both-lose and no result are 0-0; a
  // REPLAY is pending until its replay's game decides the pairing.
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  for (int i = 1; i <= 8; ++i) b.Player(absl::StrCat("P", i));
  b.Round(1, {{"P1", "P2", "L"}, {"P3", "P4", "BL"}, {"P5", "P6", "NR"}, {"P7", "P8", "RP"}});
  GameFactsMap games = {{"L", Decided(kWhite, v1::Result::LATENESS)},
                        {"BL", Decided(v1::Result::BOTH_LOSE, v1::Result::LATENESS)},
                        {"NR", Decided(v1::Result::NO_RESULT, v1::Result::ARBITER)},
                        {"RP", Decided(v1::Result::REPLAY, v1::Result::ARBITER, 1, 0)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  ASSERT_EQ(r.pairings_size(), 4);
  EXPECT_EQ(r.pairings(0).status(), v1::ScoredPairing::DECIDED);
  EXPECT_TRUE(r.pairings(0).by_default());
  EXPECT_EQ(r.pairings(0).white_points(), 2);
  EXPECT_TRUE(r.pairings(1).by_default());
  EXPECT_EQ(r.pairings(1).outcome(), v1::Result::BOTH_LOSE);
  EXPECT_EQ(r.pairings(1).black_points() + r.pairings(1).white_points(), 0);
  EXPECT_EQ(r.pairings(2).outcome(), v1::Result::NO_RESULT);
  EXPECT_FALSE(r.pairings(2).by_default());
  EXPECT_EQ(r.pairings(3).status(), v1::ScoredPairing::PENDING);
  EXPECT_EQ(Row(r.standings(), "P2").points(), 2);
  EXPECT_EQ(Row(r.standings(), "P3").losses(), 1);
  EXPECT_EQ(Row(r.standings(), "P7").points(), 0);

  // The replay is scheduled as game RP2, which White wins: P8 2 points; the
  // warning P7 had in the replayed game still counts over the event.
  b.Replay(1, 4, "RP2");
  games["RP2"] = Decided(kWhite);
  r = ComputeStandings(b.Build(), games);
  EXPECT_EQ(r.pairings(3).status(), v1::ScoredPairing::DECIDED);
  EXPECT_EQ(r.pairings(3).game_id(), "RP2");
  EXPECT_EQ(Row(r.standings(), "P8").points(), 2);
  EXPECT_EQ(Row(r.standings(), "P7").warnings(), 1);
}

// FINDINGS item 10: a NO_RESULT game (0-0, "no result") is no loss. Under
// tournament-2026.2 it counts in none of wins, draws and losses, while a
// BOTH_LOSE (0-0 too) is a loss for both; both still count as met, so the
// opponents' points, total scores and ranks are as under 2026.1.
// R1: A-B no result, C-D both lose.  R2: A beats C (A black), B draws D.
TournamentBuilder NoResultAndBothLose() {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.settings()->set_rounds(2);
  b.Player("A").Player("B").Player("C").Player("D");
  b.Round(1, {{"A", "B", "NR"}, {"C", "D", "BL"}});
  b.Round(2, {{"A", "C", "G3"}, {"B", "D", "G4"}});
  return b;
}

GameFactsMap NoResultAndBothLoseGames() {
  return {{"NR", Decided(v1::Result::NO_RESULT, v1::Result::ARBITER)},
          {"BL", Decided(v1::Result::BOTH_LOSE, v1::Result::DISCIPLINE)},
          {"G3", Decided(kBlack)},
          {"G4", Decided(kDraw)}};
}

// Wins, draws and losses of `id`, as "W D L".
std::string Wdl(const v1::StandingsReport& r, const std::string& id) {
  const v1::Standing& s = Row(r.standings(), id);
  return absl::StrCat(s.wins(), " ", s.draws(), " ", s.losses());
}

TEST(Results, ANoResultIsNoLossFromTournament2026_2) {
  TournamentBuilder b = NoResultAndBothLose();
  b.StandingsRules("tournament-2026.2");
  const v1::Tournament t = b.Build();
  EXPECT_EQ(t.standings_rules(), "tournament-2026.2");
  v1::StandingsReport r = ComputeStandings(t, NoResultAndBothLoseGames());
  EXPECT_EQ(Wdl(r, "A"), "1 0 0");  // no result, won
  EXPECT_EQ(Wdl(r, "B"), "0 1 0");  // no result, drew
  EXPECT_EQ(Wdl(r, "C"), "0 0 2");  // both lost, lost
  EXPECT_EQ(Wdl(r, "D"), "0 1 1");  // both lost, drew
  // Met all the same: A's opponents B (1) and C (0); B's A (2) and D (1).
  EXPECT_EQ(Row(r.standings(), "A").opponents_points(), 1);
  EXPECT_EQ(Row(r.standings(), "B").opponents_points(), 3);
}

TEST(Results, Tournament2026_1CountsANoResultAsALossAsBefore) {
  // The same events pinned to the first version, and unpinned (a tournament
  // recorded before the pin): every 0-0 is a loss, as its recorded standings say.
  GameFactsMap games = NoResultAndBothLoseGames();
  TournamentBuilder pinned = NoResultAndBothLose();
  pinned.StandingsRules("tournament-2026.1");
  for (const v1::Tournament& t : {pinned.Build(), NoResultAndBothLose().Build()}) {
    EXPECT_EQ(t.standings_rules(), "tournament-2026.1");
    v1::StandingsReport r = ComputeStandings(t, games);
    EXPECT_EQ(Wdl(r, "A"), "1 0 1");
    EXPECT_EQ(Wdl(r, "B"), "0 1 1");
    EXPECT_EQ(Wdl(r, "C"), "0 0 2");
    EXPECT_EQ(Wdl(r, "D"), "0 1 1");
  }
  // Nothing else differs between the versions: points, opponents' points,
  // total scores, ranks and their order.
  TournamentBuilder current = NoResultAndBothLose();
  current.StandingsRules("tournament-2026.2");
  v1::StandingsReport old_report = ComputeStandings(pinned.Build(), games);
  v1::StandingsReport new_report = ComputeStandings(current.Build(), games);
  for (v1::StandingsReport* r : {&old_report, &new_report}) {
    for (v1::Standing& s : *r->mutable_standings()) {
      s.clear_wins();
      s.clear_draws();
      s.clear_losses();
    }
  }
  EXPECT_EQ(old_report.SerializeAsString(), new_report.SerializeAsString());
}

TEST(Results, ANoResultIsNoLossOnATeamPlayersOwnRecord) {
  // A team event's players' table tallies games as the individual one does.
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN, /*teams=*/true);
  b.StandingsRules("tournament-2026.2");
  b.Team("X").Team("Y");
  b.Player("X1", "X", 1).Player("X2", "X", 2).Player("Y1", "Y", 1).Player("Y2", "Y", 2);
  b.Round(1, {{"X1", "Y1", "NR"}, {"Y2", "X2", "BL"}});
  GameFactsMap games = {{"NR", Decided(v1::Result::NO_RESULT, v1::Result::ARBITER)},
                        {"BL", Decided(v1::Result::BOTH_LOSE, v1::Result::DISCIPLINE)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  auto wdl = [&](const std::string& id) {
    const v1::Standing& s = Row(r.player_standings(), id);
    return absl::StrCat(s.wins(), " ", s.draws(), " ", s.losses());
  };
  EXPECT_EQ(wdl("X1"), "0 0 0");
  EXPECT_EQ(wdl("Y1"), "0 0 0");
  EXPECT_EQ(wdl("X2"), "0 0 1");
  EXPECT_EQ(wdl("Y2"), "0 0 1");
}

TEST(Results, MissingOrUnfinishedGamesArePending) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.Player("A").Player("B").Player("C").Player("D");
  b.Round(1, {{"A", "B", "G1"}, {"C", "D", "G2"}});
  GameFactsMap games = {{"G2", GameFacts{}}};  // G2 in progress, G1 not created
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  EXPECT_EQ(r.pairings(0).status(), v1::ScoredPairing::PENDING);
  EXPECT_EQ(r.pairings(1).status(), v1::ScoredPairing::PENDING);
  for (const v1::Standing& s : r.standings()) EXPECT_EQ(s.points(), 0);
}

}  // namespace
}  // namespace arbiter::tournament
