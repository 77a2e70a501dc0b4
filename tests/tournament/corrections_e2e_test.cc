// A director's corrections (issue 30), through a real `arbiter serve` and
// the CLI: each is recorded with who and why, changes what it corrects and
// nothing else, and every export lists it. And the player records the
// federations' files carry (club, country, EGD PIN, AGA id, 9p).
#include <map>
#include <string>
#include <utility>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/tournament/e2e_fixture.h"

namespace arbiter {
namespace {

using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::ProcessResult;
using testing::ReadFile;
using tournament_e2e::Created;
using tournament_e2e::E2E;

const char kYiWins[] = "{\"at\": \"2026-05-01T09:00:30Z\", \"resign\": {\"color\": \"WHITE\"}}\n";

// A pairing whose colours were the other way round at the board: counted
// for nobody (a mismatch, `standings` exits 1) until the director amends it;
// the amendment is checked against the record (the wrong colours again are
// refused) and recorded with the chief arbiter's name and the reason.
TEST_F(E2E, AnAmendedPairingCountsTheGamePlayedAndNamesWhoAndWhy) {
  const std::string chief = Token("CHIEF_ARBITER", "Wang Ru");
  const std::string software = Token("SOFTWARE", "broadcast");
  ProcessResult r = Cli({"tournament", "create", "--id", "cup", "--system", "swiss", "--player",
                         "J:甲", "--player", "Y:乙", "--player", "Z:丙"},
                        "", chief);
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "pair", "cup", "--round", "1", "--board", "J,Y,G1", "--bye", "Z"}, "",
          chief);
  ASSERT_EQ(r.exit, 0) << r.err;
  testing::WriteFile(dir_.File("g1.jsonl"), Created("G1", "乙", "甲") + kYiWins);
  r = Cli({"record", dir_.File("g1.jsonl")}, "", chief);
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "standings", "cup"}, "", software);
  EXPECT_EQ(r.exit, 1) << "the colours differ: counted for nobody";

  // Not tournament software's to correct; no reason; a board that is not paired.
  r = Cli({"tournament", "amend", "cup", "--round", "1", "--board", "1", "--swap-colours",
           "--reason", "colours reversed at the board"},
          "", software);
  EXPECT_THAT(r.err, HasSubstr("PERMISSION_DENIED"));
  r = Cli({"tournament", "amend", "cup", "--round", "1", "--board", "1", "--swap-colours"}, "",
          chief);
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("--reason"));
  r = Cli({"tournament", "amend", "cup", "--round", "1", "--board", "7", "--swap-colours",
           "--reason", "x"},
          "", chief);
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("round 1 board 7 is not paired"));
  // Another player who is the round's bye, on the board: refused, nothing written.
  r = Cli({"tournament", "amend", "cup", "--round", "1", "--board", "1", "--white", "Z", "--reason",
           "x"},
          "", chief);
  EXPECT_NE(r.exit, 0);

  r = Cli({"tournament", "amend", "cup", "--round", "1", "--board", "1", "--swap-colours",
           "--reason", "colours reversed at the board"},
          "", chief);
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("board 1  Y (B) - J (W)  game G1"));
  EXPECT_THAT(r.out,
              ContainsRegex(
                  "correction .* UTC, Wang Ru \\(CHIEF_ARBITER.*\\): round 1 board 1 amended to Y "
                  "\\(Black\\) v J \\(White\\).*Why: colours reversed"));
  r = Cli({"tournament", "standings", "cup", "--json"}, "", software);
  ASSERT_EQ(r.exit, 0) << r.err;
  v1::StandingsReport report;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &report).ok()) << r.out;
  EXPECT_EQ(report.pairings(0).status(), v1::ScoredPairing::DECIDED);
  for (const v1::Standing& s : report.standings()) {
    if (s.id() == "Y") {
      EXPECT_EQ(s.points(), 2);
    }
  }
  // Swapped back: the record says otherwise, refused.
  r = Cli({"tournament", "amend", "cup", "--round", "1", "--board", "1", "--swap-colours",
           "--reason", "again"},
          "", chief);
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("the colours differ"));
}

