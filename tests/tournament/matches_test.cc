// A team round as matches (matches.h): boards and colours as the settings
// give them, lineups under 分台定人制 and 临场出人制, and the refusals of
// 25.2 / 27 / 28.4, each checked on the fold and the pure functions.
#include "adjudicator/tournament/matches.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/fold.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/tournament/builders.h"

namespace arbiter::tournament {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::TournamentBuilder;
using v1::TournamentSettings;

// Teams A, B, C, D of three boards each (A1 on board 1...), A with a
// fourth registered player A4 (board 4: a substitute when a team fields 3).
TournamentBuilder FourTeams(
    TournamentSettings::TeamSystem system = TournamentSettings::FIXED_BOARDS,
    int match_boards = 3) {
  TournamentBuilder b(TournamentSettings::SWISS, /*teams=*/true);
  b.settings()->set_team_system(system);
  b.settings()->set_match_boards(match_boards);
  for (const char* t : {"A", "B", "C", "D"}) {
    b.Team(t);
    for (int k = 1; k <= 3; ++k) b.Player(absl::StrCat(t, k), t, k);
  }
  b.Player("A4", "A", 4);
  return b;
}

v1::TournamentEvent Lineup(int round, const std::string& team,
                           const std::vector<std::string>& players) {
  v1::TournamentEvent e;
  e.mutable_lineup_set()->set_round(round);
  e.mutable_lineup_set()->set_team(team);
  for (const std::string& p : players) e.mutable_lineup_set()->add_players(p);
  return e;
}

google::protobuf::RepeatedPtrField<v1::TeamMatch> Matches(
    const std::vector<std::pair<std::string, std::string>>& pairs) {
  google::protobuf::RepeatedPtrField<v1::TeamMatch> out;
  for (const auto& [a, b] : pairs) {
    v1::TeamMatch* m = out.Add();
    m->set_first_team(a);
    m->set_second_team(b);
  }
  return out;
}

const google::protobuf::RepeatedPtrField<std::string> kNoByes;

// "black-white" of each pairing, table order.
std::vector<std::string> Boards(const v1::TournamentRound& r) {
  std::vector<std::string> out;
  for (const v1::Pairing& p : r.pairings()) {
    out.push_back(absl::StrCat(p.board(), ":", p.team_board(), " ", p.black(), "-", p.white()));
  }
  return out;
}

// Art. 10 leaves colours to the regulations: the setting, for the team named
// first. Two matches of three boards: tables 1-3 and 4-6 (table:match board).
TEST(Matches, ColoursByBoardAsTheSettingSaysAndTablesMatchAfterMatch) {
  TournamentBuilder b = FourTeams();
  v1::TournamentRound r = *PairMatches(b.Build(), 1, Matches({{"A", "B"}, {"D", "C"}}), kNoByes);
  // ODD_BLACK (the default): the first-named team Black on boards 1 and 3.
  EXPECT_THAT(Boards(r), ElementsAre("1:1 A1-B1", "2:2 B2-A2", "3:3 A3-B3", "4:1 D1-C1",
                                     "5:2 C2-D2", "6:3 D3-C3"));
  b.settings()->set_board_colours(TournamentSettings::ODD_WHITE);
  r = *PairMatches(b.Build(), 1, Matches({{"A", "B"}}), kNoByes);
  EXPECT_THAT(Boards(r), ElementsAre("1:1 B1-A1", "2:2 A2-B2", "3:3 B3-A3"));
  b.settings()->set_board_colours(TournamentSettings::ALL_BLACK);
  r = *PairMatches(b.Build(), 1, Matches({{"A", "B"}}), kNoByes);
  EXPECT_THAT(Boards(r), ElementsAre("1:1 A1-B1", "2:2 A2-B2", "3:3 A3-B3"));
  for (const v1::Pairing& p : r.pairings()) EXPECT_TRUE(p.game_id().empty());
}

TEST(Matches, ATeamIsInOneMatchOrTheByeAndMeetsAnEqualSide) {
  v1::Tournament t = FourTeams().Build();
  EXPECT_THAT(PairMatches(t, 1, Matches({{"A", "A"}}), kNoByes).status().message(),
              HasSubstr("cannot meet itself"));
  EXPECT_THAT(PairMatches(t, 1, Matches({{"A", "B"}, {"B", "C"}}), kNoByes).status().message(),
              HasSubstr("team 'B' is in another match or has the bye"));
  google::protobuf::RepeatedPtrField<std::string> byes;
  byes.Add("C");
  EXPECT_THAT(PairMatches(t, 1, Matches({{"A", "C"}}), byes).status().message(),
              HasSubstr("team 'C' is in another match or has the bye"));
  EXPECT_THAT(PairMatches(t, 1, Matches({{"A", "X"}}), kNoByes).status().message(),
              HasSubstr("no team 'X'"));
  // With no match size set, each team fields its registered boards: A's
  // four against B's three.
  v1::Tournament unset = FourTeams(TournamentSettings::FIXED_BOARDS, 0).Build();
  EXPECT_THAT(PairMatches(unset, 1, Matches({{"A", "B"}}), kNoByes).status().message(),
              HasSubstr("4 boards against 3 (25.2: 每队人数相等)"));
}

// 28.4: a withdrawn player's board is still paired under 分台定人制, and
// start-round is told it is lost by default.
TEST(Matches, AWithdrawnPlayersBoardIsPairedAndForfeitedWithoutAGame) {
  TournamentBuilder b = FourTeams();
  b.Withdraw("B2", 0);
  v1::Tournament t = b.Build();
  v1::TournamentRound r = *PairMatches(t, 1, Matches({{"A", "B"}}), kNoByes);
  ASSERT_EQ(r.pairings_size(), 3);
  EXPECT_EQ(r.pairings(1).black(), "B2");
  EXPECT_EQ(ForfeitedBoard(t, r.pairings(1)),
            "B2 withdrew after round 0 (cn-2002/28.4: lost by default, no game)");
  EXPECT_EQ(ForfeitedBoard(t, r.pairings(0)), "");
  // 1988 29.4 reads "未赛部分均作对方胜": the same board, told in its words.
  b.settings()->set_ruleset("cn-1988");
  t = b.Build();
  EXPECT_EQ(ForfeitedBoard(t, r.pairings(1)),
            "B2 withdrew after round 0 (cn-1988/29.4: counted as the opponent's win, no game)");
}

TEST(Matches, FixedBoardsLineupKeepsTheRegisteredOrder) {
  TournamentBuilder b = FourTeams();
  std::vector<v1::TournamentEvent> events = b.events();
  // A substitute: A2 rests, A3 and A4 move up (boards 2 and 3).
  events.push_back(Lineup(1, "A", {"A1", "A3", "A4"}));
  absl::StatusOr<v1::Tournament> t = Fold(events);
  ASSERT_TRUE(t.ok()) << t.status();
  v1::TournamentRound r = *PairMatches(*t, 1, Matches({{"A", "B"}}), kNoByes);
  EXPECT_THAT(Boards(r), ElementsAre("1:1 A1-B1", "2:2 B2-A3", "3:3 A4-B3"));
  EXPECT_TRUE(CheckMatches(*t, r).ok());
  // Round 2 has no lineup: the first three registered boards.
  EXPECT_THAT(*TeamLineup(*t, 2, "A"), ElementsAre("A1", "A2", "A3"));
}

struct Refusal {
  const char* what;
  v1::TournamentEvent lineup;
  const char* says;
};

TEST(Matches, LineupRefusalsNameTheArticle) {
  TournamentBuilder b = FourTeams();
  b.Withdraw("B3", 1);
  b.Round(1, {{"A1", "B1", ""}, {"B2", "A2", ""}, {"A3", "B3", ""}});
  const std::vector<Refusal> refusals = {
      {"order changed", Lineup(2, "A", {"A2", "A1", "A3"}),
       "'A1' (board 1) after board 2: 分台定人制 keeps the registered order (25.2: "
       "台次一经排定，比赛中不得更改)"},
      {"another team's player", Lineup(2, "A", {"A1", "C2", "A3"}),
       "'C2' plays for team 'C' (25.2: a team fields its own players)"},
      {"too few", Lineup(2, "A", {"A1", "A2"}), "2 players; a team fields 3 (25.2: 每队人数相等)"},
      {"too many", Lineup(2, "A", {"A1", "A2", "A3", "A4"}), "4 players; a team fields 3"},
      {"twice", Lineup(2, "A", {"A1", "A1", "A3"}), "'A1' twice"},
      {"withdrawn", Lineup(2, "B", {"B1", "B2", "B3"}),
       "'B3' withdrew after round 1 (cn-2002/28.4)"},
      {"after the round is paired", Lineup(1, "A", {"A1", "A2", "A3"}),
       "round 1 is already paired; a lineup is named before its round"},
      {"no such team", Lineup(2, "X", {"A1", "A2", "A3"}), "no team 'X'"},
  };
  v1::Tournament t = b.Build();
  for (const Refusal& r : refusals) {
    SCOPED_TRACE(r.what);
    v1::Tournament copy = t;
    absl::Status s = Apply(r.lineup, &copy);
    EXPECT_FALSE(s.ok());
    EXPECT_THAT(s.message(), HasSubstr(r.says));
    EXPECT_EQ(copy.revision(), t.revision());  // nothing changed
  }
  EXPECT_EQ(Apply(Lineup(1, "A", {"A1", "A2", "A3"}), &t).code(),
            absl::StatusCode::kFailedPrecondition);
}

// 临场出人制: the coach's order, substitutes included; no lineup, no match.
TEST(Matches, RoundLineupIsTheCoachsOrder) {
  TournamentBuilder b = FourTeams(TournamentSettings::ROUND_LINEUP, 2);
  std::vector<v1::TournamentEvent> events = b.events();
  events.push_back(Lineup(1, "A", {"A4", "A1"}));  // any order, a substitute on board 1
  absl::StatusOr<v1::Tournament> t = Fold(events);
  ASSERT_TRUE(t.ok()) << t.status();
  absl::Status missing = PairMatches(*t, 1, Matches({{"A", "B"}}), kNoByes).status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(missing.message(), HasSubstr("team 'B' has no lineup for round 1 (临场出人制"));
  events.push_back(Lineup(1, "B", {"B3", "B2"}));
  t = Fold(events);
  ASSERT_TRUE(t.ok()) << t.status();
  v1::TournamentRound r = *PairMatches(*t, 1, Matches({{"B", "A"}}), kNoByes);
  EXPECT_THAT(Boards(r), ElementsAre("1:1 B3-A4", "2:2 A1-B2"));
  EXPECT_TRUE(CheckMatches(*t, r).ok());
  // A team's bye is its lineup for the round.
  events.push_back(Lineup(1, "C", {"C2", "C1"}));
  v1::TournamentEvent paired;
  *paired.mutable_round_paired()->mutable_round() = r;
  paired.mutable_round_paired()->mutable_round()->add_byes("C");
  events.push_back(paired);
  t = Fold(events);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(t->rounds(0).byes(), ElementsAre("C2", "C1"));
}

TEST(Matches, TeamSystemsTheModelDoesNotRunAreRefusedAtCreation) {
  for (auto system : {TournamentSettings::ALL_PLAY, TournamentSettings::CHALLENGE}) {
    TournamentBuilder b(TournamentSettings::SWISS, /*teams=*/true);
    b.settings()->set_team_system(system);
    absl::Status s = Fold(b.events()).status();
    EXPECT_THAT(s.message(), HasSubstr("is not supported: FIXED_BOARDS (分台定人制) or "
                                       "ROUND_LINEUP (临场出人制)"));
  }
  TournamentBuilder per_round(TournamentSettings::SWISS, /*teams=*/true);
  per_round.settings()->set_team_system(TournamentSettings::ROUND_LINEUP);
  EXPECT_THAT(Fold(per_round.events()).status().message(),
              HasSubstr("临场出人制 needs the number of players a team fields"));
  TournamentBuilder individual(TournamentSettings::SWISS);
  individual.settings()->set_board_colours(TournamentSettings::ALL_BLACK);
  EXPECT_THAT(Fold(individual.events()).status().message(), HasSubstr("belong to team events"));
}

// Point 3 of issue 31: a director's boards must make matches.
TEST(Matches, BoardPairingsMustMakeMatches) {
  v1::Tournament t = FourTeams().Build();
  auto round = [](const std::vector<std::pair<std::string, std::string>>& boards) {
    v1::TournamentRound r;
    r.set_round(1);
    int n = 0;
    for (const auto& [black, white] : boards) {
      v1::Pairing* p = r.add_pairings();
      p->set_round(1);
      p->set_board(++n);
      p->set_black(black);
      p->set_white(white);
    }
    return r;
  };
  EXPECT_TRUE(CheckMatches(t, round({{"A1", "B1"}, {"B2", "A2"}, {"A3", "B3"}})).ok());
  EXPECT_THAT(CheckMatches(t, round({{"A1", "B1"}, {"B3", "A3"}})).message(),
              HasSubstr("round 1 match 'A' v 'B': boards 1, 3: board 2 is missing (27 团体赛 "
                        "compares board by board)"));
  EXPECT_THAT(CheckMatches(t, round({{"A1", "B1"}, {"A2", "C2"}})).message(),
              HasSubstr("round 1 table 2: 'C2' of team 'C' meets 'A2' of team 'A', whose match "
                        "is against 'B': a match is between two teams (25.2)"));
  EXPECT_THAT(CheckMatches(t, round({{"A1", "B2"}, {"B1", "A2"}})).message(),
              HasSubstr("round 1 table 1: 'A1' (board 1 of 'A') v 'B2' (board 2 of 'B'): "
                        "crossed boards"));
}

}  // namespace
}  // namespace arbiter::tournament
