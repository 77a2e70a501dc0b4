// End to end through a real `arbiter serve`: games recorded and adjudicated
// by the service, a tournament whose pairings name them, standings and an
// OpenGotha export (with its reasons sidecar) read back by import.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "adjudicator/tournament/xml.h"
#include "arbiter/v1/tournament.pb.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/support/arbiter_process.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/support/temp_dir.h"
#include "tests/tournament/e2e_fixture.h"
#include "tests/tournament/opengotha_reader.h"
#include "tests/tournament/result_files.h"

namespace arbiter {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::ProcessResult;
using testing::ReadFile;

using tournament_e2e::Attr;
using tournament_e2e::Created;
using tournament_e2e::E2E;
using tournament_e2e::Find;

TEST_F(E2E, StandingsAndExportFromAdjudicatedGames) {
  // G1: Wang's (White) phone rings (a warning), then Wang resigns: 李伟 wins.
  Record("g1", Created("G1", "李伟", "Wang Ming") +
                   "{\"at\": \"2026-05-01T09:00:20Z\", \"phoneRang\": {\"color\": \"WHITE\"}}\n"
                   "{\"at\": \"2026-05-01T09:00:30Z\", \"resign\": {\"color\": \"WHITE\"}}\n");
  // G2: Chen (Black) looks at a phone: art. 23.7, Chen loses.
  Record("g2", Created("G2", "Chen Jie", "Zhou Yu") +
                   "{\"at\": \"2026-05-01T09:00:20Z\", \"phoneViewed\": {\"color\": \"BLACK\"}}\n");

  ProcessResult r = CreateSpringCup();
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::ContainsRegex("player A +李伟 5D  \\(Li Wei\\)"));
  r = Cli({"tournament", "pair", "cup", "--round", "1", "--board", "A,B,G1", "--board", "C,D,G2"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "pair", "cup", "--round", "1", "--board", "A,C,G9"});
  EXPECT_EQ(r.exit, 2);  // round 1 is paired already
  EXPECT_THAT(r.err, HasSubstr("already paired"));

