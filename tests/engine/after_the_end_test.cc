// Warnings ruled after the game ended, as cn-2002 2002.6 and cn-1988 1988.4
// read the articles: a pending ruling decided, or an appeal decided, once the
// game was counted or resigned still acts on the result, since 24.1 counts
// every warning of the game (该局计算胜负时…被警告方罚出一子) and 24.2 (1988
// 25.2) loses the game on the second (在一局中, 在一局棋里满二次者). Games
// pinned to the versions before keep the readings they were judged under.
//
// The counts are the arbiter's (countRecorded), so that the margin is art.
// 11's example: 185 stones are Black's win by 3/4 of a stone.
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "rulesdb/rules.h"
#include "tests/engine/engine_test_util.h"

// A namespace of its own: engine_test is a unity build.
namespace arbiter::testing::after_the_end {
namespace {

void Start(Game& g, const std::string& ruleset) {
  ASSERT_TRUE(g.Apply(0, Created(ruleset)).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
}

std::string Disturbance(const std::string& color) {
  return absl::StrCat(R"("misconduct": {"color": ")", color, R"(", "kind": "DISTURBANCE"})");
}
std::string Decide(int ruling, const std::string& choice) {
  return absl::StrCat(R"("arbiterDecision": {"ruling": )", ruling, R"(, "choice": ")", choice,
                      R"("})");
}
std::string Lodged(int ruling, const std::string& by) {
  return absl::StrCat(R"("appealLodged": {"ruling": )", ruling, R"(, "byColor": ")", by,
                      R"(", "grounds": "my phone was off"})");
}
std::string Overturned(int ruling) {
  return absl::StrCat(R"("appealDecided": {"ruling": )", ruling,
                      R"(, "upheld": false, "note": "another player's phone"})");
}
constexpr char kCount185[] = R"("countRecorded": {"blackCount": 185})";

TEST(AfterTheEndTest, APenaltyStoneRuledAfterTheCountMovesItsMargin) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(10, Disturbance("BLACK")).ok());  // 23.3, pending
  ASSERT_TRUE(g.Apply(20, kCount185).ok());
  ASSERT_NE(g.a().result(), nullptr);
  EXPECT_EQ(g.a().result()->sgf(), "B+1.5");  // 185 - 184.25: 3/4 of a stone
  ASSERT_TRUE(g.Apply(30, Decide(1, "WARNING")).ok());
  const v1::Result* result = g.a().result();
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(result->outcome(), v1::Result::WHITE_WINS);
  EXPECT_EQ(result->reason(), v1::Result::COUNT);
  EXPECT_EQ(result->black_count(), 185);
  EXPECT_EQ(result->margin_stones(), 0.25);  // 184 against 184.25
  EXPECT_EQ(result->penalty_stones().black(), 1);
  EXPECT_EQ(result->sgf(), "W+0.5");
  EXPECT_EQ(result->clause(), "cn-2002/9");
  EXPECT_EQ(result->ruling(), 2u);  // the decision that changed it
  EXPECT_EQ(g.a().State().penalty_stones().black(), 1);
}

TEST(AfterTheEndTest, ASecondWarningDecidedAfterTheCountLoses) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(10, Of("phoneRang", "BLACK")).ok());  // 23.7: the first warning
  ASSERT_TRUE(g.Apply(20, Disturbance("BLACK")).ok());      // pending
  ASSERT_TRUE(g.Apply(30, R"("countRecorded": {"blackCount": 190})").ok());
  EXPECT_EQ(g.a().result()->outcome(), v1::Result::BLACK_WINS);
  ASSERT_TRUE(g.Apply(40, Decide(2, "WARNING")).ok());
  ASSERT_EQ(g.rulings().size(), 4u);
  EXPECT_EQ(g.rulings()[3].clause(), "cn-2002/24.2");
  const v1::Result* result = g.a().result();
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(result->outcome(), v1::Result::WHITE_WINS);
  EXPECT_EQ(result->reason(), v1::Result::WARNINGS);
  EXPECT_EQ(result->ruling(), 4u);
}

TEST(AfterTheEndTest, UnderCn1988ASecondWarningAfterAResignationLoses) {
  Game g("cn-1988");
  Start(g, "cn-1988");
  ASSERT_TRUE(g.Apply(10, Of("phoneRang", "WHITE")).ok());  // 25.1, pending
  ASSERT_TRUE(g.Apply(20, Of("phoneRang", "WHITE")).ok());  // 25.1, pending
  ASSERT_TRUE(g.Apply(30, Of("resign", "BLACK")).ok());
  EXPECT_EQ(g.a().result()->sgf(), "W+R");
  ASSERT_TRUE(g.Apply(40, Decide(1, "WARNING")).ok());
  EXPECT_EQ(g.a().result()->sgf(), "W+R");  // one warning: no loss
  ASSERT_TRUE(g.Apply(50, Decide(2, "WARNING")).ok());
  ASSERT_EQ(g.rulings().size(), 5u);
  EXPECT_EQ(g.rulings()[4].clause(), "cn-1988/25.2");
  EXPECT_EQ(g.a().result()->outcome(), v1::Result::BLACK_WINS);
  EXPECT_EQ(g.a().result()->reason(), v1::Result::WARNINGS);
}

