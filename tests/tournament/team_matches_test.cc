// A team event's matches as their boards finish (team_matches.h), each
// figure computed by hand in the comments.
#include "adjudicator/tournament/team_matches.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/standings.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/tournament/builders.h"

namespace arbiter::tournament {
namespace {

using testing::Decided;
using testing::kBlack;
using testing::kDraw;
using testing::kWhite;
using testing::Row;
using testing::TournamentBuilder;

// Teams A, B, C, D of four boards; round 1 is A v B on boards 1-4 (A Black
// on boards 1 and 3) and C v D on boards 5-8 (D Black on board 5).
TournamentBuilder FourBoards() {
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN, /*teams=*/true);
  for (const char* t : {"A", "B", "C", "D"}) {
    b.Team(t);
    for (int board = 1; board <= 4; ++board) b.Player(absl::StrCat(t, board), t, board);
  }
  b.Round(1, {{"A1", "B1", "G1"},
              {"B2", "A2", "G2"},
              {"A3", "B3", "G3"},
              {"B4", "A4", "G4"},
              {"D1", "C1", "G5"},
              {"C2", "D2", "G6"},
              {"D3", "C3", "G7"},
              {"C4", "D4", "G8"}});
  return b;
}

TEST(TeamMatches, AMatchScoresBoardByBoardAsItsGamesFinish) {
  const v1::Tournament t = FourBoards().Build();
  // Three of A v B's boards finished: A1 beats B1 (2-0), A2 beats B2 (White
  // wins: 2-0), B3 beats A3 (White wins: 0-2); board 4 still playing.
  // A 4 : B 2 in board points, 3 of 4 boards finished. C v D: nothing yet.
  GameFactsMap games = {{"G1", Decided(kBlack)}, {"G2", Decided(kWhite)}, {"G3", Decided(kWhite)}};
  v1::StandingsReport r = ComputeStandings(t, games);
  std::vector<TeamMatch> m = TeamMatches(t, r.pairings());
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].round, 1);
  EXPECT_EQ(m[0].teams[0], "A");  // Black on the match's first board
  EXPECT_EQ(m[0].teams[1], "B");
  EXPECT_EQ(m[0].board_points[0], 4);
  EXPECT_EQ(m[0].board_points[1], 2);
  EXPECT_EQ(m[0].boards, 4);
  EXPECT_EQ(m[0].finished, 3);
  EXPECT_FALSE(m[0].Complete());
  EXPECT_EQ(m[1].teams[0], "D");  // D1 is Black on board 5
  EXPECT_EQ(m[1].teams[1], "C");
  EXPECT_EQ(m[1].finished, 0);
  // The standings count no match still playing: no match points yet, though
  // the boards finished count their board points (A 4, B 2).
  EXPECT_EQ(Row(r.standings(), "A").points(), 0);
  EXPECT_EQ(Row(r.standings(), "A").board_points(), 4);

  // Board 4 ends drawn: A 5 : B 3, complete, A wins the match (2 match
  // points, B 0). C v D: D1 beats C1, C2 beats D2, D3 and C3 draw, C4 beats
  // D4: D 2+0+1+0 = 3, C 0+2+1+2 = 5: C wins.
  games["G4"] = Decided(kDraw);
  games["G5"] = Decided(kBlack);
  games["G6"] = Decided(kBlack);
  games["G7"] = Decided(kDraw);
  games["G8"] = Decided(kBlack);
  r = ComputeStandings(t, games);
  m = TeamMatches(t, r.pairings());
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].board_points[0], 5);
  EXPECT_EQ(m[0].board_points[1], 3);
  EXPECT_TRUE(m[0].Complete());
  EXPECT_EQ(m[0].MatchPoints(0), 2);
  EXPECT_EQ(m[0].MatchPoints(1), 0);
  EXPECT_EQ(m[1].board_points[0], 3);
  EXPECT_EQ(m[1].board_points[1], 5);
  EXPECT_EQ(m[1].MatchPoints(1), 2);
  EXPECT_EQ(Row(r.standings(), "A").points(), 2);
  EXPECT_EQ(Row(r.standings(), "C").points(), 2);
  EXPECT_EQ(Row(r.standings(), "D").points(), 0);
}

TEST(TeamMatches, DrawnMatchesAndIndividualEvents) {
  const v1::Tournament t = FourBoards().Build();
  // A v B: A1 and A3 win (Black), B2 and B4 win (Black): 4-4, drawn: 1 each.
  GameFactsMap games = {{"G1", Decided(kBlack)},
                        {"G2", Decided(kBlack)},
                        {"G3", Decided(kBlack)},
                        {"G4", Decided(kBlack)}};
  v1::StandingsReport r = ComputeStandings(t, games);
  std::vector<TeamMatch> m = TeamMatches(t, r.pairings());
  ASSERT_FALSE(m.empty());
  EXPECT_TRUE(m[0].Complete());
  EXPECT_EQ(m[0].MatchPoints(0), 1);
  EXPECT_EQ(m[0].MatchPoints(1), 1);

  TournamentBuilder solo(v1::TournamentSettings::ROUND_ROBIN);
  solo.Player("P").Player("Q");
  solo.Round(1, {{"P", "Q", "G1"}});
  const v1::Tournament individual = solo.Build();
  EXPECT_TRUE(
      TeamMatches(individual, ComputeStandings(individual, {{"G1", Decided(kBlack)}}).pairings())
          .empty());
}

}  // namespace
}  // namespace arbiter::tournament
