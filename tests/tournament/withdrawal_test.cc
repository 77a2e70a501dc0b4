// Art. 28 withdrawals, each case computed by hand.
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/export_formats.h"
#include "adjudicator/tournament/fold.h"
#include "adjudicator/tournament/formats.h"
#include "adjudicator/tournament/opengotha.h"
#include "adjudicator/tournament/scoring.h"
#include "adjudicator/tournament/sidecar.h"
#include "adjudicator/tournament/standings.h"
#include "adjudicator/tournament/withdrawals.h"
#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/tournament/builders.h"

namespace arbiter::tournament {
namespace {

using testing::Decided;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::kBlack;
using testing::kDraw;
using testing::kWhite;
using testing::Order;
using testing::Row;
using testing::TournamentBuilder;

// Four players, three rounds (half of them is 1.5):
// R1: P1-P2 (G1), P3-P4 (G2).  R2: P1-P3 (G3), P2-P4 (G4).  R3: P1-P4 (G5), P2-P3 (G6).
TournamentBuilder FourPlayerRoundRobin(int paired_rounds) {
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  b.Player("P1").Player("P2").Player("P3").Player("P4");
  b.Round(1, {{"P1", "P2", "G1"}, {"P3", "P4", "G2"}});
  if (paired_rounds >= 2) b.Round(2, {{"P1", "P3", "G3"}, {"P2", "P4", "G4"}});
  if (paired_rounds >= 3) b.Round(3, {{"P1", "P4", "G5"}, {"P2", "P3", "G6"}});
  return b;
}

const v1::ScoredPairing* Find(const v1::StandingsReport& r, const std::string& game) {
  for (const v1::ScoredPairing& p : r.pairings()) {
    if (p.game_id() == game) return &p;
  }
  return nullptr;
}

TEST(RoundRobinWithdrawal, FewerThanHalfPlayedVoidsEverything) {
  // P4 played one game (G2, beat P3) and withdrew after round 1: 1 < 3/2,
  // so G2 is void for both; G4 and G5 (never played) are void too.
  // P1 beat P2 (G1) and P3 (G3); P2 drew P3 (G6).
  // Points: P1 4; P2 1; P3 1 (G2's loss is void anyway); P4 unranked.
  // P2 and P3: A = half of each other's 1 = 0.5; no warnings: shared 2nd.
  TournamentBuilder b = FourPlayerRoundRobin(3);
  b.Withdraw("P4", 1);
  GameFactsMap games = {{"G1", Decided(kBlack)},
                        {"G2", Decided(kWhite)},
                        {"G3", Decided(kBlack)},
                        {"G6", Decided(kDraw)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  EXPECT_EQ(Find(r, "G2")->status(), v1::ScoredPairing::VOID);
  EXPECT_THAT(Find(r, "G2")->note(), HasSubstr("cn-2002/28.2"));
  EXPECT_EQ(Find(r, "G4")->status(), v1::ScoredPairing::VOID);
  EXPECT_EQ(Find(r, "G5")->status(), v1::ScoredPairing::VOID);
  EXPECT_THAT(Order(r.standings()), ElementsAre("P1", "P2", "P3", "P4"));
  EXPECT_EQ(Row(r.standings(), "P1").points(), 4);
  EXPECT_EQ(Row(r.standings(), "P3").points(), 1);
  EXPECT_EQ(Row(r.standings(), "P2").rank(), 2);
  EXPECT_EQ(Row(r.standings(), "P3").rank(), 2);
  EXPECT_EQ(Row(r.standings(), "P4").rank(), 0);  // unranked: every result void
  EXPECT_TRUE(Row(r.standings(), "P4").withdrawn());
  EXPECT_EQ(Row(r.standings(), "P4").points(), 0);
}

TEST(RoundRobinWithdrawal, HalfPlayedStandsAndTheRestIsForfeited) {
  // P4 played G2 (beat P3) and G4 (lost to P2) and withdrew after round 2:
  // 2 >= 3/2, so both stand; G5 (P1-P4, round 3, no result) is lost by P4
  // by default: P1, Black, wins.
  // Points: P1 2+2+2 = 6; P2 0+2+1 = 3; P3 0+0+1 = 1; P4 2+0+0 = 2.
  TournamentBuilder b = FourPlayerRoundRobin(3);
  b.Withdraw("P4", 2);
  GameFactsMap games = {{"G1", Decided(kBlack)},
                        {"G2", Decided(kWhite)},
                        {"G3", Decided(kBlack)},
                        {"G4", Decided(kBlack)},
                        {"G6", Decided(kDraw)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  const v1::ScoredPairing* g5 = Find(r, "G5");
  EXPECT_EQ(g5->status(), v1::ScoredPairing::FORFEIT);
  EXPECT_EQ(g5->outcome(), v1::Result::BLACK_WINS);
  EXPECT_TRUE(g5->by_default());
  EXPECT_EQ(g5->clause(), "cn-2002/28.2");
  EXPECT_EQ(Find(r, "G2")->status(), v1::ScoredPairing::DECIDED);
  EXPECT_THAT(Order(r.standings()), ElementsAre("P1", "P2", "P4", "P3"));
  EXPECT_EQ(Row(r.standings(), "P1").points(), 6);
  EXPECT_EQ(Row(r.standings(), "P2").points(), 3);
  EXPECT_EQ(Row(r.standings(), "P4").points(), 2);
  EXPECT_EQ(Row(r.standings(), "P3").points(), 1);
  EXPECT_EQ(Row(r.standings(), "P4").rank(), 3);
}

TEST(RoundRobinWithdrawal, GamesNeverPairedAreForfeitedToo) {
  // Only rounds 1-2 are paired when P4 withdraws after round 2 (2 of 3
  // played, so the rest is forfeited): the P1-P4 game that was never paired
  // appears with round 0, P1 winning by default.
  TournamentBuilder b = FourPlayerRoundRobin(2);
  b.Withdraw("P4", 2);
  GameFactsMap games = {{"G1", Decided(kBlack)},
                        {"G2", Decided(kWhite)},
                        {"G3", Decided(kBlack)},
                        {"G4", Decided(kBlack)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  ASSERT_EQ(r.pairings_size(), 5);
  const v1::ScoredPairing& owed = r.pairings(4);
  EXPECT_EQ(owed.round(), 0);
  EXPECT_EQ(owed.black(), "P4");
  EXPECT_EQ(owed.white(), "P1");
  EXPECT_EQ(owed.outcome(), v1::Result::WHITE_WINS);
  EXPECT_EQ(owed.status(), v1::ScoredPairing::FORFEIT);
  EXPECT_EQ(Row(r.standings(), "P1").points(), 6);  // G1, G3 and the forfeit
}

TEST(RoundRobinWithdrawal, ForfeitBetweenTwoWithdrawnPlayersIsLostByBoth) {
  // P3 and P4 both withdraw after round 2, each having played 2 of 3.
  // Round 3: P1-P4 (P1 wins by default), P2-P3 (P2 wins by default).
  TournamentBuilder b = FourPlayerRoundRobin(3);
  b.Withdraw("P3", 2).Withdraw("P4", 2);
  GameFactsMap games = {{"G1", Decided(kBlack)},
                        {"G2", Decided(kWhite)},
                        {"G3", Decided(kBlack)},
                        {"G4", Decided(kBlack)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  EXPECT_EQ(Find(r, "G5")->outcome(), v1::Result::BLACK_WINS);
  EXPECT_EQ(Find(r, "G6")->outcome(), v1::Result::BLACK_WINS);
  EXPECT_EQ(r.pairings_size(), 6);  // nothing owed between P3 and P4: they met in G2
}

// Three players, a bye each round, bye worth 1 (the probe's F2 in small):
// R1: P1-P2 (G1), bye P3.  R2: P1-P3 (G2), bye P2.  R3: P2-P3 (G3), bye P1.
// P1 beats P2 and P3, then withdraws after round 2 (2 of 3 played: the
// results stand). The round-3 bye was drawn before the withdrawal.
TournamentBuilder ByeAfterWithdrawal(const std::string& rules) {
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  b.StandingsRules(rules);
  b.settings()->set_bye_points(1);
  b.Player("P1").Player("P2").Player("P3");
  b.Round(1, {{"P1", "P2", "G1"}}, {"P3"});
  b.Round(2, {{"P1", "P3", "G2"}}, {"P2"});
  b.Round(3, {{"P2", "P3", "G3"}}, {"P1"});
  b.Withdraw("P1", 2);
  return b;
}

// Built, with the given name OpenGotha requires (keys P1LI, P2LI, P3LI).
v1::Tournament WithGivenNames(const TournamentBuilder& b) {
  v1::Tournament t = b.Build();
  for (v1::TournamentPlayer& p : *t.mutable_players()) p.set_first_name("Li");
  return t;
}

const GameFactsMap kByeGames = {
    {"G1", Decided(kBlack)}, {"G2", Decided(kBlack)}, {"G3", Decided(kDraw)}};

TEST(RoundRobinWithdrawal, NoByeAfterTheWithdrawalFromTournament2026_3) {
  // P1: two wins, 4; the round-3 bye is after the withdrawal, worth nothing.
  // P2: bye 1 + draw 1 = 2; P3: bye 1 + draw 1 = 2.
  const v1::Tournament t = WithGivenNames(ByeAfterWithdrawal("tournament-2026.3"));
  const v1::StandingsReport r = ComputeStandings(t, kByeGames);
  EXPECT_EQ(Row(r.standings(), "P1").points(), 4);
  EXPECT_EQ(Row(r.standings(), "P2").points(), 2);
  EXPECT_EQ(Row(r.standings(), "P3").points(), 2);
  EXPECT_FALSE(ByeCredited(t, "P1", 3));
  EXPECT_TRUE(ByeCredited(t, "P2", 2));

  // The exports say the same: no <ByePlayer> for P1 in round 3, and
  // `participating` 0 in every round after round 2; the .h9 has P1 sit
  // round 3 out (0-), the CSV no bye.
  absl::StatusOr<std::string> xml = ExportOpenGotha(t, r);
  ASSERT_TRUE(xml.ok()) << xml.status();
  EXPECT_THAT(*xml, ::testing::Not(HasSubstr("player=\"P1LI\" roundNumber=\"3\"")));
  EXPECT_THAT(*xml, HasSubstr("<ByePlayer player=\"P2LI\" roundNumber=\"2\"/>"));
  EXPECT_THAT(*xml, HasSubstr(absl::StrCat("participating=\"11", std::string(18, '0'), "\"")));
  // P1's row ends with round 3 empty, as a round after a withdrawal is.
  EXPECT_THAT(ExportCsv(t, r), HasSubstr("P3 +/b0,\r\n"));
}

TEST(RoundRobinWithdrawal, Tournament2026_2StillCreditsTheByeAsRecorded) {
  // Pinned before 2026.3, the bye after the withdrawal counts as it did, so
  // the standings recorded under that version derive again.
  const v1::Tournament t = WithGivenNames(ByeAfterWithdrawal("tournament-2026.2"));
  const v1::StandingsReport r = ComputeStandings(t, kByeGames);
  EXPECT_EQ(Row(r.standings(), "P1").points(), 5);
  EXPECT_TRUE(ByeCredited(t, "P1", 3));
  absl::StatusOr<std::string> xml = ExportOpenGotha(t, r);
  ASSERT_TRUE(xml.ok()) << xml.status();
  EXPECT_THAT(*xml, HasSubstr("<ByePlayer player=\"P1LI\" roundNumber=\"3\"/>"));
  EXPECT_THAT(ExportCsv(t, r), HasSubstr("P3 +/b0,bye\r\n"));
}

// The JSON export read as any JSON reader reads it (google.protobuf.Struct:
// no schema), field names as the proto3 JSON mapping writes them.
google::protobuf::Struct JsonExportOf(const v1::Tournament& t, const v1::StandingsReport& r) {
  const TournamentExportFormat* json = FindTournamentExport(v1::ExportTournamentRequest::JSON);
  absl::StatusOr<std::string> text = json->write(t, r, {});
  EXPECT_TRUE(text.ok()) << text.status();
  google::protobuf::Struct doc;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(text.value_or("{}"), &doc).ok()) << *text;
  return doc;
}

double NumberOr0(const google::protobuf::Struct& s, const std::string& key) {
  auto it = s.fields().find(key);
  return it == s.fields().end() ? 0 : it->second.number_value();
}

// What a reader of the JSON needs to reconcile its standings: each
// player's points are their pairings' points plus their byes' (proto3 JSON
// leaves a 0 out). Fails naming the player whose do not add up.
void ExpectPointsReconcile(const google::protobuf::Struct& doc) {
  std::map<std::string, double> sum;
  for (const auto& p : doc.fields().at("pairings").list_value().values()) {
    const auto& f = p.struct_value();
    sum[f.fields().at("black").string_value()] += NumberOr0(f, "blackPoints");
    sum[f.fields().at("white").string_value()] += NumberOr0(f, "whitePoints");
  }
  if (doc.fields().contains("byes")) {
    for (const auto& b : doc.fields().at("byes").list_value().values()) {
      sum[b.struct_value().fields().at("player").string_value()] +=
          NumberOr0(b.struct_value(), "points");
    }
  }
  for (const auto& st : doc.fields().at("standings").list_value().values()) {
    const std::string id = st.struct_value().fields().at("id").string_value();
    EXPECT_EQ(sum[id], NumberOr0(st.struct_value(), "points")) << "player " << id;
  }
}

// Review item 1: the JSON lists each round's bye (player, points credited),
// and a bye credited nothing (after the withdrawal, tournament-2026.3) says
// so, so a reader's sums come to the standings' points.
TEST(RoundRobinWithdrawal, TheJsonListsEachByeAndWhatItIsCredited) {
  const v1::Tournament t = WithGivenNames(ByeAfterWithdrawal("tournament-2026.3"));
  const v1::StandingsReport r = ComputeStandings(t, kByeGames);
  const google::protobuf::Struct doc = JsonExportOf(t, r);
  ASSERT_TRUE(doc.fields().contains("byes"));
  const auto& byes = doc.fields().at("byes").list_value().values();
  ASSERT_EQ(byes.size(), 3);
  const auto field = [&](int i, const std::string& key) -> const google::protobuf::Value& {
    static const google::protobuf::Value kNone;
    auto it = byes[i].struct_value().fields().find(key);
    return it == byes[i].struct_value().fields().end() ? kNone : it->second;
  };
  EXPECT_EQ(field(0, "round").number_value(), 1);
  EXPECT_EQ(field(0, "player").string_value(), "P3");
  EXPECT_EQ(field(0, "points").number_value(), 1);
  EXPECT_FALSE(byes[0].struct_value().fields().contains("notCredited"));
  EXPECT_EQ(field(1, "round").number_value(), 2);
  EXPECT_EQ(field(1, "player").string_value(), "P2");
  EXPECT_EQ(field(1, "points").number_value(), 1);
  EXPECT_EQ(field(2, "round").number_value(), 3);
  EXPECT_EQ(field(2, "player").string_value(), "P1");
  EXPECT_FALSE(byes[2].struct_value().fields().contains("points")) << "0: credited nothing";
  EXPECT_THAT(field(2, "notCredited").string_value(),
              HasSubstr("withdrew after round 2: a bye after the withdrawal is worth nothing "
                        "(standings rules tournament-2026.3; 2002 art. 28"));
  ExpectPointsReconcile(doc);

  // The sidecar has an entry for each bye, saying how the format wrote it.
  const v1::ExportSidecar egd = BuildSidecar(t, r, kByeGames, v1::ExportTournamentRequest::EGD_H9);
  ASSERT_TRUE(egd.entries().contains("tournaments/T/round/3/bye/P1")) << SidecarJson(egd);
  const v1::SidecarEntry& p1 = egd.entries().at("tournaments/T/round/3/bye/P1");
  EXPECT_EQ(p1.bye(), "P1");
  EXPECT_EQ(p1.round(), 3);
  EXPECT_EQ(p1.exported_as(), "0- (a free round)");
  EXPECT_THAT(p1.note(), HasSubstr("a bye credited nothing: withdrew after round 2"));
  EXPECT_EQ(egd.entries().at("tournaments/T/round/1/bye/P3").exported_as(), "0=");
  const v1::ExportSidecar json = BuildSidecar(t, r, kByeGames, v1::ExportTournamentRequest::JSON);
  EXPECT_EQ(json.entries().at("tournaments/T/round/2/bye/P2").exported_as(), "as in the report");
}

TEST(RoundRobinWithdrawal, TheJsonCreditsTheByeAfterTheWithdrawalUnder2026_2) {
  const v1::Tournament t = WithGivenNames(ByeAfterWithdrawal("tournament-2026.2"));
  const google::protobuf::Struct doc = JsonExportOf(t, ComputeStandings(t, kByeGames));
  const auto& byes = doc.fields().at("byes").list_value().values();
  ASSERT_EQ(byes.size(), 3);
  EXPECT_EQ(byes[2].struct_value().fields().at("player").string_value(), "P1");
  EXPECT_EQ(byes[2].struct_value().fields().at("points").number_value(), 1);
  EXPECT_FALSE(byes[2].struct_value().fields().contains("notCredited"));
  ExpectPointsReconcile(doc);
}

TEST(SwissWithdrawal, ResultsStandAndNoMorePairings) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.Player("A").Player("B").Player("C").Player("D");
  b.Round(1, {{"A", "B", "G1"}, {"C", "D", "G2"}});
  b.Withdraw("D", 1);
  GameFactsMap games = {{"G1", Decided(kBlack)}, {"G2", Decided(kWhite)}};
  // 28.3: D's win stands.
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  EXPECT_EQ(Row(r.standings(), "D").points(), 2);
  EXPECT_TRUE(Row(r.standings(), "D").withdrawn());
  EXPECT_NE(Row(r.standings(), "D").rank(), 0);
  // and D cannot be paired again.
  b.Round(2, {{"A", "D", "G3"}, {"B", "C", "G4"}});
  absl::StatusOr<v1::Tournament> t = Fold(b.events());
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(t.status().message(), HasSubstr("art. 28.3"));
}

TEST(TeamWithdrawal, UnplayedBoardsAreLostByDefault) {
  // Teams X and Y, two boards, two rounds. X2 withdraws after round 1:
  // round 2's X2-Y2 (no result) goes to Y2 by default; round 1 stands.
  // R1: X1 beats Y1, X2 beats Y2: X 4-0.  R2: X1 beats Y1, Y2 wins by default: 2-2.
  // Match points: X 2+1 = 3, Y 0+1 = 1. Board points: X 4+2 = 6, Y 0+2 = 2.
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN, true);
  b.Team("X").Player("X1", "X", 1).Player("X2", "X", 2);
  b.Team("Y").Player("Y1", "Y", 1).Player("Y2", "Y", 2);
  b.Round(1, {{"X1", "Y1", "G1"}, {"X2", "Y2", "G2"}});
  b.Round(2, {{"Y1", "X1", "G3"}, {"Y2", "X2", "G4"}});
  b.Withdraw("X2", 1);
  GameFactsMap games = {{"G1", Decided(kBlack)}, {"G2", Decided(kBlack)}, {"G3", Decided(kWhite)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  const v1::ScoredPairing* g4 = Find(r, "G4");
  EXPECT_EQ(g4->status(), v1::ScoredPairing::FORFEIT);
  EXPECT_EQ(g4->outcome(), v1::Result::BLACK_WINS);  // Y2 had Black
  EXPECT_THAT(g4->note(), HasSubstr("cn-2002/28.4"));
  EXPECT_EQ(Row(r.standings(), "X").points(), 3);
  EXPECT_EQ(Row(r.standings(), "Y").points(), 1);
  EXPECT_EQ(Row(r.standings(), "X").board_points(), 6);
  EXPECT_EQ(Row(r.standings(), "Y").board_points(), 2);
}

// Teams X and Y, two boards, three rounds; X2 withdraws after round 0 (before
// any game: "at any round") and Y2 after round 2. R1: X1 beats Y1; X2 v Y2
// unplayed. R2: Y1 beats X1; X2 v Y2 unplayed. R3: X1 draws Y1; X2 v Y2,
// both withdrawn.
//   2002 28.4 ("未赛部分均作弃权处理"): X2's boards are forfeits: R1 Y2 2-0,
//     R2 Y2 2-0, R3 a forfeit by both 0-0. Matches: R1 2-2 drawn, R2 0-4
//     Y, R3 1-1 drawn. X: 1+0+1 = 2 MP, board points 2+0+1 = 3;
//     Y: 1+2+1 = 4 MP, 2+4+1 = 7.
//   1988 29.4 ("未赛部分均作对方胜"): the same, but R3's board 2 counts as the
//     other's win for each side: 2-2, R3 3-3 still drawn. X: 2 MP, board
//     points 3+2 = 5 (board 2: 0+0+2 = 2); Y: 4 MP, 7+2 = 9 (board 2: 2+2+2 = 6).
TEST(TeamWithdrawal, The1988TextCountsTheUnplayedBoardAsTheOpponentsWin) {
  for (const char* ruleset : {"cn-2002", "cn-1988"}) {
    SCOPED_TRACE(ruleset);
    const bool y1988 = std::string(ruleset) == "cn-1988";
    TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN, true);
    b.settings()->set_ruleset(ruleset);
    b.settings()->set_rounds(3);
    b.Team("X").Player("X1", "X", 1).Player("X2", "X", 2);
    b.Team("Y").Player("Y1", "Y", 1).Player("Y2", "Y", 2);
    b.Withdraw("X2", 0);
    b.Round(1, {{"X1", "Y1", "G1"}, {"Y2", "X2", ""}});
    b.Round(2, {{"Y1", "X1", "G2"}, {"X2", "Y2", ""}});
    b.Round(3, {{"X1", "Y1", "G3"}, {"Y2", "X2", ""}});
    b.Withdraw("Y2", 2);
    GameFactsMap games = {{"G1", Decided(kBlack)}, {"G2", Decided(kBlack)}, {"G3", Decided(kDraw)}};
    v1::StandingsReport r = ComputeStandings(b.Build(), games);
    ASSERT_EQ(r.pairings_size(), 6);
    const v1::ScoredPairing& r1 = r.pairings(1);
    EXPECT_EQ(r1.status(), v1::ScoredPairing::FORFEIT);
    EXPECT_EQ(r1.outcome(), v1::Result::BLACK_WINS);  // Y2 had Black
    EXPECT_TRUE(r1.by_default());
    EXPECT_EQ(r1.clause(), y1988 ? "cn-1988/29.4" : "cn-2002/28.4");
    EXPECT_THAT(r1.note(), HasSubstr(y1988 ? "作对方胜" : "作弃权处理"));
    const v1::ScoredPairing& r3 = r.pairings(5);
    EXPECT_EQ(r3.outcome(), y1988 ? v1::Result::BOTH_WIN : v1::Result::BOTH_LOSE);
    EXPECT_EQ(r3.black_points(), y1988 ? 2 : 0);
    EXPECT_EQ(r3.white_points(), y1988 ? 2 : 0);
    EXPECT_EQ(Row(r.standings(), "X").points(), 2);
    EXPECT_EQ(Row(r.standings(), "Y").points(), 4);
    EXPECT_EQ(Row(r.standings(), "X").board_points(), y1988 ? 5 : 3);
    EXPECT_EQ(Row(r.standings(), "Y").board_points(), y1988 ? 9 : 7);
    EXPECT_EQ(Row(r.standings(), "X").board_by_board(1), y1988 ? 2 : 0);
    EXPECT_EQ(Row(r.standings(), "Y").board_by_board(1), y1988 ? 6 : 4);
  }
}

TEST(Fold, BadEventsAreRefusedAndChangeNothing) {
  TournamentBuilder b(v1::TournamentSettings::ROUND_ROBIN);
  b.Player("A").Player("B");
  v1::Tournament t = b.Build();
  const v1::Tournament before = t;
  v1::TournamentEvent e;
  v1::TournamentRound* r = e.mutable_round_paired()->mutable_round();
  r->set_round(1);
  v1::Pairing* p = r->add_pairings();
  p->set_board(1);
  p->set_black("A");
  p->set_white("Z");
  absl::Status s = Apply(e, &t);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("no player 'Z'"));
  EXPECT_EQ(t.SerializeAsString(), before.SerializeAsString());

  p->set_white("A");
  EXPECT_THAT(Apply(e, &t).message(), HasSubstr("cannot meet themselves"));
  p->set_white("B");
  ASSERT_TRUE(Apply(e, &t).ok());
  EXPECT_EQ(Apply(e, &t).code(), absl::StatusCode::kFailedPrecondition);  // round 1 again

  v1::TournamentEvent w;
  w.mutable_player_withdrawn()->set_player("Q");
  EXPECT_THAT(Apply(w, &t).message(), HasSubstr("no player 'Q'"));
  v1::TournamentEvent lots;
  lots.mutable_tie_break_decided()->set_method(v1::TieBreakDecided::LOTS);
  lots.mutable_tie_break_decided()->add_order("A");
  EXPECT_THAT(Apply(lots, &t).message(), HasSubstr("at least two"));
  v1::TournamentEvent first;
  first.mutable_player_added()->mutable_player()->set_id("X");
  v1::Tournament empty;
  EXPECT_THAT(Apply(first, &empty).message(), HasSubstr("first event must be `created`"));
}

}  // namespace
}  // namespace arbiter::tournament

namespace arbiter::tournament {
namespace {

// 1988 art. 29.3 (积分编排制): a withdrawn player's results stand, and for
// the opponents they met "未赛部分应为A(即：积分/已赛局数)*未赛局数。A如大于1，
// 则按1计算": their points count as points + A x unplayed rounds.
// Four players, three rounds planned, two paired; D withdraws after round 2.
// R1: A beats B (G1), C draws D (G2).  R2: A beats D (G3), B beats C (G4).
// Points: A 4, B 2, C 1, D 1. D: 1 point in 2 games, A = 0.5, 1 round
// unplayed: D counts 1 + 0.5 x 1 = 1.5 for A and C.
// Opponents: A = B 2 + D 1.5 = 3.5 (2002: 3); C = D 1.5 + B 2 = 3.5 (3);
// B = A 4 + C 1 = 5; D = C 1 + A 4 = 5.
// Total (R = 2): A 4 + 3.5/2 − 2 = 3.75 (2002: 3.5); B 2 + 5/2 − 2 = 2.5;
// C 1 + 3.5/2 − 2 = 0.75 (2002: 0.5); D 1 + 5/2 − 2 = 1.5.
TournamentBuilder Cn1988Swiss(const std::string& ruleset) {
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.settings()->set_ruleset(ruleset);
  b.settings()->set_rounds(3);
  b.Player("A").Player("B").Player("C").Player("D");
  b.Round(1, {{"A", "B", "G1"}, {"C", "D", "G2"}});
  b.Round(2, {{"A", "D", "G3"}, {"B", "C", "G4"}});
  b.Withdraw("D", 2);
  return b;
}

const GameFactsMap kCn1988Games = {{"G1", Decided(kBlack)},
                                   {"G2", Decided(kDraw)},
                                   {"G3", Decided(kBlack)},
                                   {"G4", Decided(kBlack)}};

TEST(Cn1988SwissWithdrawal, UnplayedRoundsCountForTheOpponents) {
  v1::StandingsReport r = ComputeStandings(Cn1988Swiss("cn-1988").Build(), kCn1988Games);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "A").opponents_score(), 3.5);
  EXPECT_EQ(Row(r.standings(), "A").opponents_points(), 3);  // the points as played
  EXPECT_DOUBLE_EQ(Row(r.standings(), "C").opponents_score(), 3.5);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "B").opponents_score(), 5.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "A").total_score(), 3.75);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "C").total_score(), 0.75);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "D").total_score(), 1.5);
  EXPECT_EQ(Row(r.standings(), "D").points(), 1);  // D's own results stand
  EXPECT_THAT(Order(r.standings()), ElementsAre("A", "B", "D", "C"));
}

