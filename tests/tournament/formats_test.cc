// EGD .h9, AGA, CSV and the reasons sidecar for one small Swiss event,
// checked against files written out by hand.
//
// Four players, two rounds, komi 3¾ stones (7.5 points):
//   R1: Li (B) beats Wang on the count (G1); Chen (B) loses to Zhou by
//       lateness, a forfeit (G2, ruling 3).
//   R2: Li (B) and Chen draw by the arbiter's decision (G3, ruling 5);
//       Wang (B) and Zhou both lose for cheating (G4, ruling 2), Zhou warned.
// Points: Li 3, Wang 0, Chen 1, Zhou 2. Opponents: Li 0+1 = 1, Wang 3+2 = 5,
// Chen 2+3 = 5, Zhou 1+0 = 1. Total (R = 2): Li 3 + 1/2 − 2 = 1.5,
// Chen 1 + 5/2 − 2 = 1.5, Wang 0 + 5/2 − 2 = 0.5, Zhou 2 + 1/2 − 2 = 0.5.
// Li and Chen share 1st; Wang 3rd, Zhou 4th on B (one warning).
#include "adjudicator/tournament/formats.h"

#include "adjudicator/tournament/sidecar.h"
#include "adjudicator/tournament/standings.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/tournament/builders.h"

namespace arbiter::tournament {
namespace {

using ::testing::HasSubstr;
using testing::Decided;

class Formats : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::TournamentBuilder b(v1::TournamentSettings::SWISS);
    b.settings()->set_komi(3.75);
    b.settings()->set_location("CN, Beijing");
    b.settings()->set_begin_date("2026-11-28");
    b.settings()->set_end_date("2026-11-29");
    b.Player("LI").Player("WANG").Player("CHEN").Player("ZHOU");
    b.Round(1, {{"LI", "WANG", "G1"}, {"CHEN", "ZHOU", "G2"}});
    b.Round(2, {{"LI", "CHEN", "G3"}, {"WANG", "ZHOU", "G4"}});
    t_ = b.Build();
    auto set = [&](int i, const char* name, const char* first, const char* rank) {
      v1::TournamentPlayer* p = t_.mutable_players(i);
      p->set_name(name);
      p->set_first_name(first);
      p->set_rank(rank);
      p->set_country("CN");
      p->set_club("Bj");
    };
    set(0, "Li", "Wei", "5D");
    set(1, "Wang", "Ming", "4D");
    set(2, "Chen", "Jie", "3D");
    set(3, "Zhou", "Lin", "3D");
    t_.mutable_players(0)->set_egf_pin("12345678");
    t_.mutable_players(0)->set_aga_id("20001");
    games_["G1"] = Decided(v1::Result::BLACK_WINS, v1::Result::COUNT);
    games_["G2"] = Ruled(v1::Result::WHITE_WINS, v1::Result::LATENESS, "cn-2002/22.2", 3);
    games_["G3"] = Ruled(v1::Result::DRAW, v1::Result::ARBITER, "cn-2002/20.3", 5);
    games_["G4"] = Ruled(v1::Result::BOTH_LOSE, v1::Result::DISCIPLINE, "cn-2002/23.1", 2);
    games_["G4"].warnings_white = 1;
    report_ = ComputeStandings(t_, games_);
  }

  static GameFacts Ruled(v1::Result::Outcome o, v1::Result::Reason reason, const char* clause, uint32_t ruling) {
    GameFacts f = Decided(o, reason);
    f.result->set_clause(clause);
    f.result->set_ruling(ruling);
    f.deciding_ruling.emplace();
    f.deciding_ruling->set_number(ruling);
    f.deciding_ruling->set_clause(clause);
    f.deciding_ruling->set_text_en(std::string("text of ") + clause);
    return f;
  }

  v1::Tournament t_;
  GameFactsMap games_;
  v1::StandingsReport report_;
};

TEST_F(Formats, EgdH9) {
  // Places: Chen 1, Li 2 (level on total score and warnings: listed by id),
  // Wang 3, Zhou 4. Lateness forfeits carry "!".
  EXPECT_EQ(ExportEgdH9(t_, report_),
            "; EV[Test Cup]\n"
            "; PC[CN, Beijing]\n"
            "; DT[2026-11-28,2026-11-29]\n"
            "; HA[h9]\n"
            "; KM[7.5]\n"
            "; CM[standings per art. 27 of the cn-2002 rules: Pts = 2 a win, 1 a draw; reasons are in the sidecar]\n"
            ";\n"
            "; Pl Name Rk Co Club Pts TS B\n"
            "1 Chen Jie 3d CN Bj 1 1.50 0 4-/b0! 2=/w0\n"
            "2 Li Wei 5d CN Bj 3 1.50 0 3+/b0 1=/b0 |12345678\n"
            "3 Wang Ming 4d CN Bj 0 0.50 0 2-/w0 4-/b0\n"
            "4 Zhou Lin 3d CN Bj 2 0.50 1 1+/w0! 3-/w0\n");
}

