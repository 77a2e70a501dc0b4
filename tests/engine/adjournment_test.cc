// Adjournment (2002 arts. 14, 22.1, 22.9; 1988 arts. 14, 22, 23.3): sealed
// moves, lateness after a resumption, and the first half's time split when
// its record is lost.
#include <string>

#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

void Start(Game& g, const std::string& ruleset) {
  ASSERT_TRUE(g.Apply(0, Created(ruleset)).ok());  // one hour, 5 x 60 s byo-yomi
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
}

int64_t MainLeft(Game& g, const std::string& color) {
  const v1::Clocks c = g.a().State().clocks();
  return (color == "BLACK" ? c.black() : c.white()).main_remaining().seconds();
}

// 22.1, third sentence (一律打开计时器进入自然计时状态，但不设迟到判负时限): the
// late player's clock runs from `resumed`, nothing more; the first versions
// deducted L (1988) or 2L (2002) instead.
TEST(LateAfterResumptionTest, TheClockSimplyRunsFromTheResumption) {
  struct Case {
    const char* ruleset;
    const char* version;
    int64_t black_main_left;
  };
  // Black used 10 s, then 10 s of its turn before the adjournment at 30.
  // Resumed at 1000, Black arrives at 1300 and moves at 1310: 310 s more.
  for (const Case& c :
       {Case{"cn-2002", "2002.2", 3600 - 20 - 310}, Case{"cn-1988", "1988.2", 3600 - 20 - 310},
        Case{"cn-2002", "2002.1", 3600 - 10 - 2 * 300 - 10 - 10},
        Case{"cn-1988", "1988.1", 3600 - 10 - 300 - 10 - 10}}) {
    SCOPED_TRACE(c.version);
    Game g(*LoadRulesVersion(c.ruleset, c.version));
    Start(g, c.ruleset);
    ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q16")).ok());
    ASSERT_TRUE(g.Apply(20, Move("WHITE", "D4")).ok());
    ASSERT_TRUE(g.Apply(30, R"("adjourned": {})").ok());
    ASSERT_TRUE(g.Apply(1000, R"("resumed": {})").ok());
    ASSERT_TRUE(g.Apply(1300, Of("playerArrived", "BLACK")).ok());
    ASSERT_TRUE(g.Apply(1310, Move("BLACK", "Q4")).ok());
    EXPECT_EQ(MainLeft(g, "BLACK"), c.black_main_left);
    EXPECT_EQ(g.rulings().size(), std::string(c.version).ends_with(".1") ? 1u : 0u);
    EXPECT_EQ(g.a().result(), nullptr);
  }
}

