// Conduct at the board that issue 14 encoded: leave to go in byo-yomi once
// per game (2002 22.7, 1988 23.6) and a dropped stone (2002 17.3).
#include <string>

#include "adjudicator/engine/report.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

const char* kPermitted = R"("leftSeat": {"color": "BLACK", "permitted": true})";

// Black in byo-yomi (60 s main time, 5 x 60 s), White thinking: the
// situation in which leave is needed.
void BlackInByoYomiWhileWhiteThinks(Game& g, const std::string& ruleset) {
  ASSERT_TRUE(
      g.Apply(0, Created(ruleset, "SAME_SITE",
                         R"({"mainTime": "60s", "byoYomi": {"periods": 5, "periodTime": "60s"}})"))
          .ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(70, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(80, Move("WHITE", "D4")).ok());
  ASSERT_TRUE(g.Apply(90, Move("BLACK", "Q4")).ok());
}

TEST(SeatLeaveTest, LeaveInByoYomiIsGivenOncePerGame) {
  for (const char* ruleset : {"cn-2002", "cn-1988"}) {
    SCOPED_TRACE(ruleset);
    Game g(ruleset);
    BlackInByoYomiWhileWhiteThinks(g, ruleset);
    ASSERT_TRUE(g.Apply(95, kPermitted).ok());
    ASSERT_TRUE(g.Apply(100, R"("returnedSeat": {"color": "BLACK", "permitted": true})").ok());
    ASSERT_TRUE(g.Apply(110, Move("WHITE", "D16")).ok());
    ASSERT_TRUE(g.Apply(120, Move("BLACK", "C3")).ok());
    const v1::AdjudicationReport before = BuildReport(g.a());
    const absl::Status second = g.Apply(125, kPermitted);
    EXPECT_EQ(second.code(), absl::StatusCode::kFailedPrecondition);
    const std::string clause = std::string(ruleset) == "cn-2002" ? "cn-2002/22.7" : "cn-1988/23.6";
    EXPECT_NE(second.message().find(clause), absl::string_view::npos) << second;
    EXPECT_NE(
        second.message().find(std::string(ruleset) == "cn-2002" ? "每局仅限一次" : "每局只限一次"),
        absl::string_view::npos)
        << second;
    EXPECT_EQ(BuildReport(g.a()).SerializeAsString(), before.SerializeAsString())
        << "a refused event changes nothing";
    // Leaving without leave is still recorded, and is no ruling: the clock runs.
    ASSERT_TRUE(g.Apply(125, R"("leftSeat": {"color": "BLACK"})").ok());
    EXPECT_TRUE(g.rulings().empty());
    // White is not in byo-yomi: no leave is needed, so none is counted.
    ASSERT_TRUE(g.Apply(130, Move("WHITE", "R3")).ok());
    ASSERT_TRUE(g.Apply(131, R"("leftSeat": {"color": "WHITE", "permitted": true})").ok());
    ASSERT_TRUE(g.Apply(132, R"("leftSeat": {"color": "WHITE", "permitted": true})").ok());
  }
}

TEST(SeatLeaveTest, ThePublishedFirstVersionsKnewNoLimit) {
  Game g(*LoadRulesVersion("cn-2002", "2002.1"));
  BlackInByoYomiWhileWhiteThinks(g, "cn-2002");
  ASSERT_TRUE(g.Apply(95, kPermitted).ok());
  ASSERT_TRUE(g.Apply(100, kPermitted).ok());
  EXPECT_TRUE(g.rulings().empty());
}

// 17.3: 如一方的棋子不慎掉落于棋盘，经对手同意后，允许其拣起后任选着点。如双方
// 不能达成一致意见，则由裁判长裁决。
TEST(StoneDroppedTest, TheChiefArbiterDecidesWhetherTheDroppedStoneIsTheMove) {
  for (const char* choice : {"STANDS", "PICKED_UP"}) {
    SCOPED_TRACE(choice);
    Game g("cn-2002");
    ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
    ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
    ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q16")).ok());
    ASSERT_TRUE(g.Apply(15, R"("stoneDropped": {"color": "WHITE", "point": "D4"})").ok());
    ASSERT_EQ(g.rulings().size(), 1u);
    EXPECT_TRUE(g.rulings()[0].pending());
    EXPECT_EQ(g.rulings()[0].decided_by(), v1::CHIEF_ARBITER);
    EXPECT_EQ(g.a().State().to_move(), v1::WHITE);
    ASSERT_TRUE(g.Apply(30, absl::StrCat(R"("arbiterDecision": {"ruling": 1, "choice": ")", choice,
                                         R"("})"))
                    .ok());
    const v1::GameState s = g.a().State();
    const bool stands = std::string(choice) == "STANDS";
    EXPECT_EQ(s.to_move(), stands ? v1::BLACK : v1::WHITE);
    EXPECT_EQ(s.board(15)[3], stands ? 'O' : '.');  // D4: row 4 is the 16th string
    EXPECT_EQ(s.move_number(), stands ? 2 : 1);
  }
}

// The stone a decision let stand cannot be lifted by an appeal: the engine
// refuses to overturn what it cannot undo.
TEST(StoneDroppedTest, ADecisionThatPlayedTheStoneIsNotOverturned) {
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(15, R"("stoneDropped": {"color": "WHITE", "point": "D4"})").ok());
  ASSERT_TRUE(g.Apply(30, R"("arbiterDecision": {"ruling": 1, "choice": "STANDS"})").ok());
  ASSERT_TRUE(g.Apply(35, R"("appealLodged": {"ruling": 2, "byColor": "BLACK"})").ok());
  const absl::Status overturn = g.Apply(40, R"("appealDecided": {"ruling": 2, "upheld": false})");
  EXPECT_EQ(overturn.code(), absl::StatusCode::kFailedPrecondition) << overturn;
  EXPECT_NE(overturn.message().find("dropped stone"), absl::string_view::npos) << overturn;
  EXPECT_TRUE(g.Apply(40, R"("appealDecided": {"ruling": 2, "upheld": true})").ok());
}

TEST(StoneDroppedTest, OnlyThePlayerToMoveDropsAStoneAndCn1988LetsItBePickedUp) {
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  EXPECT_EQ(g.Apply(5, R"("stoneDropped": {"color": "WHITE", "point": "D4"})").code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(g.Apply(5, R"("stoneDropped": {"color": "BLACK", "point": "Z99"})").code(),
            absl::StatusCode::kInvalidArgument);
  Game old("cn-1988");
  ASSERT_TRUE(old.Apply(0, Created("cn-1988")).ok());
  ASSERT_TRUE(old.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(old.Apply(5, R"("stoneDropped": {"color": "BLACK", "point": "D4"})").ok());
  EXPECT_TRUE(old.rulings().empty());
  ASSERT_TRUE(old.Apply(10, Move("BLACK", "Q16")).ok());  // picked up, played elsewhere
}

}  // namespace
}  // namespace arbiter::testing