  v1::StandingsReport report;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("cup", &report));
  // A and D won (2 each); B has the warning, so B is below C on B (fewer warnings).
  ASSERT_EQ(report.standings_size(), 4);
  EXPECT_EQ(report.standings(0).points(), 2);
  EXPECT_EQ(report.standings(1).points(), 2);
  EXPECT_EQ(report.standings(2).id(), "C");
  EXPECT_EQ(report.standings(3).id(), "B");
  EXPECT_EQ(report.standings(3).warnings(), 1);
  EXPECT_EQ(report.pairings(1).clause(), "cn-2002/23.7");
  EXPECT_THAT(report.errors(), ::testing::IsEmpty());
  // The table says which criterion broke each tie: B below C on warnings.
  r = Cli({"tournament", "standings", "cup"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::ContainsRegex("4  Wang Ming +0 +0.00 +1 .*\\(by B 警告\\)"));
  // A header names each criterion of a round robin (art. 27: points, A, B;
  // no Swiss total score), and a legend says what each counts.
  EXPECT_THAT(r.out, ::testing::ContainsRegex("rank  name +pts +A +B +W +D +L\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("total")));
  EXPECT_THAT(r.out, HasSubstr("A      胜者小分  A: the points of the opponents beaten, plus half "
                               "those drawn"));
  EXPECT_THAT(r.out, HasSubstr("B      警告  B: warnings over the event, fewer ranks higher"));
  // The name column is 20 terminal columns whatever the script: 李伟 takes
  // four (two wide characters), so 16 spaces pad it, as 11 pad "Wang Ming".
  EXPECT_THAT(r.out, HasSubstr("李伟" + std::string(16 + 2 + 5, ' ') + "2"));
  EXPECT_THAT(r.out, HasSubstr("Wang Ming" + std::string(11 + 2 + 5, ' ') + "0"));

  // OpenGotha: the romanized name, a first name for every player, a file
  // its File > Open reads whole (opengotha_reader.h).
  const std::string xml = dir_.File("cup.xml");
  r = Cli({"tournament", "export", "cup", "--format", "opengotha", "--out", xml});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(tournament::testing::OpenGothaReader::Problems(ReadFile(xml)), ::testing::IsEmpty());
  absl::StatusOr<std::unique_ptr<tournament::XmlElement>> doc = tournament::ParseXml(ReadFile(xml));
  ASSERT_TRUE(doc.ok()) << doc.status();
  const tournament::XmlElement* li = Find(**doc, "Player", "name", "Li");
  EXPECT_EQ(Attr(li, "firstName"), "Wei");
  EXPECT_EQ(Attr(li, "rank"), "5D");
  EXPECT_EQ(Attr(Find(**doc, "Player", "name", "Wang"), "firstName"), "Ming");
  const tournament::XmlElement* g1 = Find(**doc, "Game", "blackPlayer", "LIWEI");
  EXPECT_EQ(Attr(g1, "whitePlayer"), "WANGMING");
  EXPECT_EQ(Attr(g1, "result"), "RESULT_BLACKWINS");
  EXPECT_EQ(Attr(g1, "roundNumber"), "1");

  // EGD .h9: the header, then place, family, given, rank, country, club,
  // points, A, B, 0 and the round's result: the opponent's place, +/-,
  // the colour and the handicap (A and D, level, listed by id).
  r = Cli({"tournament", "export", "cup", "--format", "h9"});
  ASSERT_EQ(r.exit, 0) << r.err;
  tournament::testing::H9 h9 = tournament::testing::ParseH9(r.out);
  EXPECT_EQ(h9.headers["CL"], "B");
  EXPECT_EQ(h9.headers["EV"], "Spring Cup");
  EXPECT_EQ(h9.headers["PC"], "CN,Beijing");
  EXPECT_EQ(h9.headers["DT"], "2026-05-01,2026-05-01");
  EXPECT_EQ(h9.headers["TM"], "60");
  EXPECT_EQ(h9.headers["KM"], "7.5");
  ASSERT_EQ(h9.rows.size(), 4u);
  EXPECT_THAT(h9.rows[0],
              ElementsAre("1", "Li", "Wei", "5d", "XX", "xxxx", "2", "0.00", "0", "0", "4+/b0"));
  EXPECT_THAT(h9.rows[1],
              ElementsAre("2", "Zhou", "Yu", "2k", "XX", "xxxx", "2", "0.00", "0", "0", "3+/w0"));
  EXPECT_THAT(h9.rows[2],
              ElementsAre("3", "Chen", "Jie", "1k", "XX", "xxxx", "0", "0.00", "0", "0", "2-/b0"));
  EXPECT_THAT(h9.rows[3],
              ElementsAre("4", "Wang", "Ming", "4d", "XX", "xxxx", "0", "0.00", "1", "0", "1-/w0"));

  // AGA: temporary ids from 99999 down, "Last, First", ranks 5d/1k, then
  // "white black winner handicap komi" with komi a whole number.
  r = Cli({"tournament", "export", "cup", "--format", "aga"});
  ASSERT_EQ(r.exit, 0) << r.err;
  tournament::testing::Aga aga = tournament::testing::ParseAga(r.out);
  EXPECT_EQ(aga.tourney, "Spring Cup, Beijing");
  EXPECT_TRUE(aga.ended);
  ASSERT_EQ(aga.players.size(), 4u);
  EXPECT_THAT(aga.players[0], ElementsAre("99999", "Li, Wei", "5d"));
  EXPECT_THAT(aga.players[1], ElementsAre("99998", "Wang, Ming", "4d"));
  EXPECT_THAT(aga.players[2], ElementsAre("99997", "Chen, Jie", "1k"));
  EXPECT_THAT(aga.players[3], ElementsAre("99996", "Zhou, Yu", "2k"));
  ASSERT_EQ(aga.games[1].size(), 2u);
  EXPECT_THAT(aga.games[1][0], ElementsAre("99998", "99999", "B", "0", "7"));
  EXPECT_THAT(aga.games[1][1], ElementsAre("99996", "99997", "W", "0", "7"));

  r = Cli({"tournament", "export", "cup", "--format", "csv"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(",C,Chen Jie,"));

  // An OpenGotha file read in, written out with its sidecar, and read back
  // as a new tournament gives the same points.
  r = Cli({"tournament", "import", "--id", "autumn",
           testing::SourcePath("tests/tournament/data/swiss4.xml")});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "export", "autumn", "--format", "opengotha", "--out", xml});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(ReadFile(xml), HasSubstr("<PairingParameterSet "));
  EXPECT_THAT(ReadFile(xml), HasSubstr("result=\"RESULT_WHITEWINS_BYDEF\""));
  EXPECT_THAT(ReadFile(xml + ".reasons.json"), HasSubstr("\"format\": \"OPENGOTHA_XML\""));
  r = Cli({"tournament", "import", "--id", "autumn2", xml});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "standings", "autumn2", "--json"});
  ASSERT_EQ(r.exit, 0) << r.err;
  v1::StandingsReport back;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &back).ok());
  ASSERT_EQ(back.standings_size(), 5);
  EXPECT_EQ(back.standings(0).points() + back.standings(1).points(), 6);  // Li 3, Müller 3

  r = Cli({"tournament", "standings", "nope"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("NOT_FOUND"));
}

