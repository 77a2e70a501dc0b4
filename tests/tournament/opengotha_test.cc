// OpenGotha XML: import, standings from the file's results, export, and the
// round trip back through import.
#include "adjudicator/tournament/opengotha.h"

#include <fstream>
#include <sstream>

#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/standings.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/tournament/builders.h"

namespace arbiter::tournament {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::Order;
using testing::Row;

std::string ReadData(const std::string& name) {
  std::ifstream in(std::string(ARBITER_SOURCE_DIR) + "/tests/tournament/data/" + name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

v1::Tournament Import(const std::string& xml) {
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = ImportOpenGotha(xml, "autumn", {});
  EXPECT_TRUE(events.ok()) << events.status();
  if (!events.ok()) return {};
  absl::StatusOr<v1::Tournament> t = Fold(*events);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : v1::Tournament();
}

TEST(OpenGotha, ImportsPlayersRoundsResultsAndParameters) {
  v1::Tournament t = Import(ReadData("swiss4.xml"));
  EXPECT_EQ(t.title(), "Autumn Open");
  EXPECT_EQ(t.settings().system(), v1::TournamentSettings::SWISS);
  EXPECT_EQ(t.settings().rounds(), 3);
  EXPECT_EQ(t.settings().komi(), 3.75);  // 7.5 points
  EXPECT_EQ(t.settings().location(), "Beijing");
  ASSERT_EQ(t.players_size(), 5);
  // Ids are OpenGotha's keys reduced to letters and digits.
  EXPECT_EQ(t.players(0).id(), "LIWEI");
  EXPECT_EQ(t.players(0).egf_pin(), "12345678");
  EXPECT_EQ(t.players(2).id(), "DUPONTFILSJEAN");
  EXPECT_EQ(t.players(2).name(), "Dupont & Fils");
  EXPECT_EQ(t.players(3).id(), "MLLERHANS");
  EXPECT_EQ(t.players(3).name(), "M\xC3\xBCller");
  ASSERT_EQ(t.rounds_size(), 3);
  const v1::Pairing& forfeit = t.rounds(0).pairings(1);
  EXPECT_EQ(forfeit.black(), "DUPONTFILSJEAN");
  EXPECT_EQ(forfeit.white(), "MLLERHANS");
  EXPECT_EQ(forfeit.entered_outcome(), v1::Result::WHITE_WINS);
  EXPECT_TRUE(forfeit.entered_by_default());
  EXPECT_THAT(t.rounds(0).byes(), ElementsAre("ZHAOLIN"));
  EXPECT_EQ(t.rounds(2).pairings(0).handicap(), 2);
  EXPECT_EQ(t.rounds(2).pairings(0).entered_outcome(), v1::Result::OUTCOME_UNSPECIFIED);
}

TEST(OpenGotha, StandingsFromTheFileResults) {
  v1::StandingsReport r = ComputeStandings(Import(ReadData("swiss4.xml")), {});
  // R1: Li beats Wang; Müller beats Dupont by default; Zhao bye (0).
  // R2: Li draws Müller; Wang and Zhao both lose; Dupont bye.  R3 pending.
  // Points: Li 3, Müller 3, Wang 0, Dupont 0, Zhao 0.
  // Opponents: Li 0+3 = 3, Müller 0+3 = 3, Wang 3+0 = 3, Dupont 3, Zhao 0.
  // Total (R = 3): Li 3 + 3/3 − 3 = 1, Müller 1, Wang −2, Dupont −2, Zhao −3.
  EXPECT_THAT(Order(r.standings()),
              ElementsAre("LIWEI", "MLLERHANS", "DUPONTFILSJEAN", "WANGMING", "ZHAOLIN"));
  EXPECT_DOUBLE_EQ(Row(r.standings(), "LIWEI").total_score(), 1.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "WANGMING").total_score(), -2.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "ZHAOLIN").total_score(), -3.0);
  EXPECT_EQ(Row(r.standings(), "MLLERHANS").rank(), 1);
  EXPECT_EQ(Row(r.standings(), "WANGMING").rank(), 3);
  EXPECT_EQ(Row(r.standings(), "ZHAOLIN").rank(), 5);
}

TEST(OpenGotha, RoundTripKeepsTournamentAndStandings) {
  v1::Tournament first = Import(ReadData("swiss4.xml"));
  v1::StandingsReport first_report = ComputeStandings(first, {});
  const std::string exported = ExportOpenGotha(first, first_report);
  EXPECT_THAT(exported, HasSubstr("result=\"RESULT_WHITEWINS_BYDEF\""));
  EXPECT_THAT(exported, HasSubstr("result=\"RESULT_BOTHLOSE\""));
  EXPECT_THAT(exported, HasSubstr("result=\"RESULT_EQUAL\""));
  EXPECT_THAT(exported, HasSubstr("result=\"RESULT_UNKNOWN\""));
  EXPECT_THAT(exported, HasSubstr("blackPlayer=\"DUPONT &amp; FILSJEAN\""));
  v1::Tournament second = Import(exported);
  EXPECT_EQ(second.SerializeAsString(), first.SerializeAsString());
  v1::StandingsReport second_report = ComputeStandings(second, {});
  EXPECT_EQ(second_report.SerializeAsString(), first_report.SerializeAsString());
  // And the writer is a fixed point.
  EXPECT_EQ(ExportOpenGotha(second, second_report), exported);
}

TEST(OpenGotha, ResultsFromGamesAreExported) {
  // A tournament run under the service: its results come from the games.
  testing::TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.Player("A").Player("B").Player("C").Player("D");
  b.Round(1, {{"A", "B", "G1"}, {"C", "D", "G2"}});
  GameFactsMap games = {{"G1", testing::Decided(v1::Result::BOTH_LOSE, v1::Result::LATENESS)},
                        {"G2", testing::Decided(v1::Result::BLACK_WINS, v1::Result::COUNT)}};
  v1::Tournament t = b.Build();
  const std::string xml = ExportOpenGotha(t, ComputeStandings(t, games));
  EXPECT_THAT(xml, HasSubstr("blackPlayer=\"A\" handicap=\"0\" knownColor=\"true\" result=\"RESULT_BOTHLOSE_BYDEF\""));
  EXPECT_THAT(xml, HasSubstr("blackPlayer=\"C\" handicap=\"0\" knownColor=\"true\" result=\"RESULT_BLACKWINS\""));
  // Read back as entered results, the standings are the same.
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = ImportOpenGotha(xml, "T", t.settings());
  ASSERT_TRUE(events.ok()) << events.status();
  absl::StatusOr<v1::Tournament> back = Fold(*events);
  ASSERT_TRUE(back.ok());
  v1::StandingsReport a = ComputeStandings(t, games);
  v1::StandingsReport c = ComputeStandings(*back, {});
  ASSERT_EQ(a.standings_size(), c.standings_size());
  for (int i = 0; i < a.standings_size(); ++i) {
    EXPECT_EQ(a.standings(i).id(), c.standings(i).id());
    EXPECT_EQ(a.standings(i).points(), c.standings(i).points());
    EXPECT_EQ(a.standings(i).rank(), c.standings(i).rank());
  }
}

TEST(OpenGotha, TeamsRoundTrip) {
  // Two teams of two boards; X wins the match 3-1 (X1 beats Y1, X2 draws Y2).
  testing::TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN, true);
  b.Team("X").Player("X1", "X", 1).Player("X2", "X", 2);
  b.Team("Y").Player("Y1", "Y", 1).Player("Y2", "Y", 2);
  b.Round(1, {{"X1", "Y1", "G1"}, {"Y2", "X2", "G2"}});
  v1::Tournament t = b.Build();
  GameFactsMap games = {{"G1", testing::Decided(v1::Result::BLACK_WINS)},
                        {"G2", testing::Decided(v1::Result::DRAW)}};
  const std::string xml = ExportOpenGotha(t, ComputeStandings(t, games));
  EXPECT_THAT(xml, HasSubstr("<Team teamName=\"Team X\" teamNumber=\"1\">"));
  EXPECT_THAT(xml, HasSubstr("<Board boardNumber=\"2\" player=\"Y2\" roundNumber=\"1\"/>"));
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = ImportOpenGotha(xml, "T", t.settings());
  ASSERT_TRUE(events.ok()) << events.status();
  absl::StatusOr<v1::Tournament> back = Fold(*events);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->teams_size(), 2);
  EXPECT_EQ(back->teams(0).id(), "T1");  // OpenGotha numbers teams
  EXPECT_EQ(back->teams(0).name(), "Team X");
  EXPECT_EQ(back->players(3).team(), "T2");
  EXPECT_EQ(back->players(3).board(), 2);
  v1::StandingsReport r = ComputeStandings(*back, {});
  EXPECT_THAT(Order(r.standings()), ElementsAre("T1", "T2"));
  EXPECT_EQ(r.standings(0).points(), 2);        // match won
  EXPECT_EQ(r.standings(0).board_points(), 3);  // 2 + 1
  EXPECT_THAT(r.standings(1).board_by_board(), ElementsAre(0, 1));
}

