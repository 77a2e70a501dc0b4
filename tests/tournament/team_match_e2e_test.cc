// Team rounds as matches through a real `arbiter serve` and the CLI (issue
// 31 points 2, 3 and the refusals of point 5): `tournament pair --match`,
// `--bye TEAM`, `tournament lineup`, `start-round` and the standings, every
// figure computed by hand from the 2002 text (art. 27 团体赛, 28.4).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "tests/tournament/builders.h"
#include "tests/tournament/e2e_fixture.h"

namespace arbiter::tournament_e2e {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using tournament::testing::Row;

class TeamMatches : public E2E {
 protected:
  void Ok(std::vector<std::string> args) {
    ProcessResult r = Cli(std::move(args));
    ASSERT_EQ(r.exit, 0) << r.err;
  }

  // Teams A, B, C of three boards (A1 on board 1...), and `more` flags.
  void CreateThreeTeams(const std::string& id, std::vector<std::string> more) {
    std::vector<std::string> args = {"tournament", "create", "--id", id, "--teams"};
    for (const char* t : {"A", "B", "C"}) {
      args.insert(args.end(), {"--team", absl::StrCat(t, ":Team ", t)});
      for (int k = 1; k <= 3; ++k) {
        args.insert(args.end(), {"--player", absl::StrCat(t, k, ":", t, k, ":3D:", t, ":", k)});
      }
    }
    args.insert(args.end(), more.begin(), more.end());
    ASSERT_NO_FATAL_FAILURE(Ok(args));
  }

  // The game `game` (created by start-round) begins, Black plays, and
  // `loser` ("BLACK" or "WHITE") resigns.
  void Resigns(const std::string& game, const std::string& loser) {
    const absl::Time now = absl::Now();
    auto at = [&](int s) {
      return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", now + absl::Seconds(s), absl::UTCTimeZone());
    };
    const std::string path = dir_.File(game + ".jsonl");
    testing::WriteFile(
        path,
        absl::StrCat("{\"at\": \"", at(1), "\", \"gameStarted\": {}}\n", "{\"at\": \"", at(2),
                     "\", \"move\": {\"color\": \"BLACK\", \"point\": "
                     "\"Q16\"}}\n",
                     "{\"at\": \"", at(3), "\", \"resign\": {\"color\": \"", loser, "\"}}\n"));
    ProcessResult r = Cli({"record", path, "--game", game});
    ASSERT_EQ(r.exit, 0) << r.err;
  }

  v1::Tournament Show(const std::string& id) {
    ProcessResult r = Cli({"tournament", "show", id, "--json"});
    EXPECT_EQ(r.exit, 0) << r.err;
    v1::Tournament t;
    EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &t).ok()) << r.out;
    return t;
  }
};

// "black-white" of each table of round `round`.
std::vector<std::string> Tables(const v1::Tournament& t, int round) {
  std::vector<std::string> out;
  for (const v1::TournamentRound& r : t.rounds()) {
    if (r.round() != round) continue;
    for (const v1::Pairing& p : r.pairings()) {
      out.push_back(absl::StrCat(p.board(), " ", p.black(), "-", p.white(), " ", p.game_id()));
    }
  }
  return out;
}

