// OpenGotha XML: import, standings from the file's results, export, and the
// round trip back through import.
#include "adjudicator/tournament/opengotha.h"

#include <fstream>
#include <map>
#include <sstream>

#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/opengotha_round.h"
#include "adjudicator/tournament/standings.h"
#include "adjudicator/tournament/xml.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/tournament/builders.h"
#include "tests/tournament/opengotha_reader.h"

namespace arbiter::tournament {
namespace {

using ::arbiter::testing::ReadFile;
using ::arbiter::testing::SourcePath;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using testing::OpenGothaReader;
using testing::Order;
using testing::Row;

std::string ReadData(const std::string& name) {
  return ReadFile(SourcePath("tests/tournament/data/" + name));
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
  EXPECT_EQ(t.players(0).rating(), 2500);  // ratingOrigin "": a rating
  EXPECT_EQ(t.players(0).rank(), "5D");
  EXPECT_EQ(t.players(2).name(), "Dupont & Fils");
  EXPECT_EQ(t.players(3).id(), "MLLERHANS");
  EXPECT_EQ(t.players(3).name(), "M\xC3\xBCller");
  // Names in Latin letters are the romanized name too; Müller's is not
  // ASCII, so the ASCII formats will ask for one rather than guess.
  EXPECT_EQ(t.players(0).romanized_family_name(), t.players(0).name());
  EXPECT_EQ(t.players(0).romanized_given_name(), t.players(0).first_name());
  EXPECT_EQ(t.players(3).romanized_family_name(), "");
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
  // Rounds counted: Zhao v Li of R3 has no result, so R = 2 for them, 3 for
  // the others (not paired in R3). Total: Li 3 + 3/2 − 2 = 2.5, Müller 3 +
  // 3/3 − 3 = 1, Wang −2, Dupont −2, Zhao 0 + 0/2 − 2 = −2.
  EXPECT_THAT(Order(r.standings()),
              ElementsAre("LIWEI", "MLLERHANS", "DUPONTFILSJEAN", "WANGMING", "ZHAOLIN"));
  EXPECT_DOUBLE_EQ(Row(r.standings(), "LIWEI").total_score(), 2.5);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "MLLERHANS").total_score(), 1.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "WANGMING").total_score(), -2.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "ZHAOLIN").total_score(), -2.0);
  EXPECT_THAT(Row(r.standings(), "LIWEI").counted_rounds(), ElementsAre(1, 2));
  EXPECT_THAT(Row(r.standings(), "WANGMING").counted_rounds(), ElementsAre(1, 2, 3));
  EXPECT_EQ(Row(r.standings(), "MLLERHANS").rank(), 2);
  EXPECT_EQ(Row(r.standings(), "WANGMING").rank(), 3);
  EXPECT_EQ(Row(r.standings(), "ZHAOLIN").rank(), 3);
}

std::string Export(const v1::Tournament& t, const v1::StandingsReport& r) {
  absl::StatusOr<std::string> xml = ExportOpenGotha(t, r);
  EXPECT_TRUE(xml.ok()) << xml.status();
  return xml.ok() ? *xml : std::string();
}

TEST(OpenGotha, RoundTripKeepsTournamentAndStandings) {
  v1::Tournament first = Import(ReadData("swiss4.xml"));
  v1::StandingsReport first_report = ComputeStandings(first, {});
  const std::string exported = Export(first, first_report);
  EXPECT_THAT(exported, HasSubstr("result=\"RESULT_WHITEWINS_BYDEF\""));
  EXPECT_THAT(exported, HasSubstr("result=\"RESULT_BOTHLOSE\""));
  EXPECT_THAT(exported, HasSubstr("result=\"RESULT_EQUAL\""));
  EXPECT_THAT(exported, HasSubstr("result=\"RESULT_UNKNOWN\""));
  // OpenGotha's key: spaces removed, Java's upper case (ü -> Ü).
  EXPECT_THAT(exported, HasSubstr("blackPlayer=\"DUPONT&amp;FILSJEAN\""));
  EXPECT_THAT(exported, HasSubstr("whitePlayer=\"M\xC3\x9CLLERHANS\""));
  v1::Tournament second = Import(exported);
  EXPECT_EQ(second.SerializeAsString(), first.SerializeAsString());
  v1::StandingsReport second_report = ComputeStandings(second, {});
  EXPECT_EQ(second_report.SerializeAsString(), first_report.SerializeAsString());
  // And the writer is a fixed point.
  EXPECT_EQ(Export(second, second_report), exported);
}

