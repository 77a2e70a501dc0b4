// Team events' standings through a real `arbiter serve` and the CLI, every
// figure computed by hand in the comments: a 4-team round robin whose every
// tie-break decides a pair, under the 2002 rules and the 1988 rules.
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/tournament/e2e_fixture.h"

namespace arbiter {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using testing::ProcessResult;
using tournament_e2e::E2E;

// One match of three boards, the home team Black on boards 1 and 3 (the
// colours alternate by board), and the home team's result on each board:
// 'W' won, 'D' drawn, 'L' lost, '-' not played (no result entered).
struct Match {
  std::string home;
  std::string away;
  std::string results;
};

class TeamE2E : public E2E {
 protected:
  // Creates tournament `id` (teams A-D, three fixed boards each) with the
  // `settings` flags, pairs `rounds` (matches in board order: the first
  // match's boards are 1-3, the second's 4-6) and enters each board's
  // result from the score sheet.
  void Play(const std::string& id, std::vector<std::string> settings,
            const std::vector<std::vector<Match>>& rounds) {
    std::vector<std::string> create = {"tournament", "create", "--id", id, "--teams"};
    create.insert(create.end(), settings.begin(), settings.end());
    for (const char* t : {"A", "B", "C", "D"}) {
      create.insert(create.end(), {"--team", std::string(t) + ":Team " + t});
      for (int b = 1; b <= 3; ++b) {
        const std::string p = std::string(t) + std::to_string(b);
        create.insert(create.end(),
                      {"--player", p + ":" + p + ":1D:" + t + ":" + std::to_string(b)});
      }
    }
    ProcessResult r = Cli(create);
    ASSERT_EQ(r.exit, 0) << r.err;
    for (size_t round = 0; round < rounds.size(); ++round) {
      const std::string n = std::to_string(round + 1);
      std::vector<std::string> pair = {"tournament", "pair", id, "--round", n};
      std::vector<std::string> outcomes;
      for (const Match& m : rounds[round]) {
        for (int b = 1; b <= 3; ++b) {
          const bool home_black = b != 2;
          const std::string home = m.home + std::to_string(b);
          const std::string away = m.away + std::to_string(b);
          pair.insert(pair.end(), {"--board", home_black ? home + "," + away : away + "," + home});
          const char res = m.results[b - 1];
          outcomes.push_back(res == 'D'                   ? "draw"
                             : (res == 'W') == home_black ? "black-wins"
                                                          : "white-wins");
        }
      }
      r = Cli(pair);
      ASSERT_EQ(r.exit, 0) << r.err;
      for (size_t board = 0; board < outcomes.size(); ++board) {
        if (outcomes[board].empty()) continue;
        r = Cli({"tournament", "result", id, "--round", n, "--board", std::to_string(board + 1),
                 "--outcome", outcomes[board], "--reason", "score sheet"});
        ASSERT_EQ(r.exit, 0) << r.err;
      }
    }
  }
};

// Three rounds, A-D meeting once each; every team wins one match, draws one
// and loses one (3 match points each), so the match points tie everywhere
// and each later criterion of the text decides one pair:
//   R1 A v B: D D D (3-3, drawn)      C v D: D W L (3-3, drawn)
//   R2 A v C: W W D (5-1, A wins)     B v D: D W W (5-1, B wins)
//   R3 A v D: W L L (2-4, D wins)     B v C: D L D (2-4, C wins)
// Board by board (board 1, 2, 3; board points the sum):
//   A: R1 1 1 1, R2 2 2 1, R3 2 0 0 -> 5 3 2 = 10
//   B: R1 1 1 1, R2 1 2 2, R3 1 0 1 -> 3 3 4 = 10
//   C: R1 1 2 0, R2 0 0 1, R3 1 2 1 -> 2 4 2 = 8
//   D: R1 1 0 2, R2 1 0 0, R3 0 2 2 -> 2 2 4 = 8
// So: A and B level on board points (10), board 1 decides: A 5 > B 3.
//     B above C on board points: 10 > 8.
//     C and D level on board points (8) and on board 1 (2), board 2
//     decides: C 4 > D 2.
// Board 3 can never decide: with the board points and boards 1 and 2 level,
// board 3 (their difference) is level too.
const std::vector<std::vector<Match>> kThreeRounds = {
    {{"A", "B", "DDD"}, {"C", "D", "DWL"}},
    {{"A", "C", "WWD"}, {"B", "D", "DWW"}},
    {{"A", "D", "WLL"}, {"B", "C", "DLD"}},
};

// 2002 art. 27 团体赛 1: "各队所得场分高者名次列前；如场分相同，局分高者名次列前；
// 如局分相同，比第一台棋手的局分，高者名次列前；以下依次相比，如全部一样，允许并列。"
TEST_F(TeamE2E, RoundRobin2002EveryTieBreakDecidesAPair) {
  ASSERT_NO_FATAL_FAILURE(Play("rr", {"--system", "round-robin"}, kThreeRounds));
  ProcessResult r = Cli({"tournament", "standings", "rr"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, ContainsRegex("rank  name +MP +BP +B1 +B2 +B3 +W +D +L\n"));
  EXPECT_THAT(r.out, ContainsRegex("\n   1  Team A +3 +10 +5 +3 +2 +1 +1 +1\n"));
  EXPECT_THAT(r.out,
              ContainsRegex("\n   2  Team B +3 +10 +3 +3 +4 +1 +1 +1  \\(by board 1 第1台\\)\n"));
  EXPECT_THAT(
      r.out, ContainsRegex("\n   3  Team C +3 +8 +2 +4 +2 +1 +1 +1  \\(by board points 局分\\)\n"));
  EXPECT_THAT(r.out,
              ContainsRegex("\n   4  Team D +3 +8 +2 +2 +4 +1 +1 +1  \\(by board 2 第2台\\)\n"));
  // The legend names each criterion in the text's words.
  EXPECT_THAT(r.out, HasSubstr("MP     场分"));
  EXPECT_THAT(r.out, HasSubstr("BP     局分"));
  // The CSV export names them too (and, last, the record it came from).
  r = Cli({"tournament", "export", "rr", "--format", "csv"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("rank,id,name,match_points,board_points,board_1,board_2,board_3,"
                               "wins,draws,losses,decided_by,derived_from\r\n"));
  EXPECT_THAT(r.out,
              HasSubstr("2,B,Team B,3,10,3,3,4,1,1,1,board 1,tournaments/rr at checkpoint "));
  EXPECT_THAT(r.out,
              HasSubstr("3,C,Team C,3,8,2,4,2,1,1,1,board points,tournaments/rr at checkpoint "));
  EXPECT_THAT(r.out, HasSubstr("4,D,Team D,3,8,2,2,4,1,1,1,board 2,tournaments/rr at checkpoint "));

  // 团体赛 3: "如比赛不允许名次并列，可安排加赛": a team tie is broken by an
  // extra match, not by lots (those are the individual events' C).
  r = Cli({"tournament", "tiebreak", "rr", "--lots", "--order", "C,D"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("extra match (加赛"));
}

// The end of the text's list: "如全部一样，允许并列" (all level: the rank is
// shared), then 团体赛 3's extra match (加赛) when ties are not allowed. One
// round: A v B, every board drawn (3-3): A and B 1 match point, 3 board
// points, 1 on each board: level on everything, they share rank 2 under C
// (C v D: W W L, 4-2: C 2 match points). An extra match between A and B,
// won by B, orders them: B 2, A 3.
TEST_F(TeamE2E, AllLevelTeamsShareTheRankUntilAnExtraMatch) {
  ASSERT_NO_FATAL_FAILURE(Play("level", {"--system", "round-robin", "--rounds", "3"},
                               {{{"A", "B", "DDD"}, {"C", "D", "WWL"}}}));
  ProcessResult r = Cli({"tournament", "standings", "level"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, ContainsRegex("\n   1  Team C +2 +4 +2 +2 +0 .*\n"
                                   "   2  Team A +1 +3 +1 +1 +1 +0 +1 +0\n"
                                   "   2  Team B +1 +3 +1 +1 +1 +0 +1 +0\n"
                                   "   4  Team D +0 +2 +0 +0 +2 "));
  r = Cli({"tournament", "tiebreak", "level", "--extra-game", "--order", "B,A", "--game", "X1",
           "--note", "extra match"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "standings", "level"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, ContainsRegex("\n   2  Team B +1 +3 .*\n   3  Team A +1 +3 .*\\(by "
                                   "C:EXTRA_GAME 加赛\\)\n   4  Team D "));
}

// 1988 art. 28 二 1 reads as 2002's: "各队所得场分高者名次列前;如场分相等，局分高者名次
// 列前;如局分相同，比第一台棋手的局分，高者列前;以下依台次相比，如全部一样，允许并列。"
// The same event under cn-1988 ranks the same way, each tie named the same.
// As a Swiss (二 2: "团体成绩根据总得分的高低区分名次 ... 如相同则依循环赛顺序区分名次"),
// the total score is 场分 + 对手场分总和 / (½ 最高场分) − 轮次数 = 3 + 9/3 − 3 = 3.00
// for every team (each met the three others, 3 match points each), so the
// round robin's order decides, as above.
TEST_F(TeamE2E, The1988RulesRankTheSameEventByTheirOwnText) {
  ASSERT_NO_FATAL_FAILURE(
      Play("rr88", {"--system", "round-robin", "--ruleset", "cn-1988"}, kThreeRounds));
  ProcessResult r = Cli({"tournament", "standings", "rr88"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out,
              ContainsRegex("\n   1  Team A +3 +10 +5 +3 +2 .*\n   2  Team B +3 +10 +3 +3 +4 "
                            ".*\\(by board 1 第1台\\)\n   3  Team C +3 +8 +2 +4 +2 .*"
                            "\\(by board points 局分\\)\n   4  Team D +3 +8 +2 +2 +4 .*"
                            "\\(by board 2 第2台\\)\n"));

  ASSERT_NO_FATAL_FAILURE(Play("sw88",
                               {"--system", "swiss", "--rounds", "3", "--ruleset", "cn-1988",
                                "--swiss-method", "total-score"},
                               kThreeRounds));
  r = Cli({"tournament", "standings", "sw88"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, ContainsRegex("rank  name +total +MP +BP +B1 +B2 +B3 +W +D +L\n"));
  EXPECT_THAT(r.out,
              ContainsRegex("\n   1  Team A +3.00 +3 +10 +5 +3 +2 .*\n   2  Team B +3.00 +3 +10 +3 "
                            "+3 +4 .*\\(by board 1 第1台\\)\n   3  Team C +3.00 +3 +8 +2 +4 +2 .*"
                            "\\(by board points 局分\\)\n   4  Team D +3.00 +3 +8 +2 +2 +4 .*"
                            "\\(by board 2 第2台\\)\n"));
  // 1988 names no 总积分 ranking for a Swiss team event.
  r = Cli({"tournament", "create", "--id", "sw88b", "--teams", "--system", "swiss", "--ruleset",
           "cn-1988", "--swiss-method", "points-then-opponents"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("总得分"));
}

// 1988 art. 29.4: "在对抗赛或团体赛中，棋手中途退出比赛，已赛成绩均有效，未赛部分均作
// 对方胜。" The same event under cn-1988, but A3 withdraws after round 1 and D3
// after round 2, both recorded once every round is paired; their later
// boards are not played:
//   R2 A v C: W W -  A3 v C3 unplayed: C3's win (by default): A 4-2
//   R3 A v D: W L -  A3 v D3, both withdrawn: each side's unplayed game is
//                    the other's win, 2-2: A 4-4 D, a drawn match
// Board by board (1, 2, 3 = board points), match points:
//   A: R1 1 1 1, R2 2 2 0, R3 2 0 2 -> 5 3 3 = 11; 1 + 2 + 1 = 4
//   B: R1 1 1 1, R2 1 2 2, R3 1 0 1 -> 3 3 4 = 10; 1 + 2 + 0 = 3
//   C: R1 1 2 0, R2 0 0 2, R3 1 2 1 -> 2 4 3 = 9;  1 + 0 + 2 = 3
//   D: R1 1 0 2, R2 1 0 0, R3 0 2 2 -> 2 2 4 = 8;  1 + 0 + 1 = 2
// A first on match points; B above C on board points (10 > 9); D last.
// (Under 2002's 28.4, "未赛部分均作弃权处理", A3 v D3 is a forfeit by both,
// 0-0: withdrawal_test.cc compares the two.)
TEST_F(TeamE2E, A1988TeamWithdrawalCountsTheUnplayedBoardsAsTheOpponentsWins) {
  ASSERT_NO_FATAL_FAILURE(Play("wd88", {"--system", "round-robin", "--ruleset", "cn-1988"},
                               {
                                   {{"A", "B", "DDD"}, {"C", "D", "DWL"}},
                                   {{"A", "C", "WW-"}, {"B", "D", "DWW"}},
                                   {{"A", "D", "WL-"}, {"B", "C", "DLD"}},
                               }));
  for (const auto& [player, after] : {std::pair{"A3", "1"}, std::pair{"D3", "2"}}) {
    ProcessResult r = Cli({"tournament", "withdraw", "wd88", "--player", player, "--after-round",
                           after, "--note", "left the event"});
    ASSERT_EQ(r.exit, 0) << r.err;
  }
  v1::StandingsReport report;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("wd88", &report));
  const v1::ScoredPairing* r2b3 = nullptr;
  const v1::ScoredPairing* r3b3 = nullptr;
  for (const v1::ScoredPairing& p : report.pairings()) {
    if (p.round() == 2 && p.board() == 3) r2b3 = &p;
    if (p.round() == 3 && p.board() == 3) r3b3 = &p;
  }
  ASSERT_NE(r2b3, nullptr);
  ASSERT_NE(r3b3, nullptr);
  EXPECT_EQ(r2b3->black(), "A3");  // the home team is Black on board 3
  EXPECT_EQ(r2b3->outcome(), v1::Result::WHITE_WINS);
  EXPECT_TRUE(r2b3->by_default());
  EXPECT_EQ(r2b3->clause(), "cn-1988/29.4");
  EXPECT_THAT(r2b3->note(), HasSubstr("counts as the opponent's win (未赛部分均作对方胜)"));
  EXPECT_EQ(r3b3->outcome(), v1::Result::BOTH_WIN);
  EXPECT_EQ(r3b3->black_points(), 2);
  EXPECT_EQ(r3b3->white_points(), 2);

  ProcessResult r = Cli({"tournament", "standings", "wd88"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out,
              ContainsRegex("\n   1  Team A +4 +11 +5 +3 +3 +1 +2 +0\n"
                            "   2  Team B +3 +10 +3 +3 +4 +1 +1 +1\n"
                            "   3  Team C +3 +9 +2 +4 +3 +1 +1 +1  \\(by board points 局分\\)\n"
                            "   4  Team D +2 +8 +2 +2 +4 +0 +2 +1\n"));
  EXPECT_THAT(r.out, HasSubstr("note: round 3 board 3 A3-D3: D3 withdrew after round 2; "
                               "cn-1988/29.4: the unplayed game counts as the opponent's win "
                               "(未赛部分均作对方胜); both withdrew: a win to each"));
}

}  // namespace
}  // namespace arbiter
