// Whose turn it is and what the dead stones may be, as cn-2002 2002.5 and
// cn-1988 1988.3 read the articles: White's move before any is not a second
// move in a row (2002 17.2, 1988 17.1 need two; 2.3 / 2.1: 黑先白后), play
// resumed after two passes may be either player's (2002 21.4: 由认为是死的
// 一方先下; 1988 21.3: 以实战解决), and a chain is dead or alive as a whole
// (3: 不可分割的整体). Games pinned to the versions before keep the readings
// they were judged under.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rulesdb/rules.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

void Start(Game& g, const std::string& ruleset, const std::string& extra = "") {
  ASSERT_TRUE(g.Apply(0, Created(ruleset, "SAME_SITE", kHourAndByoYomi, extra)).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
}

std::vector<std::string> Sanctions(const v1::Ruling& r) {
  std::vector<std::string> out;
  for (int s : r.sanctions()) out.push_back(v1::Sanction_Name(static_cast<v1::Sanction>(s)));
  return out;
}

std::vector<std::string> Options(const v1::Ruling& r) {
  std::vector<std::string> out;
  for (const v1::RulingOption& o : r.options()) out.push_back(o.id());
  return out;
}

TEST(FirstMoveTest, WhitesMoveBeforeAnyGoesToTheChiefArbiterAndIsNotPlayed) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(10, Move("WHITE", "D4")).ok());
  ASSERT_EQ(g.rulings().size(), 1u);
  const v1::Ruling first = g.rulings()[0];
  EXPECT_EQ(first.clause(), "cn-2002/30.6");
  EXPECT_EQ(first.against(), v1::Ruling::WHITE);
  EXPECT_TRUE(first.pending());
  EXPECT_EQ(Sanctions(first), (std::vector<std::string>{"MOVE_VOID", "REFERRED"}));
  EXPECT_EQ(Options(first), (std::vector<std::string>{"NONE", "WARNING"}));
  EXPECT_EQ(g.a().State().warnings().white(), 0);  // 17.2's warning is not borrowed
  EXPECT_EQ(g.a().State().to_move(), v1::BLACK);
  EXPECT_EQ(g.a().State().move_number(), 0);

  // Black plays first; White's reply is an ordinary move.
  ASSERT_TRUE(g.Apply(20, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(30, Move("WHITE", "D4")).ok());
  EXPECT_EQ(g.rulings().size(), 1u);
  EXPECT_EQ(g.a().State().move_number(), 2);

  // The chief arbiter warns: a penalty stone (24.1).
  ASSERT_TRUE(g.Apply(40, R"("arbiterDecision": {"ruling": 1, "choice": "WARNING"})").ok());
  ASSERT_EQ(g.rulings().size(), 2u);
  EXPECT_EQ(Sanctions(g.rulings()[1]),
            (std::vector<std::string>{"MOVE_VOID", "WARNING", "PENALTY_STONE"}));
  EXPECT_EQ(g.a().State().penalty_stones().white(), 1);
}

TEST(FirstMoveTest, AFirstPassOutOfTurnIsTheSame) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(10, Of("pass", "WHITE")).ok());
  ASSERT_EQ(g.rulings().size(), 1u);
  EXPECT_EQ(g.rulings()[0].clause(), "cn-2002/30.6");
  EXPECT_EQ(g.a().State().to_move(), v1::BLACK);
}

TEST(FirstMoveTest, UnderCn1988TheArbiterRulesUnder25_1) {
  Game g("cn-1988");
  Start(g, "cn-1988");
  ASSERT_TRUE(g.Apply(10, Move("WHITE", "D4")).ok());
  ASSERT_EQ(g.rulings().size(), 1u);
  EXPECT_EQ(g.rulings()[0].clause(), "cn-1988/25.1");
  EXPECT_TRUE(g.rulings()[0].pending());
  EXPECT_EQ(g.a().result(), nullptr);  // not 17.1's loss
  EXPECT_EQ(g.a().State().to_move(), v1::BLACK);
}

TEST(FirstMoveTest, AfterHandicapStonesBlackMovingAgainIsASecondMove) {
  Game g("cn-2002");
  Start(g, "cn-2002", R"("setup": {"black": ["D4", "Q16"], "firstToMove": "WHITE"})");
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q4")).ok());
  ASSERT_EQ(g.rulings().size(), 1u);
  EXPECT_EQ(g.rulings()[0].clause(), "cn-2002/17.2");
}