// 甲 (Black) v 乙 (White) paired, the game recorded with 乙 as Black: its
// result is never credited to the wrong player. Attached once recorded, the
// pairing is refused; recorded after the pairing, the standings say so and
// the command exits 1.
TEST_F(E2E, ARecordedGameThatIsNotItsPairingsIsRefusedOrAnError) {
  const std::string yi_black_wins =
      "{\"at\": \"2026-05-01T09:00:30Z\", \"resign\": {\"color\": \"WHITE\"}}\n";
  Record("g1", Created("G1", "乙", "甲") + yi_black_wins);
  ProcessResult r = Cli({"tournament", "create", "--id", "cup", "--system", "swiss", "--player",
                         "J:甲", "--player", "Y:乙", "--player", "Z:Zhao,Lei"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "pair", "cup", "--round", "1", "--board", "J,Y,G1"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("game G1 was recorded as '乙' (Black) v '甲' (White), but the "
                               "pairing is J (Black) v Y (White): the colours differ"));
  r = Cli({"tournament", "pair", "cup", "--round", "1", "--board", "J,Z,G1"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("the players differ"));
  r = Cli({"tournament", "show", "cup", "--json"});
  ASSERT_EQ(r.exit, 0) << r.err;
  v1::Tournament shown;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &shown).ok()) << r.out;
  EXPECT_EQ(shown.rounds_size(), 0) << "the refused pairings wrote nothing";

  // Paired before the game is recorded: the standings find it.
  r = Cli({"tournament", "pair", "cup", "--round", "1", "--board", "J,Y,G2", "--bye", "Z"});
  ASSERT_EQ(r.exit, 0) << r.err;
  Record("g2", Created("G2", "乙", "甲") + yi_black_wins);
  r = Cli({"tournament", "standings", "cup"});
  EXPECT_EQ(r.exit, 1);
  EXPECT_THAT(r.err, HasSubstr("error: round 1 board 1: game G2 was recorded as '乙' (Black) v "
                               "'甲' (White), but the pairing is J (Black) v Y (White): the "
                               "colours differ; its result is not counted"));
  // Round 1 counts for neither while its game is not theirs (issue 43): the
  // total is the points.
  EXPECT_THAT(r.out, ::testing::ContainsRegex("甲 +0 +0.00 "));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("乙 +0 +0.00 "));
  v1::StandingsReport report;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("cup", &report, /*exit=*/1));
  ASSERT_EQ(report.errors_size(), 1);
  EXPECT_EQ(report.pairings(0).status(), v1::ScoredPairing::MISMATCH);
}

// 2002 art. 23.2 recorded at the board: Zhou (White in G3) leaves the
// competition during round 1. The game is lost (23.2) and the standings see
// the withdrawal (withdrawals.h): Zhou is marked withdrawn, and 28.3 keeps
// the result.
TEST_F(E2E, AWithdrawalRecordedInAGameIsSeenByTheStandings) {
  Record("g3", Created("G3", "Chen Jie", "Zhou Yu") +
                   "{\"at\": \"2026-05-01T09:00:20Z\", \"withdrew\": {\"color\": \"WHITE\"}}\n");
  ProcessResult r = Cli({"tournament", "create", "--id", "open", "--system", "swiss", "--player",
                         "C:Chen,Jie", "--player", "D:Zhou,Yu", "--player", "E:Sun,Li"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "pair", "open", "--round", "1", "--board", "C,D,G3", "--bye", "E"});
  ASSERT_EQ(r.exit, 0) << r.err;
  v1::StandingsReport report;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("open", &report));
  ASSERT_EQ(report.pairings_size(), 1);
  EXPECT_EQ(report.pairings(0).outcome(), v1::Result::BLACK_WINS);
  EXPECT_EQ(report.pairings(0).status(), v1::ScoredPairing::DECIDED);
  for (const v1::Standing& s : report.standings()) {
    EXPECT_EQ(s.withdrawn(), s.id() == "D") << s.id();
    if (s.id() == "C") {
      EXPECT_EQ(s.points(), 2);
    }
  }
}