// Probe F3: a tab, line feed or carriage return in a name is written as a
// character reference (&#9; &#10; &#13;). Written raw inside an attribute,
// every XML reader (ours, OpenGotha's) reads each as a space (XML 1.0
// 3.3.3), and the round trip changed the name silently.
TEST(OpenGotha, ControlCharactersInNamesSurviveTheRoundTrip) {
  std::string xml = ReadData("swiss4.xml");
  xml = absl::StrReplaceAll(xml, {{"firstName=\"Lin\"", "firstName=\"Lin&#10;Mei&#13;\""},
                                  {"name=\"Zhao\"", "name=\"Zhao&#9;\""},
                                  {"\"ZHAOLIN\"", "\"ZHAO&#9;LIN&#10;MEI&#13;\""}});
  v1::Tournament first = Import(xml);
  const v1::TournamentPlayer* zhao = nullptr;
  for (const v1::TournamentPlayer& p : first.players()) {
    if (p.id() == "ZHAOLINMEI") zhao = &p;
  }
  ASSERT_NE(zhao, nullptr);
  EXPECT_EQ(zhao->name(), "Zhao\t");
  EXPECT_EQ(zhao->first_name(), "Lin\nMei\r");
  v1::StandingsReport first_report = ComputeStandings(first, {});
  const std::string exported = Export(first, first_report);
  EXPECT_THAT(exported, HasSubstr("firstName=\"Lin&#10;Mei&#13;\""));
  EXPECT_THAT(exported, HasSubstr("name=\"Zhao&#9;\""));
  EXPECT_THAT(exported, HasSubstr("player=\"ZHAO&#9;LIN&#10;MEI&#13;\""));
  EXPECT_EQ(exported.find_first_of("\t\r"), std::string::npos);
  v1::Tournament second = Import(exported);
  EXPECT_EQ(second.SerializeAsString(), first.SerializeAsString());
  EXPECT_EQ(ComputeStandings(second, {}).SerializeAsString(), first_report.SerializeAsString());
}

// Other C0 controls have no place in XML 1.0, not even as references: the
// export refuses them, naming the player, rather than write a file no reader
// opens (it wrote "\x01" raw before).
TEST(OpenGotha, AControlCharacterXmlCannotCarryIsRefusedNamingThePlayer) {
  v1::Tournament t = Import(ReadData("swiss4.xml"));
  for (v1::TournamentPlayer& p : *t.mutable_players()) {
    if (p.id() == "ZHAOLIN") p.set_first_name(std::string("Lin\x01", 4));
  }
  absl::StatusOr<std::string> exported = ExportOpenGotha(t, ComputeStandings(t, {}));
  ASSERT_FALSE(exported.ok());
  EXPECT_EQ(exported.status().code(), absl::StatusCode::kFailedPrecondition) << exported.status();
  EXPECT_THAT(std::string(exported.status().message()), HasSubstr("control character (U+0001)"));
  EXPECT_THAT(std::string(exported.status().message()), HasSubstr("Zhao"));
}

// Four players with first names, a Swiss event of three rounds, a bye in
// round 1 and ratings unknown.
v1::Tournament SmallSwiss() {
  testing::TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.settings()->set_rounds(3);
  b.settings()->set_komi(3.75);
  b.settings()->set_begin_date("2026-11-28");
  b.settings()->set_end_date("2026-11-29");
  b.settings()->set_location("Beijing");
  b.settings()->set_bye_points(2);
  b.Player("A").Player("B").Player("C").Player("D").Player("E");
  b.Round(1, {{"A", "B", "G1"}, {"C", "D", "G2"}}, {"E"});
  b.Round(2, {{"E", "A", "G3"}, {"B", "C", "G4"}}, {"D"});
  v1::Tournament t = b.Build();
  const char* names[][3] = {{"Li", "Wei", "5D"},
                            {"Wang", "Ming", "4D"},
                            {"Chen", "Jie", "1K"},
                            {"Zhou", "Lin", "30K"},
                            {"van der Berg", "Jan Piet", ""}};
  for (int i = 0; i < 5; ++i) {
    t.mutable_players(i)->set_name(names[i][0]);
    t.mutable_players(i)->set_first_name(names[i][1]);
    t.mutable_players(i)->set_rank(names[i][2]);
  }
  t.mutable_players(1)->set_rating(2350);
  return t;
}