TEST(Cn1988SwissWithdrawal, Cn2002DoesNotExtend) {
  v1::StandingsReport r = ComputeStandings(Cn1988Swiss("cn-2002").Build(), kCn1988Games);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "A").opponents_score(), 3.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "A").total_score(), 3.5);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "C").total_score(), 0.5);
}

TEST(Cn1988SwissWithdrawal, ACapsAtOneAndRanksFollowIt) {
  // Points then opponents' points (2.B). D wins both games before leaving
  // after round 2 of 4: 4 points in 2 games, A = 2 capped to 1, 2 rounds
  // unplayed: D counts 4 + 1 x 2 = 6 for C and B.
  // R1: D beats C (G1, D Black), A beats B (G2).  R2: D beats B (G3), A beats C (G4).
  // Points: A 4, D 4, B 0, C 0. Opponents: B = A 4 + D 6 = 10, C = D 6 + A 4 = 10.
  // A = B 0 + C 0 = 0; D = C 0 + B 0 = 0. Level on points: A and D share;
  // B and C share on 10 (2002: 8 each, shared too).
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.settings()->set_ruleset("cn-1988");
  b.settings()->set_rounds(4);
  b.settings()->set_swiss_method(v1::TournamentSettings::POINTS_THEN_OPPONENTS);
  b.Player("A").Player("B").Player("C").Player("D");
  b.Round(1, {{"D", "C", "G1"}, {"A", "B", "G2"}});
  b.Round(2, {{"D", "B", "G3"}, {"A", "C", "G4"}});
  b.Withdraw("D", 2);
  GameFactsMap games = {{"G1", Decided(kBlack)},
                        {"G2", Decided(kBlack)},
                        {"G3", Decided(kBlack)},
                        {"G4", Decided(kBlack)}};
  v1::StandingsReport r = ComputeStandings(b.Build(), games);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "B").opponents_score(), 10.0);
  EXPECT_DOUBLE_EQ(Row(r.standings(), "C").opponents_score(), 10.0);
  EXPECT_EQ(Row(r.standings(), "B").rank(), 3);
  EXPECT_EQ(Row(r.standings(), "C").rank(), 3);
}