TEST(OpenGotha, BadFilesAreRefusedWithTheLine) {
  const std::string head = "<?xml version=\"1.0\"?>\n<Tournament>\n<Players>\n"
                           "<Player name=\"A\" firstName=\"a\"/>\n<Player name=\"B\" firstName=\"b\"/>\n</Players>\n";
  auto error = [](const std::string& xml) {
    absl::StatusOr<std::vector<v1::TournamentEvent>> e = ImportOpenGotha(xml, "T", {});
    EXPECT_FALSE(e.ok());
    return e.ok() ? std::string() : std::string(e.status().message());
  };
  EXPECT_THAT(error(head + "<Games>\n<Game roundNumber=\"1\" tableNumber=\"1\" blackPlayer=\"AA\" "
                           "whitePlayer=\"ZZ\" result=\"RESULT_BLACKWINS\"/>\n</Games>\n</Tournament>\n"),
              HasSubstr("line 8: <Game>: whitePlayer=\"ZZ\" names no player"));
  EXPECT_THAT(error(head + "<Games>\n<Game roundNumber=\"x\" tableNumber=\"1\" blackPlayer=\"AA\" "
                           "whitePlayer=\"BB\"/>\n</Games>\n</Tournament>\n"),
              HasSubstr("line 8: <Game>: roundNumber=\"x\" is not a whole number"));
  EXPECT_THAT(error(head + "<Games>\n<Game roundNumber=\"1\" tableNumber=\"1\" blackPlayer=\"AA\" "
                           "whitePlayer=\"BB\" result=\"RESULT_BOTHWIN\"/>\n</Games>\n</Tournament>\n"),
              HasSubstr("RESULT_BOTHWIN has no meaning"));
  EXPECT_THAT(error(head + "<Games>\n<Game roundNumber=\"1\" tableNumber=\"1\" blackPlayer=\"AA\" "
                           "whitePlayer=\"AA\"/>\n</Games>\n</Tournament>\n"),
              HasSubstr("cannot meet themselves"));
  EXPECT_THAT(error(head + "<Games>\n<Game roundNumber=\"1\"\n</Games>\n</Tournament>\n"),
              HasSubstr("line 9, column"));
  EXPECT_THAT(error("<Players/>"), HasSubstr("line 1: <Players>: the root element must be <Tournament>"));
  EXPECT_THAT(error(head), HasSubstr("<Tournament> (line 2) is not closed"));
}

}  // namespace
}  // namespace arbiter::tournament