TEST(OpenGotha, TheExportIsWhatFileOpenAccepts) {
  v1::Tournament t = SmallSwiss();
  GameFactsMap games = {{"G1", testing::Decided(v1::Result::BLACK_WINS)},
                        {"G2", testing::Decided(v1::Result::WHITE_WINS, v1::Result::LATENESS)}};
  const std::string xml = Export(t, ComputeStandings(t, games));
  EXPECT_THAT(OpenGothaReader::Problems(xml), IsEmpty()) << xml;
  // Every parameter set the importer reads without a null check is there.
  for (const char* set : {"<GeneralParameterSet ", "<HandicapParameterSet ",
                          "<PlacementParameterSet>", "<PairingParameterSet "}) {
    EXPECT_THAT(xml, HasSubstr(set));
  }
  // The key of "van der Berg" "Jan Piet": spaces removed.
  EXPECT_THAT(xml, HasSubstr("<ByePlayer player=\"VANDERBERGJANPIET\" roundNumber=\"1\"/>"));
}

// OpenGotha pairs nothing past numberOfRounds: a round robin's file holds
// the event's rounds (4 players: 3), not only the one paired so far.
TEST(OpenGotha, ARoundRobinsFileHoldsAllItsRounds) {
  testing::TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  b.Player("A").Player("B").Player("C").Player("D");
  b.Round(1, {{"A", "B", "G1"}, {"C", "D", "G2"}});
  v1::Tournament t = b.Build();
  for (v1::TournamentPlayer& p : *t.mutable_players()) p.set_first_name("Player");
  EXPECT_THAT(Export(t, ComputeStandings(t, {})), HasSubstr("numberOfRounds=\"3\""));
}

TEST(OpenGotha, TheReaderCatchesWhatOpenGothaRefuses) {
  // What this project wrote before: no first name, only GeneralParameterSet,
  // a game naming nobody, two byes in a round.
  const std::string old =
      "<Tournament dataVersion=\"201\"><Players><Player firstName=\"\" name=\"Li\" rating=\"0\"/>"
      "<Player firstName=\"x\" name=\"Wang\" club=\"Beijing\"/></Players><Games><Game "
      "roundNumber=\"1\" "
      "tableNumber=\"1\" whitePlayer=\"WANGX\" blackPlayer=\"ZHAO\"/></Games><ByePlayers>"
      "<ByePlayer player=\"LI\" roundNumber=\"1\"/><ByePlayer player=\"WANGX\" "
      "roundNumber=\"1\"/></ByePlayers>"
      "<TournamentParameterSet><GeneralParameterSet name=\"x\" "
      "numberOfRounds=\"3\"/></TournamentParameterSet>"
      "</Tournament>";
  const std::vector<std::string> problems = OpenGothaReader::Problems(old);
  const std::string all = absl::StrJoin(problems, "\n");
  EXPECT_THAT(all, HasSubstr("first name should have at least 1 character"));
  EXPECT_THAT(all, HasSubstr("Club name should have at most 4 character"));
  EXPECT_THAT(all, HasSubstr("blackPlayer names no player"));
  EXPECT_THAT(all, HasSubstr("a second bye this round"));
  EXPECT_THAT(all, HasSubstr("no HandicapParameterSet"));
  EXPECT_THAT(all, HasSubstr("no PlacementParameterSet"));
  EXPECT_THAT(all, HasSubstr("no PairingParameterSet"));
}

std::pair<std::string, std::string> Rated(const std::string& rating, const std::string& origin) {
  return {rating, origin};
}