// 2002 art. 23.2 as the games record it (withdrawals.h): a `withdrew` in a
// game is the player leaving the competition in that round, unless a later
// game of theirs has a result.
GameFacts WithdrewInGame(v1::Color color) {
  // The engine's 23.2 ruling: the withdrawing colour loses.
  GameFacts f = Decided(color == v1::BLACK ? kWhite : kBlack, v1::Result::DISCIPLINE);
  (color == v1::BLACK ? f.withdrew_black : f.withdrew_white) = true;
  return f;
}

TEST(GameWithdrawal, AfterHalfTheRoundsTheLossStandsAndTheRestIsForfeited) {
  // P4 (White in G4, round 2) withdraws during G4: 23.2, P2 wins G4. P4 has
  // played G2 (beat P3) and G4: 2 >= 3/2, so 28.2 keeps both and forfeits
  // G5 (P1-P4, round 3) to P1. Same figures as the director's withdrawal
  // after round 2 above: P1 6, P2 3, P4 2, P3 1.
  TournamentBuilder b = FourPlayerRoundRobin(3);
  GameFactsMap games = {{"G1", Decided(kBlack)},
                        {"G2", Decided(kWhite)},
                        {"G3", Decided(kBlack)},
                        {"G4", WithdrewInGame(v1::WHITE)},
                        {"G6", Decided(kDraw)}};
  const v1::Tournament seen = WithWithdrawalsFromGames(b.Build(), games);
  ASSERT_EQ(seen.withdrawals_size(), 1);
  EXPECT_EQ(seen.withdrawals(0).player(), "P4");
  EXPECT_EQ(seen.withdrawals(0).after_round(), 2);
  EXPECT_THAT(seen.withdrawals(0).note(), HasSubstr("G4"));
  v1::StandingsReport r = ComputeStandings(seen, games);
  EXPECT_EQ(Find(r, "G4")->status(), v1::ScoredPairing::DECIDED);
  EXPECT_EQ(Find(r, "G4")->outcome(), v1::Result::BLACK_WINS);
  EXPECT_EQ(Find(r, "G5")->status(), v1::ScoredPairing::FORFEIT);
  EXPECT_EQ(Find(r, "G5")->outcome(), v1::Result::BLACK_WINS);
  EXPECT_TRUE(Row(r.standings(), "P4").withdrawn());
  EXPECT_THAT(Order(r.standings()), ElementsAre("P1", "P2", "P4", "P3"));
  EXPECT_EQ(Row(r.standings(), "P1").points(), 6);
  EXPECT_EQ(Row(r.standings(), "P4").points(), 2);
}