TEST(FirstMoveTest, GamesPinnedToTheVersionsBeforeKeepTheSecondMoveReading) {
  Game cn2002(*LoadRulesVersion("cn-2002", "2002.4"));
  Start(cn2002, "cn-2002");
  ASSERT_TRUE(cn2002.Apply(10, Move("WHITE", "D4")).ok());
  ASSERT_EQ(cn2002.rulings().size(), 1u);
  EXPECT_EQ(cn2002.rulings()[0].clause(), "cn-2002/17.2");

  Game cn1988(*LoadRulesVersion("cn-1988", "1988.2"));
  Start(cn1988, "cn-1988");
  ASSERT_TRUE(cn1988.Apply(10, Move("WHITE", "D4")).ok());
  ASSERT_NE(cn1988.a().result(), nullptr);
  EXPECT_EQ(cn1988.a().result()->sgf(), "B+F");
}

// B Q16, W D4, both pass: a dispute over the dead stones resumes play.
void PlayToTwoPasses(Game& g) {
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(20, Move("WHITE", "D4")).ok());
  ASSERT_TRUE(g.Apply(30, Of("pass", "BLACK")).ok());
  ASSERT_TRUE(g.Apply(40, Of("pass", "WHITE")).ok());
}

TEST(ResumptionTest, EitherPlayerMayResumeAfterTwoPassesMovingFirst) {
  for (const char* ruleset : {"cn-2002", "cn-1988"}) {
    SCOPED_TRACE(ruleset);
    Game g(ruleset);
    Start(g, ruleset);
    PlayToTwoPasses(g);
    // White says Black's stones are dead and plays first (2002 21.4).
    ASSERT_TRUE(g.Apply(100, Move("WHITE", "Q4")).ok());
    EXPECT_TRUE(g.rulings().empty());
    EXPECT_EQ(g.a().State().to_move(), v1::BLACK);
    EXPECT_EQ(g.a().State().move_number(), 5);
    ASSERT_TRUE(g.Apply(110, Move("BLACK", "C3")).ok());
    EXPECT_TRUE(g.rulings().empty());
    // Play goes on in turn: White again now would be a second move.
    ASSERT_TRUE(g.Apply(120, Move("WHITE", "R3")).ok());
    ASSERT_TRUE(g.Apply(130, Move("WHITE", "R4")).ok());
    ASSERT_EQ(g.rulings().size(), 1u);
    EXPECT_EQ(g.rulings()[0].clause(),
              std::string(ruleset) == "cn-2002" ? "cn-2002/17.2" : "cn-1988/17.1");
  }
}

TEST(ResumptionTest, GamesPinnedToTheVersionsBeforeTakeOnlyThePlayerInTurn) {
  Game g(*LoadRulesVersion("cn-2002", "2002.4"));
  Start(g, "cn-2002");
  PlayToTwoPasses(g);
  ASSERT_TRUE(g.Apply(100, Move("WHITE", "Q4")).ok());
  ASSERT_EQ(g.rulings().size(), 1u);
  EXPECT_EQ(g.rulings()[0].clause(), "cn-2002/17.2");
}

// Black's wall and a white pair C3-C4 inside it, both passes: White's two
// stones are one chain.
void PlayToTheCount(Game& g) {
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "E5")).ok());
  ASSERT_TRUE(g.Apply(20, Move("WHITE", "C3")).ok());
  ASSERT_TRUE(g.Apply(30, Move("BLACK", "E6")).ok());
  ASSERT_TRUE(g.Apply(40, Move("WHITE", "C4")).ok());
  ASSERT_TRUE(g.Apply(50, Of("pass", "BLACK")).ok());
  ASSERT_TRUE(g.Apply(60, Of("pass", "WHITE")).ok());
}

TEST(DeadStonesTest, HalfAChainIsRefusedByNameAndTheWholeOneCounts) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  PlayToTheCount(g);
  absl::Status half = g.Apply(70, R"("deadStones": {"points": ["C3"]})");
  EXPECT_EQ(half.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(half.message().find("C3 is named dead but C4, of the same chain, is not"),
            std::string::npos)
      << half;
  EXPECT_NE(half.message().find("art. 3"), std::string::npos) << half;
  EXPECT_EQ(g.a().result(), nullptr);  // refused: nothing changed

  ASSERT_TRUE(g.Apply(70, R"("deadStones": {"points": ["C4", "C3"]})").ok());
  ASSERT_NE(g.a().result(), nullptr);
  EXPECT_EQ(g.a().result()->black_count(), 361);  // the empty board is Black's area
}

TEST(DeadStonesTest, GamesPinnedToTheVersionsBeforeTakeEachNamedStoneAlone) {
  Game g(*LoadRulesVersion("cn-1988", "1988.2"));
  Start(g, "cn-1988");
  PlayToTheCount(g);
  ASSERT_TRUE(g.Apply(70, R"("deadStones": {"points": ["C3"]})").ok());
  ASSERT_NE(g.a().result(), nullptr);
}

}  // namespace
}  // namespace arbiter::testing