TEST(OpenGotha, RatingsAreDerivedFromTheRankWhereUnknown) {
  v1::Tournament t = SmallSwiss();
  const std::string xml = Export(t, ComputeStandings(t, {}));
  absl::StatusOr<std::unique_ptr<XmlElement>> doc = ParseXml(xml);
  ASSERT_TRUE(doc.ok());
  std::map<std::string, std::pair<std::string, std::string>> rating;  // name -> rating, origin
  for (const XmlElement* p : (*doc)->Child("Players")->Children("Player")) {
    rating[*p->Attribute("name")] = {
        p->Attribute("rating") ? *p->Attribute("rating") : "absent",
        p->Attribute("ratingOrigin") ? *p->Attribute("ratingOrigin") : "absent"};
  }
  // Player.ratingFromRank: (rank + 30) * 100 - 900; 5D is rank 4, 1K -1, 30K -30.
  EXPECT_EQ(rating["Li"], Rated("2500", "INI"));
  EXPECT_EQ(rating["Chen"], Rated("2000", "INI"));
  EXPECT_EQ(rating["Zhou"], Rated("-900", "INI"));
  EXPECT_EQ(rating["Wang"], Rated("2350", "MAN"));    // a known rating stays
  EXPECT_EQ(rating["van der Berg"].first, "absent");  // no rank: OpenGotha's own defaults
  // Read back, a derived rating is no rating.
  v1::Tournament back = Import(xml);
  EXPECT_FALSE(back.players(0).has_rating());
  EXPECT_EQ(back.players(1).rating(), 2350);
}

TEST(OpenGotha, WhatOpenGothaCannotHoldIsRefusedNamingIt) {
  auto refusal = [](const v1::Tournament& t) {
    absl::StatusOr<std::string> xml = ExportOpenGotha(t, ComputeStandings(t, {}));
    EXPECT_FALSE(xml.ok());
    EXPECT_EQ(xml.status().code(), absl::StatusCode::kFailedPrecondition);
    return std::string(xml.status().message());
  };
  v1::Tournament t = SmallSwiss();
  t.mutable_players(0)->set_name("李伟");
  t.mutable_players(0)->clear_first_name();
  EXPECT_THAT(
      refusal(t),
      HasSubstr("player 'A' (李伟) has no given name, and OpenGotha requires a first name"));
  t.mutable_players(0)->set_romanized_family_name("Li");
  t.mutable_players(0)->set_romanized_given_name("Wei");
  absl::StatusOr<std::string> xml = ExportOpenGotha(t, ComputeStandings(t, {}));
  ASSERT_TRUE(xml.ok()) << xml.status();
  EXPECT_THAT(*xml, HasSubstr("firstName=\"Wei\" name=\"Li\""));  // the romanized name

  t = SmallSwiss();
  t.mutable_players(2)->set_club("Beijing Go Club");
  EXPECT_THAT(refusal(t),
              HasSubstr("player 'C' (Chen Jie): club \"Beijing Go Club\" has more than 4"));
  t = SmallSwiss();
  t.mutable_players(2)->set_country("CHN");
  EXPECT_THAT(refusal(t), HasSubstr("country \"CHN\" is not two letters"));
  t = SmallSwiss();
  t.mutable_players(2)->set_rank("strong");
  EXPECT_THAT(refusal(t), HasSubstr("rank \"strong\""));
  t = SmallSwiss();
  t.mutable_players(1)->set_name("Li");
  t.mutable_players(1)->set_first_name("Wei");
  EXPECT_THAT(refusal(t), HasSubstr("players 'A' and 'B' have the same OpenGotha key LIWEI"));
  t = SmallSwiss();
  t.mutable_rounds(0)->add_byes("F");  // two byes (the fold would allow it)
  EXPECT_THAT(refusal(t),
              HasSubstr("round 1 has 2 byes (E, F); OpenGotha keeps one bye player a round"));
  t = SmallSwiss();
  t.mutable_settings()->set_rounds(21);
  EXPECT_THAT(refusal(t), HasSubstr("at most 20"));
}