TEST(GameWithdrawal, BeforeHalfTheRoundsEverythingIsVoidTheLossToo) {
  // P4 (White in G2, round 1) withdraws during G2: 1 < 3/2 played, so 28.2
  // voids all of P4's results, the 23.2 loss of G2 with them.
  TournamentBuilder b = FourPlayerRoundRobin(3);
  GameFactsMap games = {{"G1", Decided(kBlack)},
                        {"G2", WithdrewInGame(v1::WHITE)},
                        {"G3", Decided(kBlack)},
                        {"G6", Decided(kDraw)}};
  v1::StandingsReport r = ComputeStandings(WithWithdrawalsFromGames(b.Build(), games), games);
  EXPECT_EQ(Find(r, "G2")->status(), v1::ScoredPairing::VOID);
  EXPECT_EQ(Find(r, "G4")->status(), v1::ScoredPairing::VOID);
  EXPECT_EQ(Row(r.standings(), "P3").points(), 1);  // G2's win by 23.2 is void
  EXPECT_EQ(Row(r.standings(), "P4").rank(), 0);
  EXPECT_TRUE(Row(r.standings(), "P4").withdrawn());
}

TEST(GameWithdrawal, APartialWithdrawalLosesOnlyTheGameConcerned) {
  // P4 withdraws during G2 (round 1) but plays G4 in round 2 (部分退出): G2 is
  // lost, nothing else changes, P4 is not withdrawn.
  TournamentBuilder b = FourPlayerRoundRobin(3);
  GameFactsMap games = {{"G1", Decided(kBlack)},
                        {"G2", WithdrewInGame(v1::WHITE)},
                        {"G3", Decided(kBlack)},
                        {"G4", Decided(kWhite)}};
  const v1::Tournament seen = WithWithdrawalsFromGames(b.Build(), games);
  EXPECT_EQ(seen.withdrawals_size(), 0);
  v1::StandingsReport r = ComputeStandings(seen, games);
  EXPECT_EQ(Find(r, "G2")->outcome(), v1::Result::BLACK_WINS);
  EXPECT_EQ(Find(r, "G5")->status(), v1::ScoredPairing::PENDING);
  EXPECT_FALSE(Row(r.standings(), "P4").withdrawn());
  EXPECT_EQ(Row(r.standings(), "P4").points(), 2);  // G4
}

