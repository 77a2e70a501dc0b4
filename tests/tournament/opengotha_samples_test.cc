// OpenGotha's own sample tournaments (tests/data/opengotha, with their
// licence and origin), through a real `arbiter serve`: each imports as
// OpenGotha's File > Open reads it, and its export imports back to the same
// tournament: system, every game with its round, board, colours and result,
// and the same standings.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"
#include "tests/tournament/e2e_fixture.h"

namespace arbiter {
namespace {

using ::testing::HasSubstr;
using testing::ProcessResult;
using testing::ReadFile;
using tournament_e2e::E2E;

// Every pairing as one comparable line.
std::vector<std::string> Games(const v1::Tournament& t) {
  std::vector<std::string> out;
  for (const v1::TournamentRound& r : t.rounds()) {
    for (const v1::Pairing& p : r.pairings()) {
      out.push_back(absl::StrCat("round ", p.round(), " board ", p.board(), " ", p.black(), " v ",
                                 p.white(), " h", p.handicap(), " ",
                                 v1::Result::Outcome_Name(p.entered_outcome()),
                                 p.entered_by_default() ? " by default" : ""));
    }
    for (const std::string& b : r.byes())
      out.push_back(absl::StrCat("round ", r.round(), " bye ", b));
  }
  return out;
}

class Samples : public E2E, public ::testing::WithParamInterface<const char*> {
 protected:
  // `tournament show ID --json`.
  void Show(const std::string& id, v1::Tournament* t) {
    ProcessResult r = Cli({"tournament", "show", id, "--json"});
    ASSERT_EQ(r.exit, 0) << r.err;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, t).ok()) << r.out;
  }
};

TEST_P(Samples, ImportsAndReadsBackItsOwnExport) {
  const std::string file = testing::SourcePath(absl::StrCat("tests/data/opengotha/", GetParam()));
  ProcessResult r = Cli({"tournament", "import", "--id", "sample", file});
  ASSERT_EQ(r.exit, 0) << r.err;
  v1::Tournament first;
  ASSERT_NO_FATAL_FAILURE(Show("sample", &first));
  // As many games as the file holds (OpenGotha drops none of these).
  const std::string xml = ReadFile(file);
  size_t games = 0;
  for (size_t at = xml.find("<Game "); at != std::string::npos; at = xml.find("<Game ", at + 1)) {
    ++games;
  }
  size_t paired = 0;
  for (const v1::TournamentRound& round : first.rounds()) paired += round.pairings_size();
  EXPECT_EQ(paired, games);

  const std::string out = dir_.File("again.xml");
  r = Cli({"tournament", "export", "sample", "--format", "opengotha", "--out", out});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "import", "--id", "again", out});
  ASSERT_EQ(r.exit, 0) << r.err;
  v1::Tournament second;
  ASSERT_NO_FATAL_FAILURE(Show("again", &second));
  EXPECT_EQ(second.settings().system(), first.settings().system());
  EXPECT_EQ(second.settings().teams(), first.settings().teams());
  EXPECT_EQ(second.players_size(), first.players_size());
  EXPECT_EQ(second.teams_size(), first.teams_size());
  EXPECT_EQ(Games(second), Games(first));

  v1::StandingsReport a, b;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("sample", &a));
  ASSERT_NO_FATAL_FAILURE(StandingsJson("again", &b));
  ASSERT_EQ(a.standings_size(), b.standings_size());
  for (int i = 0; i < a.standings_size(); ++i) {
    SCOPED_TRACE(i);
    // By name: a team's id is its number in the file, which the export
    // gives in its own order.
    EXPECT_EQ(b.standings(i).name(), a.standings(i).name());
    EXPECT_EQ(b.standings(i).rank(), a.standings(i).rank());
    EXPECT_EQ(b.standings(i).points(), a.standings(i).points());
  }
}

INSTANTIATE_TEST_SUITE_P(OpenGotha, Samples,
                         ::testing::Values("CdFO2020.xml", "tournoi_de_juvisy.xml",
                                           "TournoiChinois.xml"));

// The samples as other editors and other platforms save them
// (tests/data/opengotha/resaved, README there): another encoding declared
// in the prolog, LF line ends, re-indented, attributes in reverse order,
// non-ASCII as character references, a comment and a DOCTYPE. The
// hand-written reader refused or garbled each; each reads as the original.
class Resaved : public E2E,
                public ::testing::WithParamInterface<std::pair<const char*, const char*>> {};

TEST_P(Resaved, ReadsAsTheOriginal) {
  const auto [original, resaved] = GetParam();
  ProcessResult r = Cli({"tournament", "import", "--id", "original",
                         testing::SourcePath(absl::StrCat("tests/data/opengotha/", original))});
  ASSERT_EQ(r.exit, 0) << r.err;
  r = Cli({"tournament", "import", "--id", "resaved",
           testing::SourcePath(absl::StrCat("tests/data/opengotha/resaved/", resaved))});
  ASSERT_EQ(r.exit, 0) << r.err;
  v1::Tournament a, b;
  for (auto [id, t] : {std::pair{"original", &a}, std::pair{"resaved", &b}}) {
    r = Cli({"tournament", "show", id, "--json"});
    ASSERT_EQ(r.exit, 0) << r.err;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, t).ok()) << r.out;
  }
  ASSERT_EQ(b.players_size(), a.players_size());
  for (int i = 0; i < a.players_size(); ++i) {
    EXPECT_EQ(b.players(i).name(), a.players(i).name());  // UTF-8 whatever the file's encoding
    EXPECT_EQ(b.players(i).first_name(), a.players(i).first_name());
  }
  EXPECT_EQ(Games(b), Games(a));
  v1::StandingsReport sa, sb;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("original", &sa));
  ASSERT_NO_FATAL_FAILURE(StandingsJson("resaved", &sb));
  ASSERT_EQ(sb.standings_size(), sa.standings_size());
  for (int i = 0; i < sa.standings_size(); ++i) {
    EXPECT_EQ(sb.standings(i).name(), sa.standings(i).name());
    EXPECT_EQ(sb.standings(i).points(), sa.standings(i).points());
  }
}