TEST(OpenGotha, ResultsFromGamesAreExported) {
  // A tournament run under the service: its results come from the games.
  v1::Tournament t = SmallSwiss();
  GameFactsMap games = {{"G1", testing::Decided(v1::Result::BOTH_LOSE, v1::Result::LATENESS)},
                        {"G2", testing::Decided(v1::Result::BLACK_WINS, v1::Result::COUNT)}};
  const std::string xml = Export(t, ComputeStandings(t, games));
  EXPECT_THAT(xml, HasSubstr("blackPlayer=\"LIWEI\" handicap=\"0\" knownColor=\"true\" "
                             "result=\"RESULT_BOTHLOSE_BYDEF\""));
  EXPECT_THAT(xml, HasSubstr("blackPlayer=\"CHENJIE\" handicap=\"0\" knownColor=\"true\" "
                             "result=\"RESULT_BLACKWINS\""));
  // Read back as entered results, the standings are the same.
  absl::StatusOr<std::vector<v1::TournamentEvent>> events = ImportOpenGotha(xml, "T", t.settings());
  ASSERT_TRUE(events.ok()) << events.status();
  absl::StatusOr<v1::Tournament> back = Fold(*events);
  ASSERT_TRUE(back.ok());
  v1::StandingsReport a = ComputeStandings(t, games);
  v1::StandingsReport c = ComputeStandings(*back, {});
  // Each player by name: entrants who share a rank are listed by id, and
  // the import's ids are OpenGotha's keys (round 2 is in play: Zhou Lin and
  // van der Berg share second on a total of 1).
  auto by_name = [](const v1::StandingsReport& r) {
    std::map<std::string, std::pair<int, int>> out;
    for (const v1::Standing& s : r.standings()) out[s.name()] = {s.points(), s.rank()};
    return out;
  };
  ASSERT_EQ(a.standings_size(), c.standings_size());
  EXPECT_EQ(by_name(a), by_name(c));
}

TEST(OpenGotha, TeamsRoundTrip) {
  // Two teams of two boards; X wins the match 3-1 (X1 beats Y1, X2 draws Y2).
  testing::TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN, true);
  b.Team("X").Player("X1", "X", 1).Player("X2", "X", 2);
  b.Team("Y").Player("Y1", "Y", 1).Player("Y2", "Y", 2);
  b.Round(1, {{"X1", "Y1", "G1"}, {"Y2", "X2", "G2"}});
  v1::Tournament t = b.Build();
  for (v1::TournamentPlayer& p : *t.mutable_players()) p.set_first_name("Player");
  GameFactsMap games = {{"G1", testing::Decided(v1::Result::BLACK_WINS)},
                        {"G2", testing::Decided(v1::Result::DRAW)}};
  const std::string xml = Export(t, ComputeStandings(t, games));
  EXPECT_THAT(OpenGothaReader::Problems(xml), IsEmpty()) << xml;
  EXPECT_THAT(xml, HasSubstr("<Team teamName=\"Team X\" teamNumber=\"1\">"));
  EXPECT_THAT(xml, HasSubstr("<Board boardNumber=\"2\" player=\"Y2PLAYER\" roundNumber=\"1\"/>"));
  EXPECT_THAT(xml, HasSubstr("<TeamGeneralParameterSet teamSize=\"2\"/>"));
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

TEST(OpenGotha, OpenGothasTeamSampleWithPlayersOutsideAnyTeam) {
  v1::Tournament t = Import(ReadData("team_egc2013_excerpt.xml"));
  EXPECT_TRUE(t.settings().teams());
  EXPECT_EQ(t.title(), "TeamEGC2013");
  EXPECT_EQ(t.settings().rounds(), 6);
  ASSERT_EQ(t.teams_size(), 2);
  EXPECT_EQ(t.teams(1).id(), "T21");
  EXPECT_EQ(t.teams(1).name(), "PLA");
  EXPECT_EQ(FindPlayer(t, "TSAINORMAN")->team(), "");  // outside any team
  EXPECT_EQ(FindPlayer(t, "GHOST3")->team(), "");
  EXPECT_EQ(FindPlayer(t, "LINHEPING")->team(), "T21");
  EXPECT_EQ(FindPlayer(t, "LINHEPING")->board(), 1);
  EXPECT_EQ(FindPlayer(t, "SAVCENKOVASILIAUSKIENENADEZDA")->board(), 3);
  EXPECT_FALSE(FindPlayer(t, "CHENMINGRUI")->has_rating());  // ratingOrigin INI
  EXPECT_EQ(FindPlayer(t, "VASILIAUSKASRYTIS")->rating(), 1830);
  EXPECT_EQ(t.rounds(0).pairings(0).handicap(), 1);  // table 34
  // PLA won all three boards (White each time): 6 board points, the match.
  v1::StandingsReport r = ComputeStandings(t, {});
  EXPECT_THAT(Order(r.standings()), ElementsAre("T21", "T5"));
  EXPECT_EQ(r.standings(0).points(), 2);
  EXPECT_EQ(r.standings(0).board_points(), 6);
  EXPECT_THAT(r.standings(0).board_by_board(), ElementsAre(2, 2, 2));
  // And it goes back out as a file OpenGotha opens.
  EXPECT_THAT(OpenGothaReader::Problems(Export(t, r)), IsEmpty());
}

