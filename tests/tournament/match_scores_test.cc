// A team event's matches as their boards finish (match_scores.h), each
// figure computed by hand in the comments.
#include "adjudicator/tournament/match_scores.h"

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/fold.h"
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

TEST(MatchScores, AMatchScoresBoardByBoardAsItsGamesFinish) {
  const v1::Tournament t = FourBoards().Build();
  // Three of A v B's boards finished: A1 beats B1 (2-0), A2 beats B2 (White
  // wins: 2-0), B3 beats A3 (White wins: 0-2); board 4 still playing.
  // A 4 : B 2 in board points, 3 of 4 boards finished. C v D: nothing yet.
  GameFactsMap games = {{"G1", Decided(kBlack)}, {"G2", Decided(kWhite)}, {"G3", Decided(kWhite)}};
  v1::StandingsReport r = ComputeStandings(t, games);
  std::vector<MatchScore> m = MatchScores(t, r.pairings());
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
  m = MatchScores(t, r.pairings());
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

TEST(MatchScores, DrawnMatchesAndIndividualEvents) {
  const v1::Tournament t = FourBoards().Build();
  // A v B: A1 and A3 win (Black), B2 and B4 win (Black): 4-4, drawn: 1 each.
  GameFactsMap games = {{"G1", Decided(kBlack)},
                        {"G2", Decided(kBlack)},
                        {"G3", Decided(kBlack)},
                        {"G4", Decided(kBlack)}};
  v1::StandingsReport r = ComputeStandings(t, games);
  std::vector<MatchScore> m = MatchScores(t, r.pairings());
  ASSERT_FALSE(m.empty());
  EXPECT_TRUE(m[0].Complete());
  EXPECT_EQ(m[0].MatchPoints(0), 1);
  EXPECT_EQ(m[0].MatchPoints(1), 1);

  TournamentBuilder solo(v1::TournamentSettings::ROUND_ROBIN);
  solo.Player("P").Player("Q");
  solo.Round(1, {{"P", "Q", "G1"}});
  const v1::Tournament individual = solo.Build();
  EXPECT_TRUE(
      MatchScores(individual, ComputeStandings(individual, {{"G1", Decided(kBlack)}}).pairings())
          .empty());
}

}  // namespace
}  // namespace arbiter::tournament

namespace arbiter::tournament {
namespace {

// A team's bye under 临场出人制 credits each board the lineup gives: teams
// A, B, C of two boards; A has a substitute, A3 (no registered board). Round
// 1: A's lineup is A3 on board 1, A1 on board 2, and A has the bye (worth 2
// a board: a won match); B1 beats C1, B2 draws C2. A: 2 match points, board
// points 4, board 1: 2 (A3's), board 2: 2 (A1's), as the players' table
// credits A3 and A1 2 each.
TEST(MatchScores, AByeUnderRoundLineupsCreditsTheLineupsBoards) {
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN, /*teams=*/true);
  b.settings()->set_team_system(v1::TournamentSettings::ROUND_LINEUP);
  b.settings()->set_match_boards(2);
  b.settings()->set_bye_points(2);
  for (const char* t : {"A", "B", "C"}) {
    b.Team(t);
    b.Player(absl::StrCat(t, "1"), t, 1).Player(absl::StrCat(t, "2"), t, 2);
  }
  b.Player("A3", "A", 0);
  std::vector<v1::TournamentEvent> events = b.events();
  for (const auto& [team, players] :
       {std::pair<std::string, std::vector<std::string>>{"A", {"A3", "A1"}},
        {"B", {"B1", "B2"}},
        {"C", {"C1", "C2"}}}) {
    v1::TournamentEvent e;
    e.mutable_lineup_set()->set_round(1);
    e.mutable_lineup_set()->set_team(team);
    for (const std::string& p : players) e.mutable_lineup_set()->add_players(p);
    events.push_back(e);
  }
  v1::TournamentEvent round;
  v1::TournamentRound* r = round.mutable_round_paired()->mutable_round();
  r->set_round(1);
  for (const auto& [black, white, game] : {std::tuple{"B1", "C1", "G1"}, {"C2", "B2", "G2"}}) {
    v1::Pairing* p = r->add_pairings();
    p->set_board(r->pairings_size());
    p->set_black(black);
    p->set_white(white);
    p->set_game_id(game);
  }
  r->add_byes("A");
  events.push_back(round);
  absl::StatusOr<v1::Tournament> t = Fold(events);
  ASSERT_TRUE(t.ok()) << t.status();
  v1::StandingsReport report =
      ComputeStandings(*t, {{"G1", Decided(kBlack)}, {"G2", Decided(kDraw)}});
  const v1::Standing& a = Row(report.standings(), "A");
  EXPECT_EQ(a.points(), 2);
  EXPECT_EQ(a.board_points(), 4);
  EXPECT_THAT(a.board_by_board(), ::testing::ElementsAre(2, 2));
  EXPECT_EQ(Row(report.player_standings(), "A3").points(), 2);
  EXPECT_EQ(Row(report.standings(), "B").points(), 2);  // 3-1
  EXPECT_EQ(Row(report.standings(), "C").points(), 0);
}

// A substitute with no registered board, paired board by board (no match
// board named): the board is the opponent's, as boards are never crossed.
// A3 (substitute) beats B1 on board 1, B2 beats A2 on board 2: 2-2, drawn;
// A's board 1: 2 (A3's win), board 2: 0.
TEST(MatchScores, ASubstitutePairedBoardByBoardPlaysItsOpponentsBoard) {
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN, /*teams=*/true);
  for (const char* t : {"A", "B"}) {
    b.Team(t);
    b.Player(absl::StrCat(t, "1"), t, 1).Player(absl::StrCat(t, "2"), t, 2);
  }
  b.Player("A3", "A", 0);
  b.Round(1, {{"A3", "B1", "G1"}, {"B2", "A2", "G2"}});
  v1::StandingsReport report =
      ComputeStandings(b.Build(), {{"G1", Decided(kBlack)}, {"G2", Decided(kBlack)}});
  EXPECT_THAT(Row(report.standings(), "A").board_by_board(), ::testing::ElementsAre(2, 0));
  EXPECT_THAT(Row(report.standings(), "B").board_by_board(), ::testing::ElementsAre(0, 2));
  EXPECT_EQ(Row(report.standings(), "A").points(), 1);
}

}  // namespace
}  // namespace arbiter::tournament