// Issue 29: a game recorded without its moves and ended by the arbiter's
// count is read by the standings like any count; a game created by mistake
// and cancelled (DOMAIN.md §3.2) counts nowhere: its pairing is pending
// again, and its warning and result are in no standing.
TEST_F(E2E, ACountWithoutMovesCountsAndACancelledGameIsInNoStanding) {
  const std::string no_moves =
      "{\"at\": \"2026-05-01T09:00:00Z\", \"gameCreated\": {\"gameId\": \"K1\", \"ruleset\": "
      "\"cn-2002\", \"boardSize\": 19, \"black\": {\"name\": \"Chen Jie\"}, \"white\": "
      "{\"name\": \"Zhou Yu\"}, \"venue\": \"SAME_SITE\", \"scheduledStart\": "
      "\"2026-05-01T09:00:00Z\"}}\n"
      "{\"at\": \"2026-05-01T09:30:00Z\", \"phoneRang\": {\"color\": \"BLACK\"}}\n"
      // 185 - 180.5 - 3.75 - 1 = -0.25: White by a quarter stone.
      "{\"at\": \"2026-05-01T12:00:00Z\", \"countRecorded\": {\"blackCount\": 185}}\n";
  Record("k1", no_moves);
  Record("k2", Created("K2", "Sun Li", "Wang Bo") +
                   "{\"at\": \"2026-05-01T09:00:20Z\", \"phoneRang\": {\"color\": \"WHITE\"}}\n"
                   "{\"at\": \"2026-05-01T09:00:30Z\", \"resign\": {\"color\": \"WHITE\"}}\n");
  ProcessResult r =
      Cli({"tournament", "create", "--id", "k", "--system", "swiss", "--player", "C:Chen,Jie",
           "--player", "D:Zhou,Yu", "--player", "S:Sun,Li", "--player", "W:Wang,Bo"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "pair", "k", "--round", "1", "--board", "C,D,K1", "--board", "S,W,K2"});
  ASSERT_EQ(r.exit, 0) << r.err;
  v1::StandingsReport before;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("k", &before));
  ASSERT_EQ(before.pairings_size(), 2);
  EXPECT_EQ(before.pairings(1).outcome(), v1::Result::BLACK_WINS);

  r = Cli(
      {"game", "cancel", "K2", "--reason", "paired by mistake", "--at", "2026-05-01T09:01:00Z"});
  ASSERT_EQ(r.exit, 0) << r.out << r.err;
  v1::StandingsReport report;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("k", &report));
  ASSERT_EQ(report.pairings_size(), 2);
  EXPECT_EQ(report.pairings(0).status(), v1::ScoredPairing::DECIDED);
  EXPECT_EQ(report.pairings(0).outcome(), v1::Result::WHITE_WINS);
  EXPECT_EQ(report.pairings(0).reason(), v1::Result::COUNT);
  EXPECT_EQ(report.pairings(1).status(), v1::ScoredPairing::PENDING);
  EXPECT_THAT(report.pairings(1).note(), HasSubstr("cancelled by the chief arbiter"));
  for (const v1::Standing& s : report.standings()) {
    EXPECT_EQ(s.points(), s.id() == "D" ? 2 : 0) << s.id();
    EXPECT_EQ(s.warnings(), s.id() == "C" ? 1 : 0) << s.id();
  }
}

// Once a token exists, `arbiter serve` admits tournament calls as it does
// game calls: a token for every call, the chief arbiter's for the
// organiser's writes.
TEST_F(E2E, TournamentCallsNeedATokenAndOrganisingTheChiefArbiters) {
  const std::string chief = Token("CHIEF_ARBITER", "Wang Ru");
  const std::string software = Token("SOFTWARE", "broadcast");
  const std::vector<std::string> create = {"tournament", "create",      "--id",     "cup",
                                           "--system",   "round-robin", "--player", "A:Li",
                                           "--player",   "B:Wang"};
  ProcessResult r = Cli(create);
  EXPECT_NE(r.exit, 0);
  EXPECT_THAT(r.err, HasSubstr("UNAUTHENTICATED"));
  r = Cli(create, "", software);
  EXPECT_NE(r.exit, 0);
  EXPECT_THAT(r.err, HasSubstr("PERMISSION_DENIED"));
  r = Cli({"tournament", "standings", "cup"}, "", software);
  EXPECT_THAT(r.err, HasSubstr("NOT_FOUND")) << "the refused creations wrote nothing";

  r = Cli(create, "", chief);
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "standings", "cup"}, "", software);
  EXPECT_EQ(r.exit, 0) << r.err;
}