TEST(OpenGotha, TeamBoardsThatChangeByRound) {
  // Xi: An (board 1) and Bai (2) in round 1; Bai (1) and the reserve Cui
  // (2) in round 2. Dong: Ding (1), Er (2) throughout.
  // R1: An beats Ding, Er beats Bai: 2-2, a drawn match.
  // R2: Bai draws Ding, Cui beats Er: Xi 3-1.
  // Match points Xi 1 + 2 = 3, Dong 1 + 0 = 1. Board points Xi 2+0+1+2 = 5,
  // Dong 0+2+1+0 = 3. Board by board, each game on its round's board:
  // Xi board 1 = An 2 + Bai 1 = 3, board 2 = Bai 0 + Cui 2 = 2;
  // Dong board 1 = 0 + 1 = 1, board 2 = 2 + 0 = 2.
  v1::Tournament t = Import(ReadData("team_boards_by_round.xml"));
  EXPECT_EQ(FindPlayer(t, "ANYI")->board(), 1);
  EXPECT_EQ(FindPlayer(t, "BAIER")->board(), 0);  // changed boards
  EXPECT_EQ(FindPlayer(t, "CUISAN")->board(), 2);
  EXPECT_EQ(FindPairing(t, 2, 1)->team_board(), 1);
  EXPECT_EQ(FindPairing(t, 2, 2)->team_board(), 2);
  v1::StandingsReport r = ComputeStandings(t, {});
  EXPECT_THAT(Order(r.standings()), ElementsAre("T1", "T2"));
  EXPECT_EQ(Row(r.standings(), "T1").points(), 3);
  EXPECT_EQ(Row(r.standings(), "T1").board_points(), 5);
  EXPECT_THAT(Row(r.standings(), "T1").board_by_board(), ElementsAre(3, 2));
  EXPECT_THAT(Row(r.standings(), "T2").board_by_board(), ElementsAre(1, 2));
  // Exported, each round lists its own line-up.
  const std::string xml = Export(t, r);
  EXPECT_THAT(OpenGothaReader::Problems(xml), IsEmpty());
  EXPECT_THAT(xml, HasSubstr("<Board boardNumber=\"2\" player=\"BAIER\" roundNumber=\"1\"/>"));
  EXPECT_THAT(xml, HasSubstr("<Board boardNumber=\"1\" player=\"BAIER\" roundNumber=\"2\"/>"));
  EXPECT_THAT(xml, HasSubstr("<Board boardNumber=\"2\" player=\"CUISAN\" roundNumber=\"2\"/>"));
  EXPECT_THAT(xml, Not(HasSubstr("player=\"CUISAN\" roundNumber=\"1\"")));
}

