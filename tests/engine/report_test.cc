// The readable result line, in Chinese and English, and the report's
// contents (DOMAIN.md §6).
#include <string>

#include "adjudicator/engine/game_result.h"
#include "adjudicator/engine/report.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

TEST(ReportTest, ResultLineGivesTheMarginInStones) {
  EXPECT_EQ(ResultLine(nullptr), "对局进行中 / Game in progress");
  const v1::Result three_quarters = CountResult(370, 3, 0, 0);
  EXPECT_EQ(ResultLine(&three_quarters), "黑胜3/4子 / Black wins by ¾ stone");
  const v1::Result one_and_three_quarters = CountResult(360, -7, 0, 0);
  EXPECT_EQ(ResultLine(&one_and_three_quarters), "白胜1又3/4子 / White wins by 1¾ stones");
  const v1::Result two = CountResult(370, 8, 0, 0);
  EXPECT_EQ(ResultLine(&two), "黑胜2子 / Black wins by 2 stones");
  EXPECT_EQ(two.sgf(), "B+4");
  const v1::Result draw = CountResult(361, 0, 0, 0);
  EXPECT_EQ(ResultLine(&draw), "和棋 / Draw");
  EXPECT_EQ(draw.sgf(), "0");
  const v1::Result resign = Loss(v1::WHITE, v1::Result::RESIGNATION);
  EXPECT_EQ(ResultLine(&resign), "黑中盘胜 / Black wins by resignation");
  EXPECT_EQ(resign.sgf(), "B+R");
  const v1::Result time = Loss(v1::BLACK, v1::Result::TIME);
  EXPECT_EQ(time.sgf(), "W+T");
  EXPECT_NE(ResultLine(&time).find("White wins on time"), std::string::npos);
}

TEST(ReportTest, ReportCarriesTheGameRulingsResultAndState) {
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(20, Of("phoneRang", "WHITE")).ok());
  const v1::AdjudicationReport r = BuildReport(g.a());
  EXPECT_EQ(r.game_id(), "t");
  EXPECT_EQ(r.ruleset(), "cn-2002");
  EXPECT_EQ(r.ruleset_hash(), g.a().rules().hash());
  ASSERT_EQ(r.rulings_size(), 1);
  EXPECT_EQ(r.rulings(0).event(), 4u);
  EXPECT_FALSE(r.rulings(0).text_zh().empty());
  EXPECT_FALSE(r.has_result());
  EXPECT_EQ(r.state().to_move(), v1::WHITE);
  EXPECT_EQ(r.state().move_number(), 1);
  ASSERT_EQ(r.state().board_size(), 19);
  EXPECT_EQ(r.state().board(3), "...............X...");  // Q16: row 16, column Q
  EXPECT_EQ(r.state().penalty_stones().white(), 1);
  // White's clock has run since Black's move (the implicit press).
  EXPECT_TRUE(r.state().clocks().white().running());
  EXPECT_EQ(r.state().clocks().white().main_remaining().seconds(), 3590);
  EXPECT_EQ(r.state().clocks().black().main_remaining().seconds(), 3590);
  const std::string text = RenderText(r, {"gameCreated", "gameStarted", "move", "phoneRang"});
  EXPECT_NE(text.find("4 phoneRang"), std::string::npos) << text;
  EXPECT_NE(text.find("cn-2002/23.7"), std::string::npos) << text;
}

// The stones agreed dead are in the report's state and its text, which an
// auditor reads beside the count they made.
TEST(ReportTest, ACountedGameNamesItsDeadStones) {
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  int t = 0;
  for (const std::string& e : {Move("BLACK", "Q16"), Move("WHITE", "R17"), Move("BLACK", "D4"),
                               Move("WHITE", "S18"), Of("pass", "BLACK"), Of("pass", "WHITE")}) {
    ASSERT_TRUE(g.Apply(t += 10, e).ok()) << e;
  }
  const v1::AdjudicationReport before = BuildReport(g.a());
  EXPECT_EQ(before.state().dead_stones_size(), 0);
  EXPECT_EQ(RenderText(before, {}).find("taken off for the count"), std::string::npos);
  ASSERT_TRUE(g.Apply(70, R"("deadStones": {"points": ["r17", "S18"]})").ok());
  const v1::AdjudicationReport r = BuildReport(g.a());
  ASSERT_TRUE(r.has_result());
  ASSERT_EQ(r.state().dead_stones_size(), 2);
  EXPECT_EQ(r.state().dead_stones(0), "R17");  // as the board names it
  EXPECT_EQ(r.state().dead_stones(1), "S18");
  const std::string text = RenderText(r, {});
  EXPECT_NE(text.find("死子 / dead stones (taken off for the count): R17 S18"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace arbiter::testing