TEST(GameWithdrawal, TheDirectorsRecordIsKept) {
  // The director recorded P4 withdrawing after round 2; a `withdrew` in G2
  // (round 1) does not move it.
  TournamentBuilder b = FourPlayerRoundRobin(3);
  b.Withdraw("P4", 2);
  GameFactsMap games = {{"G2", WithdrewInGame(v1::WHITE)}};
  const v1::Tournament seen = WithWithdrawalsFromGames(b.Build(), games);
  ASSERT_EQ(seen.withdrawals_size(), 1);
  EXPECT_EQ(seen.withdrawals(0).after_round(), 2);
}

TEST(GameWithdrawal, SwissResultsStandAndThePlayerIsMarkedWithdrawn) {
  // 28.3: D (Black in G2) withdraws during G2; C wins it by 23.2, A-B stands.
  TournamentBuilder b(v1::TournamentSettings::SWISS);
  b.Player("A").Player("B").Player("C").Player("D");
  b.Round(1, {{"A", "B", "G1"}, {"D", "C", "G2"}});
  GameFactsMap games = {{"G1", Decided(kBlack)}, {"G2", WithdrewInGame(v1::BLACK)}};
  v1::StandingsReport r = ComputeStandings(WithWithdrawalsFromGames(b.Build(), games), games);
  EXPECT_TRUE(Row(r.standings(), "D").withdrawn());
  EXPECT_FALSE(Row(r.standings(), "C").withdrawn());
  EXPECT_EQ(Row(r.standings(), "C").points(), 2);
  EXPECT_EQ(Row(r.standings(), "D").points(), 0);
}

}  // namespace
}  // namespace arbiter::tournament