TEST(OpenGotha, BadFilesAreRefusedWithTheLine) {
  const std::string head =
      "<?xml version=\"1.0\"?>\n<Tournament>\n<Players>\n"
      "<Player name=\"A\" firstName=\"a\"/>\n<Player name=\"B\" firstName=\"b\"/>\n</Players>\n";
  auto error = [](const std::string& xml) {
    absl::StatusOr<std::vector<v1::TournamentEvent>> e = ImportOpenGotha(xml, "T", {});
    EXPECT_FALSE(e.ok());
    return e.ok() ? std::string() : std::string(e.status().message());
  };
  EXPECT_THAT(
      error(head + "<Games>\n<Game roundNumber=\"1\" tableNumber=\"1\" blackPlayer=\"AA\" "
                   "whitePlayer=\"ZZ\" result=\"RESULT_BLACKWINS\"/>\n</Games>\n</Tournament>\n"),
      HasSubstr("line 8: <Game>: whitePlayer=\"ZZ\" names no player"));
  EXPECT_THAT(error(head + "<Games>\n<Game roundNumber=\"x\" tableNumber=\"1\" blackPlayer=\"AA\" "
                           "whitePlayer=\"BB\"/>\n</Games>\n</Tournament>\n"),
              HasSubstr("line 8: <Game>: roundNumber=\"x\" is not a whole number"));
  EXPECT_THAT(
      error(head + "<Games>\n<Game roundNumber=\"1\" tableNumber=\"1\" blackPlayer=\"AA\" "
                   "whitePlayer=\"BB\" result=\"RESULT_BOTHDRAW\"/>\n</Games>\n</Tournament>\n"),
      HasSubstr("unknown result \"RESULT_BOTHDRAW\""));
  EXPECT_THAT(error(head + "<Games>\n<Game roundNumber=\"1\" tableNumber=\"1\" blackPlayer=\"AA\" "
                           "whitePlayer=\"AA\"/>\n</Games>\n</Tournament>\n"),
              HasSubstr("cannot meet themselves"));
  EXPECT_THAT(error(head + "<Games>\n<Game roundNumber=\"1\"\n</Games>\n</Tournament>\n"),
              HasSubstr("line 9, column"));
  EXPECT_THAT(error("<Players/>"),
              HasSubstr("line 1: <Players>: the root element must be <Tournament>"));
  EXPECT_THAT(error(head), HasSubstr("<Tournament> (line 2) is not closed"));
}

// An element the tournament cannot hold is named by its line and in the
// file's terms (it was "the file is inconsistent: event 3: ...").
TEST(OpenGotha, WhatTheTournamentCannotHoldIsNamedByItsLine) {
  const std::string xml =
      "<?xml version=\"1.0\"?>\n<Tournament>\n<Players>\n"
      "<Player name=\"A\" firstName=\"a\"/>\n"
      "<Player name=\"OBrien\" firstName=\"Sean\" country=\"IRL\"/>\n</Players>\n"
      "</Tournament>\n";
  absl::StatusOr<std::vector<v1::TournamentEvent>> e = ImportOpenGotha(xml, "T", {});
  ASSERT_FALSE(e.ok());
  EXPECT_THAT(e.status().message(), HasSubstr("line 5: player '"));
  EXPECT_THAT(e.status().message(), HasSubstr("country \"IRL\""));
  EXPECT_THAT(e.status().message(), Not(HasSubstr("event ")));
  EXPECT_THAT(e.status().message(), Not(HasSubstr("inconsistent")));
}

// import-round takes one round of a file onto a tournament of its own: the
// file's other rounds may go past the tournament's, which reading it for
// that round does not fold.
TEST(OpenGotha, ARoundIsTakenFromAFileWithMoreRoundsThanTheTournament) {
  testing::TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.settings()->set_rounds(1);
  b.Player("A").Player("B");
  std::vector<v1::TournamentEvent> events = b.events();
  for (v1::TournamentEvent& e : events) {  // as the file names them: "A A", "B B"
    if (e.has_player_added()) {
      e.mutable_player_added()->mutable_player()->set_first_name(e.player_added().player().name());
    }
  }
  absl::StatusOr<v1::Tournament> t = Fold(events);
  ASSERT_TRUE(t.ok()) << t.status();
  const std::string xml =
      "<?xml version=\"1.0\"?>\n<Tournament>\n<Players>\n"
      "<Player name=\"A\" firstName=\"A\"/>\n<Player name=\"B\" firstName=\"B\"/>\n"
      "</Players>\n<Games>\n"
      "<Game roundNumber=\"1\" tableNumber=\"1\" blackPlayer=\"AA\" whitePlayer=\"BB\" "
      "result=\"RESULT_BLACKWINS\"/>\n"
      "<Game roundNumber=\"2\" tableNumber=\"1\" blackPlayer=\"BB\" whitePlayer=\"AA\" "
      "result=\"RESULT_BLACKWINS\"/>\n</Games>\n</Tournament>\n";
  absl::StatusOr<v1::TournamentRound> round = RoundFromOpenGotha(xml, *t, 1);
  ASSERT_TRUE(round.ok()) << round.status();
  EXPECT_EQ(round->round(), 1);
  EXPECT_EQ(round->pairings_size(), 1);
}

}  // namespace
}  // namespace arbiter::tournament