// The exports read by Python's own parsers (tests/readers/tournament_files.py:
// expat, the csv module, the json module), not by arbiter's: names with the
// characters each format must escape (' & < > " and CJK) come back as the
// standings hold them, and expat reads the OpenGotha players as arbiter's
// own XML reader does. Skipped without python3.
TEST_F(E2E, ExportsReadBackByPythonsParsers) {
  ProcessResult r = Cli({"tournament", "create", "--id", "odd", "--system", "round-robin",
                         "--title", "Cup \"A\" & <B>", "--player", "A:李,伟:5D", "--romanized",
                         "A:Li,Wei", "--player", "B:O'Hara & <Sons>,Jo \"Tiger\":4D", "--player",
                         "C:Chen,Jie:1K", "--player", "D:Zhou,Yu:2K"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "pair", "odd", "--round", "1", "--board", "A,B,G1", "--board", "C,D,G2"});
  ASSERT_EQ(r.exit, 0) << r.err;
  v1::StandingsReport report;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("odd", &report));
  ASSERT_EQ(report.standings_size(), 4);

  const std::string xml = dir_.File("odd.xml");
  const std::string csv = dir_.File("odd.csv");
  const std::string json = dir_.File("odd.json");
  ASSERT_EQ(Cli({"tournament", "export", "odd", "--format", "opengotha", "--out", xml}).exit, 0);
  for (const auto& [format, path] : {std::pair{"csv", csv}, std::pair{"json", json}}) {
    r = Cli({"tournament", "export", "odd", "--format", format});
    ASSERT_EQ(r.exit, 0) << r.err;
    testing::WriteFile(path, r.out);
  }
  r = testing::Run({"/usr/bin/env", "python3",
                    testing::SourcePath("tests/readers/tournament_files.py"), "xml=" + xml,
                    "csv=" + csv, "json=" + json});
  if (r.exit == 127) GTEST_SKIP() << "no python3: " << r.err;
  ASSERT_EQ(r.exit, 0) << r.err;
  google::protobuf::Struct read;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &read).ok()) << r.out;
  auto at = [](const google::protobuf::Value& v, int i) -> const google::protobuf::Value& {
    return v.list_value().values(i);
  };
  auto field = [](const google::protobuf::Value& v, const std::string& key) {
    return v.struct_value().fields().at(key);
  };

  // CSV: a header, then each standing's id and name as the report has them.
  const google::protobuf::Value& rows = read.fields().at("csv");
  ASSERT_EQ(rows.list_value().values_size(), 1 + report.standings_size());
  const int columns = at(rows, 0).list_value().values_size();
  for (int i = 0; i < report.standings_size(); ++i) {
    SCOPED_TRACE(i);
    const google::protobuf::Value& row = at(rows, i + 1);
    EXPECT_EQ(row.list_value().values_size(), columns);
    EXPECT_EQ(at(row, 1).string_value(), report.standings(i).id());
    EXPECT_EQ(at(row, 2).string_value(), report.standings(i).name());
  }
  EXPECT_EQ(report.standings(1).name(), "O'Hara & <Sons> Jo \"Tiger\"");

  // JSON: the title and the names, unescaped.
  const google::protobuf::Value& doc = read.fields().at("json");
  EXPECT_EQ(field(doc, "title").string_value(), "Cup \"A\" & <B>");
  for (int i = 0; i < report.standings_size(); ++i) {
    EXPECT_EQ(field(at(field(doc, "standings"), i), "name").string_value(),
              report.standings(i).name());
  }

  // XML: expat reads the players and games arbiter's reader reads.
  absl::StatusOr<std::unique_ptr<tournament::XmlElement>> ours =
      tournament::ParseXml(ReadFile(xml));
  ASSERT_TRUE(ours.ok()) << ours.status();
  const google::protobuf::Value& theirs = read.fields().at("xml");
  EXPECT_EQ(field(theirs, "root").string_value(), (*ours)->name);
  const google::protobuf::Value& players = field(theirs, "players");
  ASSERT_EQ(players.list_value().values_size(), 4);
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    const std::string name = at(at(players, i), 0).string_value();
    const tournament::XmlElement* mine = Find(**ours, "Player", "name", name);
    EXPECT_EQ(at(at(players, i), 1).string_value(), Attr(mine, "firstName"));
    EXPECT_EQ(at(at(players, i), 2).string_value(), Attr(mine, "rank"));
  }
  EXPECT_EQ(at(at(players, 1), 0).string_value(), "O'Hara & <Sons>");
  EXPECT_EQ(at(at(players, 1), 1).string_value(), "Jo \"Tiger\"");
  const google::protobuf::Value& games = field(theirs, "games");
  ASSERT_EQ(games.list_value().values_size(), 2);
  EXPECT_EQ(at(at(games, 0), 1).string_value(), "O'HARA&<SONS>JO\"TIGER\"");
  EXPECT_EQ(Attr(Find(**ours, "Game", "blackPlayer", "LIWEI"), "whitePlayer"),
            at(at(games, 0), 1).string_value());
}

}  // namespace
}  // namespace arbiter