// A board with no recorded game gets its result from the paper score
// sheet; a recorded game's cannot. Every export marks it: the .h9's ";"
// lines, the AGA file's "#" lines, the OpenGotha file's comments, the
// sidecar, the standings' note.
TEST_F(E2E, AResultFromThePaperScoreSheetIsMarkedInEveryExport) {
  ProcessResult r =
      Cli({"tournament",  "create",          "--id",        "open",         "--system",
           "round-robin", "--player",        "A:Li,Wei:5D", "--player",     "B:Wang,Ming:9P",
           "--player",    "C:Chen,Jie:1K",   "--player",    "D:Zhou,Yu:2K", "--egf-class",
           "B",           "--adjusted-time", "60",          "--dates",      "2026-05-01"});
  ASSERT_EQ(r.exit, 0) << r.err;
  testing::WriteFile(dir_.File("g2.jsonl"), Created("G2", "Chen Jie", "Zhou Yu") + kYiWins);
  ASSERT_EQ(Cli({"record", dir_.File("g2.jsonl")}).exit, 0);
  r = Cli({"tournament", "pair", "open", "--round", "1", "--board", "A,B,G1", "--board", "C,D,G2"});
  ASSERT_EQ(r.exit, 0) << r.err;

  r = Cli({"tournament", "result", "open", "--round", "1", "--board", "2", "--outcome",
           "white-wins", "--reason", "x"});
  EXPECT_EQ(r.exit, 2) << "G2 is recorded: its result is the record's";
  EXPECT_THAT(r.err, HasSubstr("game G2 is recorded in the ledger"));
  r = Cli({"tournament", "result", "open", "--round", "1", "--board", "1", "--outcome", "maybe",
           "--reason", "x"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("black-wins, white-wins, draw, both-lose or no-result"));
  r = Cli({"tournament", "result", "open", "--round", "1", "--board", "1", "--outcome",
           "Black-Wins", "--reason", "G1 was played on paper: the clock's tablet failed"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("BLACK_WINS from the paper score sheet"));

  v1::StandingsReport report;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("open", &report));
  EXPECT_EQ(report.pairings(0).status(), v1::ScoredPairing::DECIDED);
  EXPECT_EQ(report.pairings(0).note(), "from the paper score sheet (no game recorded)");
  EXPECT_EQ(report.standings(0).id(), "A");

  const std::string marked = "board 1: BLACK_WINS entered from the paper score sheet";
  r = Cli({"tournament", "export", "open", "--format", "h9"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, ContainsRegex("\n; correction .*" + marked));
  EXPECT_THAT(r.out, ContainsRegex("Wang Ming +9p"));  // a professional, as EGD writes one
  r = Cli({"tournament", "export", "open", "--format", "aga"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, ContainsRegex("\n# correction .*" + marked));
  EXPECT_THAT(r.out, HasSubstr("Wang, Ming\t9p"));
  const std::string xml = dir_.File("open.xml");
  r = Cli({"tournament", "export", "open", "--format", "opengotha", "--out", xml});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(ReadFile(xml), ContainsRegex("<!-- correction .*" + marked));
  EXPECT_THAT(ReadFile(xml + ".reasons.json"), HasSubstr(marked));

  // The round robin imports back as a round robin, ranked as before (it
  // came back a Swiss event with every player ranked 1).
  r = Cli({"tournament", "import", "--id", "back", xml});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(ROUND_ROBIN"));
  v1::StandingsReport back;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("back", &back));
  // By name: ids are made again from the names, and players sharing a rank
  // are listed by id.
  auto ranked = [](const v1::StandingsReport& r) {
    std::map<std::string, std::pair<int, int>> out;
    for (const v1::Standing& s : r.standings()) out[s.name()] = {s.rank(), s.points()};
    return out;
  };
  EXPECT_EQ(ranked(back), ranked(report));
  EXPECT_EQ(back.standings(3).rank(), 3) << "not every player ranked 1";
}

// A player's record set right after registration: the romanized name the
// ASCII formats need (refused before it), club, country, EGD PIN and AGA id,
// written where each format has them.
TEST_F(E2E, APlayersRecordIsUpdatedAndEveryFederationFileCarriesIt) {
  ProcessResult r = Cli({"tournament",
                         "create",
                         "--id",
                         "cup",
                         "--system",
                         "round-robin",
                         "--player",
                         "A:李,伟:5D",
                         "--player",
                         "B:Wang,Ming:4D",
                         "--club",
                         "B:Bj",
                         "--player-country",
                         "B:CN",
                         "--egd-pin",
                         "B:12345678",
                         "--aga-id",
                         "B:4321",
                         "--egf-class",
                         "B",
                         "--adjusted-time",
                         "60"});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "create", "--id", "bad", "--system", "swiss", "--player", "A:Li",
           "--egd-pin", "A:12ab"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("EGD PIN \"12ab\" is not a number"));
  r = Cli({"tournament", "export", "cup", "--format", "h9"});
  EXPECT_NE(r.exit, 0) << "李伟 has no romanized name yet";
  EXPECT_THAT(r.err, HasSubstr("'A'"));

  r = Cli({"tournament", "update", "cup", "--player", "A", "--romanized", "Li,Wei", "--club", "Sh",
           "--player-country", "cn", "--egd-pin", "87654321", "--reason",
           "registered without his passport name"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(Li Wei)  club Sh  country cn  EGD 87654321"));
  EXPECT_THAT(r.out, HasSubstr("player A's record updated. Why: registered without"));
  r = Cli({"tournament", "update", "cup", "--player", "A", "--player-country", "China", "--reason",
           "x"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("not a 2-letter ISO 3166 code"));

  r = Cli({"tournament", "export", "cup", "--format", "h9"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, ContainsRegex("Li Wei +5d CN +Sh .* \\|87654321\n"));
  EXPECT_THAT(r.out, ContainsRegex("Wang Ming +4d CN +Bj .* \\|12345678\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("xxxx")));
  r = Cli({"tournament", "export", "cup", "--format", "aga"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("4321\tWang, Ming\t4d"));
}

// A withdrawal recorded by mistake is taken back: the player is paired again
// (art. 28.3 no longer applies to them) and the standings no longer mark them.
TEST_F(E2E, AReinstatedPlayerIsPairedAgain) {
  ProcessResult r = Cli({"tournament", "create", "--id", "sw", "--system", "swiss", "--player",
                         "A:Li", "--player", "B:Wang", "--player", "C:Chen"});
  ASSERT_EQ(r.exit, 0) << r.err;
  ASSERT_EQ(Cli({"tournament", "withdraw", "sw", "--player", "C", "--after-round", "0"}).exit, 0);
  r = Cli({"tournament", "pair", "sw", "--round", "1", "--board", "A,C,G1", "--bye", "B"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("28.3"));
  r = Cli({"tournament", "reinstate", "sw", "--player", "B", "--reason", "x"});
  EXPECT_EQ(r.exit, 2);
  EXPECT_THAT(r.err, HasSubstr("no withdrawal"));
  r = Cli({"tournament", "reinstate", "sw", "--player", "C", "--reason",
           "the withdrawal was recorded for the wrong player"});
  ASSERT_EQ(r.exit, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("withdrawn C")));
  r = Cli({"tournament", "pair", "sw", "--round", "1", "--board", "A,C,G1", "--bye", "B"});
  EXPECT_EQ(r.exit, 0) << r.err;
}

}  // namespace
}  // namespace arbiter