INSTANTIATE_TEST_SUITE_P(
    OpenGotha, Resaved,
    ::testing::Values(std::pair{"tournoi_de_juvisy.xml", "tournoi_de_juvisy.windows-1252.xml"},
                      std::pair{"TournoiChinois.xml", "TournoiChinois.gb18030.xml"},
                      std::pair{"TournoiChinois.xml", "TournoiChinois.ascii-refs.xml"},
                      std::pair{"CdFO2020.xml", "CdFO2020.xmllint.xml"}),
    [](const ::testing::TestParamInfo<std::pair<const char*, const char*>>& info) {
      std::string name = info.param.second;  // the resaved file, as a test name
      for (char& c : name) {
        if (!absl::ascii_isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

// A file that declares entities is refused before anything is expanded or
// fetched, with one line naming the declaration, and no tournament is made.
TEST_F(E2E, AnEntityBombIsRefusedAndNothingImported) {
  const std::string laughs = dir_.File("laughs.xml");
  std::string text = "<?xml version=\"1.0\"?>\n<!DOCTYPE Tournament [\n <!ENTITY l0 \"ha\">\n";
  for (int i = 1; i <= 30; ++i) {
    absl::StrAppend(&text, " <!ENTITY l", i, " \"");
    for (int k = 0; k < 10; ++k) absl::StrAppend(&text, "&l", i - 1, ";");
    absl::StrAppend(&text, "\">\n");
  }
  absl::StrAppend(&text,
                  "]>\n<Tournament><Players><Player name=\"&l30;\"/></Players></Tournament>\n");
  testing::WriteFile(laughs, text);
  const std::string external = dir_.File("external.xml");
  testing::WriteFile(external,
                     "<?xml version=\"1.0\"?>\n<!DOCTYPE Tournament [<!ENTITY secret SYSTEM "
                     "\"file:///etc/passwd\">]>\n<Tournament><Players><Player name=\"x\" "
                     "firstName=\"&secret;\"/></Players></Tournament>\n");
  ProcessResult r = Cli({"tournament", "import", "--id", "bomb", laughs});
  EXPECT_NE(r.exit, 0);
  EXPECT_THAT(r.err, HasSubstr("line 3, column"));
  EXPECT_THAT(r.err, HasSubstr("declares the entity \"l0\"; entity declarations are refused"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  r = Cli({"tournament", "import", "--id", "external", external});
  EXPECT_NE(r.exit, 0);
  EXPECT_THAT(r.err, HasSubstr("declares the entity \"secret\""));
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("root:")));  // nothing of /etc/passwd
  for (const char* id : {"bomb", "external"}) {
    r = Cli({"tournament", "show", id});
    EXPECT_NE(r.exit, 0) << id << " was created";
  }
}

// TournoiChinois.xml was refused before ("P24 is on board 3 of their team
// but P12 on board 4"): OpenGotha's importer compares no boards. Its round
// 1 holds a game between two players of team Chine (李凡 v 赵敏: it counts
// for them and for no match) and a RESULT_BOTHWIN (仇志梅 v 方丽: a win
// each, kept as entered).
TEST_F(E2E, OpenGothasTeamSampleImportsAsOpenGothaReadsIt) {
  ProcessResult r = Cli({"tournament", "import", "--id", "chinois",
                         testing::SourcePath("tests/data/opengotha/TournoiChinois.xml"), "--json"});
  ASSERT_EQ(r.exit, 0) << r.err;
  v1::Tournament t;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &t).ok()) << r.out;
  EXPECT_TRUE(t.settings().teams());
  EXPECT_EQ(t.players_size(), 24);
  ASSERT_EQ(t.teams_size(), 2);
  ASSERT_EQ(t.rounds_size(), 1);
  ASSERT_EQ(t.rounds(0).pairings_size(), 12);
  EXPECT_EQ(t.rounds(0).pairings(3).entered_outcome(), v1::Result::BOTH_WIN);
  v1::StandingsReport report;
  ASSERT_NO_FATAL_FAILURE(StandingsJson("chinois", &report));
  // France (马超 v Vannier Remi on board 1: White won; Vannier Luc v 高传德 on
  // board 2: White won) and Chine meet on two boards, one won each: 1-1 in
  // board points... the team-mates' game (李凡 won) counts for neither.
  int total = 0;
  for (const v1::Standing& s : report.standings()) total += s.board_points();
  EXPECT_EQ(total, 4) << "two games between the teams, 2 points each; the team-mates' game none";
  bool both_win_counted = false;
  for (const v1::Standing& s : report.player_standings()) {
    if (s.name().find("仇") != std::string::npos) both_win_counted = s.points() == 2;
  }
  EXPECT_TRUE(both_win_counted);
}

}  // namespace
}  // namespace arbiter