TEST(SealedMoveTest, SealedAtTheAdjournmentAndPlayedFirstOnResumption) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q16")).ok());
  // White thinks 50 s on its own time, then seals: the game is adjourned.
  ASSERT_TRUE(g.Apply(60, Of("moveSealed", "WHITE")).ok());
  EXPECT_EQ(g.Apply(70, Move("WHITE", "D4")).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(g.Apply(70, R"("sealedMoveOpened": {"color": "WHITE", "point": "D4"})").code(),
            absl::StatusCode::kFailedPrecondition);  // not resumed yet
  ASSERT_TRUE(g.Apply(5000, R"("resumed": {})").ok());
  // The sealed move comes first; no clock runs until it is played.
  EXPECT_EQ(g.Apply(5005, Move("BLACK", "Q4")).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(g.Apply(5005, R"("sealedMoveOpened": {"color": "BLACK", "point": "D4"})").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(g.a().State().clocks().white().running());
  ASSERT_TRUE(g.Apply(5010, R"("sealedMoveOpened": {"color": "WHITE", "point": "D4"})").ok());
  EXPECT_TRUE(g.rulings().empty());
  EXPECT_EQ(g.a().State().to_move(), v1::BLACK);
  EXPECT_EQ(g.a().State().move_number(), 2);
  EXPECT_EQ(MainLeft(g, "WHITE"), 3600 - 50);  // only the time before sealing
  ASSERT_TRUE(g.Apply(5030, Move("BLACK", "Q4")).ok());
  EXPECT_EQ(MainLeft(g, "BLACK"), 3600 - 10 - 20);  // runs from the opening
}

TEST(SealedMoveTest, OnlyThePlayerToMoveSealsInPlay) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q16")).ok());
  EXPECT_EQ(g.Apply(20, Of("moveSealed", "BLACK")).code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(g.Apply(20, R"("adjourned": {})").ok());
  EXPECT_EQ(g.Apply(30, Of("moveSealed", "WHITE")).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(g.Apply(30, R"("sealedMoveOpened": {"color": "WHITE", "point": "D4"})").code(),
            absl::StatusCode::kFailedPrecondition);  // nothing sealed
}

// White seals Q16, where Black has played, and the sealed move is opened.
void SealOnAnOccupiedPoint(Game& g, const std::string& ruleset) {
  Start(g, ruleset);
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(20, Of("moveSealed", "WHITE")).ok());
  ASSERT_TRUE(g.Apply(1000, R"("resumed": {})").ok());
  ASSERT_TRUE(g.Apply(1010, R"("sealedMoveOpened": {"color": "WHITE", "point": "Q16"})").ok());
}

// 1988 art. 22: 如封棋之点已有棋子时，判弃权一次，轮对方下子. cn-2002 leaves
// it to the chief arbiter, whose choice may be the same or a fresh move.
TEST(SealedMoveTest, AnOccupiedPointIsAPassUnder1988AndTheChiefArbitersIn2002) {
  Game old("cn-1988");
  SealOnAnOccupiedPoint(old, "cn-1988");
  ASSERT_EQ(old.rulings().size(), 1u);
  EXPECT_EQ(old.rulings()[0].clause(), "cn-1988/22");
  EXPECT_EQ(old.a().State().to_move(), v1::BLACK);
  EXPECT_EQ(old.a().State().consecutive_passes(), 1);

  for (const char* choice : {"MOVE_VOID+COUNTS_AS_PASS", "MOVE_VOID"}) {
    SCOPED_TRACE(choice);
    Game g("cn-2002");
    SealOnAnOccupiedPoint(g, "cn-2002");
    ASSERT_EQ(g.rulings().size(), 1u);
    EXPECT_TRUE(g.rulings()[0].pending());
    EXPECT_EQ(g.a().State().to_move(), v1::WHITE);
    ASSERT_TRUE(g.Apply(1020, absl::StrCat(R"("arbiterDecision": {"ruling": 1, "choice": ")",
                                           choice, R"("})"))
                    .ok());
    EXPECT_EQ(g.a().State().to_move(), std::string(choice) == "MOVE_VOID" ? v1::WHITE : v1::BLACK);
  }
}

// 22.9: 找不到前半段双方用时书面记录时，前半段用时判为双方均摊.
TEST(FirstHalfUnrecordedTest, TheTimeBeforeTheAdjournmentIsSplitEqually) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(100, Move("BLACK", "Q16")).ok());  // Black 100 s
  ASSERT_TRUE(g.Apply(120, Move("WHITE", "D4")).ok());   // White 20 s
  ASSERT_TRUE(g.Apply(120, R"("adjourned": {})").ok());
  EXPECT_EQ(g.Apply(130, R"("firstHalfUnrecorded": {})").code(),
            absl::StatusCode::kFailedPrecondition);  // not resumed yet
  ASSERT_TRUE(g.Apply(2000, R"("resumed": {})").ok());
  ASSERT_TRUE(g.Apply(2010, Move("BLACK", "Q4")).ok());  // 10 s since
  ASSERT_TRUE(g.Apply(2010, R"("firstHalfUnrecorded": {})").ok());
  EXPECT_TRUE(g.rulings().empty());  // the clocks are set right, no ruling
  EXPECT_EQ(MainLeft(g, "BLACK"), 3600 - 60 - 10);
  EXPECT_EQ(MainLeft(g, "WHITE"), 3600 - 60);

  // cn-1988 has no such clause: the clocks stay as the events timed them.
  Game old("cn-1988");
  Start(old, "cn-1988");
  ASSERT_TRUE(old.Apply(100, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(old.Apply(120, Move("WHITE", "D4")).ok());
  ASSERT_TRUE(old.Apply(120, R"("adjourned": {})").ok());
  ASSERT_TRUE(old.Apply(2000, R"("resumed": {})").ok());
  ASSERT_TRUE(old.Apply(2010, R"("firstHalfUnrecorded": {})").ok());
  EXPECT_EQ(MainLeft(old, "BLACK"), 3600 - 100 - 10);
}

TEST(FirstHalfUnrecordedTest, NeedsAnAdjournmentAndAResumption) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  const absl::Status s = g.Apply(10, R"("firstHalfUnrecorded": {})");
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("adjourned and resumed"), absl::string_view::npos) << s;
}

}  // namespace
}  // namespace arbiter::testing