// A result a ruling gave (here Black's second phone ring, 23.7) stands:
// White's second warning decided after it is recorded and loses nothing more.
TEST(AfterTheEndTest, AResultARulingGaveStands) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(10, Of("phoneRang", "WHITE")).ok());  // White's first warning
  ASSERT_TRUE(g.Apply(20, Disturbance("WHITE")).ok());      // 2, pending
  ASSERT_TRUE(g.Apply(30, Of("phoneRang", "BLACK")).ok());
  ASSERT_TRUE(g.Apply(40, Of("phoneRang", "BLACK")).ok());
  ASSERT_NE(g.a().result(), nullptr);
  const v1::Result before = *g.a().result();
  EXPECT_EQ(before.outcome(), v1::Result::WHITE_WINS);
  const size_t rulings = g.rulings().size();
  ASSERT_TRUE(g.Apply(50, Decide(2, "WARNING")).ok());
  EXPECT_EQ(g.rulings().size(), rulings + 1);  // the warning, no 24.2 after it
  EXPECT_EQ(g.a().State().warnings().white(), 2);
  EXPECT_EQ(g.a().result()->SerializeAsString(), before.SerializeAsString());
}

TEST(AfterTheEndTest, OverturningAWarningTheCountIncludedTakesItsStoneOut) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(10, Of("phoneRang", "BLACK")).ok());  // a warning, a penalty stone
  ASSERT_TRUE(g.Apply(20, kCount185).ok());
  EXPECT_EQ(g.a().result()->sgf(), "W+0.5");
  ASSERT_TRUE(g.Apply(30, Lodged(1, "BLACK")).ok());
  ASSERT_TRUE(g.Apply(40, Overturned(1)).ok());
  const v1::Result* result = g.a().result();
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(result->sgf(), "B+1.5");
  EXPECT_EQ(result->penalty_stones().black(), 0);
  EXPECT_EQ(result->black_count(), 185);
  EXPECT_EQ(result->ruling(), 2u);  // the appeal's decision
}

TEST(AfterTheEndTest, OverturningAWarningRuledAfterTheCountRestoresTheCount) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(10, Disturbance("BLACK")).ok());
  ASSERT_TRUE(g.Apply(20, kCount185).ok());
  const v1::Result counted = *g.a().result();
  ASSERT_TRUE(g.Apply(30, Decide(1, "WARNING")).ok());
  EXPECT_EQ(g.a().result()->sgf(), "W+0.5");
  ASSERT_TRUE(g.Apply(40, Lodged(2, "BLACK")).ok());
  ASSERT_TRUE(g.Apply(50, Overturned(2)).ok());
  EXPECT_EQ(g.a().result()->SerializeAsString(), counted.SerializeAsString());
}

TEST(AfterTheEndTest, GamesPinnedToTheVersionsBeforeKeepTheirReadings) {
  {
    Game g(*LoadRulesVersion("cn-2002", "2002.5"));
    Start(g, "cn-2002");
    ASSERT_TRUE(g.Apply(10, Of("phoneRang", "BLACK")).ok());
    ASSERT_TRUE(g.Apply(20, Disturbance("BLACK")).ok());
    ASSERT_TRUE(g.Apply(30, kCount185).ok());
    ASSERT_TRUE(g.Apply(40, Decide(2, "WARNING")).ok());
    EXPECT_EQ(g.rulings().size(), 3u);          // no 24.2
    EXPECT_EQ(g.a().result()->sgf(), "W+0.5");  // counted with one penalty stone
    EXPECT_EQ(g.a().result()->penalty_stones().black(), 1);
    ASSERT_TRUE(g.Apply(50, Lodged(1, "BLACK")).ok());
    const absl::Status refused = g.Apply(60, Overturned(1));
    EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  }
  {
    Game g(*LoadRulesVersion("cn-1988", "1988.3"));
    Start(g, "cn-1988");
    ASSERT_TRUE(g.Apply(10, Of("phoneRang", "WHITE")).ok());
    ASSERT_TRUE(g.Apply(20, Of("phoneRang", "WHITE")).ok());
    ASSERT_TRUE(g.Apply(30, Of("resign", "BLACK")).ok());
    ASSERT_TRUE(g.Apply(40, Decide(1, "WARNING")).ok());
    ASSERT_TRUE(g.Apply(50, Decide(2, "WARNING")).ok());
    EXPECT_EQ(g.rulings().size(), 4u);  // no 25.2
    EXPECT_EQ(g.a().result()->sgf(), "W+R");
  }
}

}  // namespace
}  // namespace arbiter::testing::after_the_end