TEST_F(Formats, Aga) {
  EXPECT_EQ(ExportAga(t_, report_),
            "# Test Cup: exported by arbiter. AGA results carry wins over the board only;\n"
            "# draws, both-lose, no result, forfeits and voided games are comments here and in the sidecar.\n"
            "TOURNEY Test Cup, CN, Beijing\n"
            "     start=2026-11-28\n"
            "     finish=2026-11-29\n"
            "     rules=cn-2002\n"
            "PLAYERS\n"
            "20001 Li, Wei 5d\n"
            "TMP1 Wang, Ming 4d\n"
            "TMP2 Chen, Jie 3d\n"
            "TMP3 Zhou, Lin 3d\n"
            "GAMES\n"
            "TMP1 20001 b 0 7.5\n"
            "# round 1 board 2: TMP3 (W) TMP2 (B) WHITE_WINS by default: not an AGA result, see the sidecar\n"
            "# round 2 board 1: TMP2 (W) 20001 (B) DRAW: not an AGA result, see the sidecar\n"
            "# round 2 board 2: TMP3 (W) TMP1 (B) BOTH_LOSE: not an AGA result, see the sidecar\n");
}

TEST_F(Formats, Csv) {
  // A is reported for Swiss too: Li beat Wang (0) and drew Chen (1): 0.5;
  // Chen drew Li (3): 1.5; Zhou beat Chen (1): 1.
  EXPECT_EQ(ExportCsv(t_, report_),
            "rank,id,name,points,tie_break_a,opponents_points,total_score,warnings,wins,draws,losses,withdrawn,"
            "decided_by,round_1,round_2\r\n"
            "1,CHEN,Chen Jie,1,1.50,5,1.50,0,0,1,1,no,,ZHOU -/b0!,LI =/w0\r\n"
            "1,LI,Li Wei,3,0.50,1,1.50,0,1,1,0,no,,WANG +/b0,CHEN =/b0\r\n"
            "3,WANG,Wang Ming,0,0.00,5,0.50,0,0,0,2,no,,LI -/w0,ZHOU -/b0\r\n"
            "4,ZHOU,Zhou Lin,2,1.00,1,0.50,1,1,0,1,no,B,CHEN +/w0!,WANG -/w0\r\n");
}

TEST_F(Formats, SidecarKeysReasonsByRulingId) {
  v1::ExportSidecar s = BuildSidecar(t_, report_, games_, v1::ExportTournamentRequest::OPENGOTHA_XML);
  ASSERT_EQ(s.entries_size(), 4);
  const v1::SidecarEntry& forfeit = s.entries().at("games/G2/rulings/3");
  EXPECT_EQ(forfeit.reason(), v1::Result::LATENESS);
  EXPECT_EQ(forfeit.clause(), "cn-2002/22.2");
  EXPECT_EQ(forfeit.text_en(), "text of cn-2002/22.2");
  EXPECT_EQ(forfeit.exported_as(), "RESULT_WHITEWINS_BYDEF");
  EXPECT_EQ(s.entries().at("games/G4/rulings/2").exported_as(), "RESULT_BOTHLOSE");
  EXPECT_EQ(s.entries().at("games/G4/rulings/2").reason(), v1::Result::DISCIPLINE);
  EXPECT_EQ(s.entries().at("games/G1/result").reason(), v1::Result::COUNT);  // no ruling decided it
  EXPECT_EQ(s.entries().at("games/G3/rulings/5").round(), 2);

  v1::ExportSidecar aga = BuildSidecar(t_, report_, games_, v1::ExportTournamentRequest::AGA);
  EXPECT_EQ(aga.entries().at("games/G3/rulings/5").exported_as(), "omitted");
  EXPECT_EQ(aga.entries().at("games/G1/result").exported_as(), "b");
  // The JSON is an object keyed by ruling id.
  const std::string json = SidecarJson(s);
  EXPECT_THAT(json, HasSubstr("\"games/G2/rulings/3\": {"));
  v1::ExportSidecar back;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json, &back).ok());
  EXPECT_EQ(back.entries_size(), 4);
}

TEST_F(Formats, WithdrawalForfeitsAndVoidsGoToTheSidecar) {
  // Round robin of four, P4 withdraws after one game: all void (28.2).
  testing::TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  b.Player("P1").Player("P2").Player("P3").Player("P4");
  b.Round(1, {{"P1", "P2", "G1"}, {"P3", "P4", "G2"}});
  b.Withdraw("P4", 1);
  v1::Tournament t = b.Build();
  GameFactsMap games = {{"G1", Decided(v1::Result::BLACK_WINS)}, {"G2", Decided(v1::Result::WHITE_WINS)}};
  v1::StandingsReport r = ComputeStandings(t, games);
  v1::ExportSidecar s = BuildSidecar(t, r, games, v1::ExportTournamentRequest::EGD_H9);
  const v1::SidecarEntry& e = s.entries().at("tournaments/T/withdrawals/P4/round/1/board/2");
  EXPECT_THAT(e.note(), HasSubstr("art. 28.2"));
  EXPECT_EQ(e.exported_as(), "black 0-, white 0-");
  EXPECT_THAT(ExportEgdH9(t, r), HasSubstr(" 0-\n"));
}

}  // namespace
}  // namespace arbiter::tournament