// A Swiss team event (2002), three teams of three boards, a bye worth 2, two
// rounds, paired match by match. Colours: the default, the first-named team
// Black on boards 1 and 3 (art. 10 leaves them to the regulations).
//
// Round 1: --match A,B --bye C. Tables 1 A1-B1, 2 B2-A2, 3 A3-B3.
//   A1 wins (Black; B1 resigns), B2 wins (Black), A3 wins (Black):
//   A 4 board points : B 2, A wins the match: A 2 match points, B 0.
//   C's bye: each of C1, C2, C3 credited 2 (局分的记法和个人赛相同): C 6 board
//   points and a won match, 2 match points.
// B3 withdraws after round 1.
// Round 2: --match B,C --bye A. Tables 1 B1-C1, 2 C2-B2, 3 B3-C3.
//   Table 3 is B3's: paired all the same and lost by default (28.4 未赛部分
//   均作弃权处理): no game is created for it, C3 gets 2.
//   B1 wins (Black), C2 wins (Black): B 2 : C 4, C wins: C 2, B 0.
//   A's bye: 6 board points, 2 match points.
// After 2 rounds (R = 2, 总得分 = match points + opponents' match points /
// (½ x 4) - 2; a bye has no opponent):
//   A: MP 4, BP 4 + 6 = 10, by board 2+2, 0+2, 2+2 = 4, 2, 4;
//      opponents B (0): 4 + 0/2 - 2 = 2.
//   C: MP 4, BP 6 + 4 = 10, by board 2+0, 2+2, 2+2 = 2, 4, 4;
//      opponents B (0): 4 + 0 - 2 = 2.
//   B: MP 0, BP 2 + 2 = 4; opponents A (4) and C (4): 0 + 8/2 - 2 = 2.
// All three have a total score of 2; "如相同则依循环赛顺序区分名次": match
// points put B third (0 against 4); A and C are level on match points and
// board points (10), and board 1 decides: A 4, C 2. 1 A, 2 C, 3 B.
TEST_F(TeamMatches, ASwissTeamEventPairedByMatchWithAByeAndAWithdrawal) {
  ASSERT_NO_FATAL_FAILURE(
      CreateThreeTeams("swiss", {"--system", "swiss", "--rounds", "2", "--bye-points", "2"}));
  ProcessResult r =
      Cli({"tournament", "pair", "swiss", "--round", "1", "--match", "A,B", "--bye", "C"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("board 2 (match board 2)  B2 (B) - A2 (W)  game -"));
  EXPECT_THAT(Tables(Show("swiss"), 1), ElementsAre("1 A1-B1 ", "2 B2-A2 ", "3 A3-B3 "));
  r = Cli({"tournament", "start-round", "swiss", "--round", "1"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("3 game(s) created, 0 already there"));
  for (const char* g : {"swiss-r1-b1", "swiss-r1-b2", "swiss-r1-b3"}) {
    ASSERT_NO_FATAL_FAILURE(Resigns(g, "WHITE"));
  }
  Ok({"tournament", "withdraw", "swiss", "--player", "B3", "--after-round", "1"});

  r = Cli({"tournament", "pair", "swiss", "--round", "2", "--match", "B,C", "--bye", "A"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "start-round", "swiss", "--round", "2"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("table 3  no game: B3 withdrew after round 1 (cn-2002/28.4: lost "
                               "by default, no game)"));
  EXPECT_THAT(r.out, HasSubstr("2 game(s) created, 0 already there, 1 board(s) lost by default"));
  EXPECT_THAT(Tables(Show("swiss"), 2),
              ElementsAre("1 B1-C1 swiss-r2-b1", "2 C2-B2 swiss-r2-b2", "3 B3-C3 "));
  for (const char* g : {"swiss-r2-b1", "swiss-r2-b2"}) {
    ASSERT_NO_FATAL_FAILURE(Resigns(g, "WHITE"));
  }

  v1::StandingsReport report;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("swiss", &report));
  EXPECT_THAT(report.errors(), ::testing::IsEmpty());
  ASSERT_EQ(report.standings_size(), 3);
  EXPECT_EQ(report.standings(0).id(), "A");
  EXPECT_EQ(report.standings(1).id(), "C");
  EXPECT_EQ(report.standings(2).id(), "B");
  const v1::Standing& a = Row(report.standings(), "A");
  const v1::Standing& c = Row(report.standings(), "C");
  const v1::Standing& b = Row(report.standings(), "B");
  EXPECT_EQ(a.points(), 4);
  EXPECT_EQ(c.points(), 4);
  EXPECT_EQ(b.points(), 0);
  EXPECT_EQ(a.board_points(), 10);
  EXPECT_EQ(c.board_points(), 10);
  EXPECT_EQ(b.board_points(), 4);
  EXPECT_THAT(a.board_by_board(), ElementsAre(4, 2, 4));
  EXPECT_THAT(c.board_by_board(), ElementsAre(2, 4, 4));
  EXPECT_DOUBLE_EQ(a.total_score(), 2);
  EXPECT_DOUBLE_EQ(c.total_score(), 2);
  EXPECT_DOUBLE_EQ(b.total_score(), 2);
  EXPECT_EQ(a.rank(), 1);
  EXPECT_EQ(c.rank(), 2);
  EXPECT_EQ(c.decided_by(), "board 1");
  EXPECT_EQ(b.rank(), 3);
  // The players' table agrees: C3 has the bye's 2 and the forfeit's 2; B3
  // the round 1 loss and the forfeit, 0.
  EXPECT_EQ(Row(report.player_standings(), "C3").points(), 4);
  EXPECT_EQ(Row(report.player_standings(), "B3").points(), 0);
  bool forfeit = false;
  for (const v1::ScoredPairing& p : report.pairings()) {
    if (p.round() == 2 && p.board() == 3) {
      forfeit = true;
      EXPECT_EQ(p.status(), v1::ScoredPairing::FORFEIT);
      EXPECT_EQ(p.white_points(), 2);
      EXPECT_EQ(p.clause(), "cn-2002/28.4");
      EXPECT_TRUE(p.game_id().empty());
    }
  }
  EXPECT_TRUE(forfeit);
}

struct Refused {
  const char* what;
  std::vector<std::string> args;
  const char* says;
};

// Each refusal: exit 2, one line naming the article, nothing written.
TEST_F(TeamMatches, RefusalsAreOneLineNamingTheArticleAndWriteNothing) {
  ASSERT_NO_FATAL_FAILURE(CreateThreeTeams("cup", {"--system", "swiss", "--rounds", "3", "--player",
                                                   "A4:A4:3D:A:4", "--match-boards", "3"}));
  const uint64_t revision = Show("cup").revision();
  const std::vector<Refused> refusals = {
      {"a gap in a match's boards",
       {"tournament", "pair", "cup", "--round", "1", "--board", "A1,B1", "--board", "B3,A3"},
       "round 1 match 'A' v 'B': boards 1, 3: board 2 is missing (27 团体赛 compares board by "
       "board)"},
      {"a third team's player",
       {"tournament", "pair", "cup", "--round", "1", "--board", "A1,B1", "--board", "B2,A2",
        "--board", "A3,C3"},
       "round 1 table 3: 'C3' of team 'C' meets 'A3' of team 'A', whose match is against 'B': a "
       "match is between two teams (25.2)"},
      {"crossed boards",
       {"tournament", "pair", "cup", "--round", "1", "--board", "A1,B2", "--board", "B1,A2"},
       "'A1' (board 1 of 'A') v 'B2' (board 2 of 'B'): crossed boards; a match pairs board k "
       "against board k (25.2: 台次一经排定，比赛中不得更改)"},
      {"a fixed order changed",
       {"tournament", "lineup", "cup", "A2,A1,A3", "--round", "1", "--team", "A"},
       "'A1' (board 1) after board 2: 分台定人制 keeps the registered order"},
      {"another team's player",
       {"tournament", "lineup", "cup", "A1,B2,A3", "--round", "1", "--team", "A"},
       "'B2' plays for team 'B' (25.2: a team fields its own players)"},
      {"too few",
       {"tournament", "lineup", "cup", "A1,A2", "--round", "1", "--team", "A"},
       "2 players; a team fields 3 (25.2: 每队人数相等)"},
      {"too many",
       {"tournament", "lineup", "cup", "A1,A2,A3,A4", "--round", "1", "--team", "A"},
       "4 players; a team fields 3 (25.2: 每队人数相等)"},
      {"a team in two matches",
       {"tournament", "pair", "cup", "--round", "1", "--match", "A,B", "--match", "B,C"},
       "team 'B' is in another match or has the bye"},
      {"matches and boards",
       {"tournament", "pair", "cup", "--round", "1", "--match", "A,B", "--board", "C1,A1"},
       "--match or --board, not both"},
  };
  for (const Refused& x : refusals) {
    SCOPED_TRACE(x.what);
    ProcessResult r = Cli(x.args);
    EXPECT_EQ(r.exit, 2);
    EXPECT_THAT(r.err, HasSubstr(x.says));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  EXPECT_EQ(Show("cup").revision(), revision);

  // A lineup after its round is paired.
  Ok({"tournament", "pair", "cup", "--round", "1", "--match", "A,B", "--bye", "C"});
  ProcessResult late =
      Cli({"tournament", "lineup", "cup", "A1,A2,A3", "--round", "1", "--team", "A"});
  EXPECT_EQ(late.exit, 2);
  EXPECT_THAT(late.err, HasSubstr("round 1 is already paired; a lineup is named before its round"));

  // The team systems the model does not run.
  ProcessResult all_play = Cli({"tournament", "create", "--id", "x", "--system", "swiss", "--teams",
                                "--team-system", "challenge"});
  EXPECT_EQ(all_play.exit, 2);
  EXPECT_THAT(all_play.err, HasSubstr("擂台赛 (26.6) is not supported"));
}

// 临场出人制: the coach's lineup each round, a substitute (替补) included,
// the colours of --board-colours odd-white (the first-named team White on
// board 1), and a team without a lineup refused.
TEST_F(TeamMatches, RoundLineupsPairTheCoachsOrder) {
  ASSERT_NO_FATAL_FAILURE(
      CreateThreeTeams("league", {"--system", "round-robin", "--team-system", "round-lineup",
                                  "--match-boards", "2", "--board-colours", "odd-white"}));
  Ok({"tournament", "lineup", "league", "A3,A1", "--round", "1", "--team", "A"});
  ProcessResult r =
      Cli({"tournament", "pair", "league", "--round", "1", "--match", "A,B", "--bye", "C"});
  EXPECT_EQ(r.exit, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("team 'B' has no lineup for round 1 (临场出人制"));
  Ok({"tournament", "lineup", "league", "B2,B3", "--round", "1", "--team", "B"});
  Ok({"tournament", "lineup", "league", "C1,C2", "--round", "1", "--team", "C"});
  Ok({"tournament", "pair", "league", "--round", "1", "--match", "A,B", "--bye", "C"});
  const v1::Tournament t = Show("league");
  EXPECT_THAT(Tables(t, 1), ElementsAre("1 B2-A3 ", "2 A1-B3 "));
  EXPECT_THAT(t.rounds(0).byes(), ElementsAre("C1", "C2"));
  // A director's correction must leave matches too: C3 on table 1 would
  // split A v B.
  ProcessResult amend = Cli({"tournament", "amend", "league", "--round", "1", "--board", "1",
                             "--white", "C3", "--reason", "wrong sheet"});
  EXPECT_EQ(amend.exit, 2);
  EXPECT_THAT(amend.err, HasSubstr("round 1 table 2: 'A1' of team 'A' meets 'B3' of team 'B', "
                                   "whose match is against 'C': a match is between two teams "
                                   "(25.2)"));
  EXPECT_EQ(Show("league").revision(), t.revision());
}

}  // namespace
}  // namespace arbiter::tournament_e2e
