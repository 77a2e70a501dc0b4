// The engine takes every clause, sanction and parameter from the rules data:
// a test-only variant ruleset or a supplement changes a ruling with no
// engine change.
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

// cn-2002 with the first phone ring already a loss.
Rules PhoneRingLoses() {
  v1::Ruleset ruleset = LoadRules("cn-2002")->ruleset();
  ruleset.set_version("test-phone-loses");
  for (v1::Sanctioning& s : *ruleset.mutable_sanctionings()) {
    if (s.incident() == v1::PHONE_RANG && s.occurrence() <= 1) {
      s.clear_sanctions();
      s.add_sanctions(v1::LOSS);
      s.set_reason(v1::Result::DISCIPLINE);
    }
  }
  absl::StatusOr<Rules> rules = Rules::FromProto(ruleset);
  EXPECT_TRUE(rules.ok()) << rules.status();
  return *rules;
}

TEST(VariantRulesTest, FirstPhoneRingLosesUnderAVariant) {
  for (const bool variant : {false, true}) {
    Game g = variant ? Game(PhoneRingLoses()) : Game("cn-2002");
    ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
    ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
    ASSERT_TRUE(g.Apply(10, Of("phoneRang", "BLACK")).ok());
    ASSERT_EQ(g.rulings().size(), 1u);
    EXPECT_EQ(g.rulings()[0].clause(), "cn-2002/23.7");
    if (variant) {
      ASSERT_NE(g.a().result(), nullptr);
      EXPECT_EQ(g.a().result()->outcome(), v1::Result::WHITE_WINS);
      EXPECT_EQ(g.a().result()->sgf(), "W+F");
    } else {
      EXPECT_EQ(g.a().result(), nullptr);
      EXPECT_EQ(g.a().State().warnings().black(), 1);
    }
  }
}

TEST(VariantRulesTest, NoClauseNoRuling) {
  v1::Ruleset ruleset = LoadRules("cn-2002")->ruleset();
  ruleset.set_version("test-no-takeback-clause");
  auto* list = ruleset.mutable_sanctionings();
  for (int i = list->size() - 1; i >= 0; --i) {
    if (list->Get(i).incident() == v1::TAKEBACK) list->DeleteSubrange(i, 1);
  }
  absl::StatusOr<Rules> rules = Rules::FromProto(ruleset);
  ASSERT_TRUE(rules.ok()) << rules.status();
  Game g(*rules);
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(12, Of("takeback", "BLACK")).ok());
  EXPECT_TRUE(g.rulings().empty());
}

// Ko built, then both pass and White retakes: a 20.3 repetition.
void PlayRepetition(Game& g, const std::string& ruleset) {
  ASSERT_TRUE(g.Apply(0, Created(ruleset)).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  const char* moves[] = {"D5", "E5", "C4", "F4", "D3", "E3", "Q16", "D4", "E4"};
  int t = 10;
  for (int i = 0; i < 9; ++i, t += 10) {
    ASSERT_TRUE(g.Apply(t, Move(i % 2 ? "WHITE" : "BLACK", moves[i])).ok());
  }
  ASSERT_TRUE(g.Apply(t, Of("pass", "WHITE")).ok());
  ASSERT_TRUE(g.Apply(t + 10, Of("pass", "BLACK")).ok());
  ASSERT_TRUE(g.Apply(t + 20, Move("WHITE", "D4")).ok());
}

TEST(VariantRulesTest, SupplementPresetDecidesARepetitionAtOnce) {
  Game pending("cn-2002");
  PlayRepetition(pending, "cn-2002");
  ASSERT_EQ(pending.rulings().size(), 1u);
  EXPECT_TRUE(pending.rulings()[0].pending());
  EXPECT_EQ(pending.a().result(), nullptr);

  Game preset("cn-2002", "cn-2002-repetition-no-result");
  PlayRepetition(preset, "cn-2002");
  ASSERT_EQ(preset.rulings().size(), 1u);
  EXPECT_FALSE(preset.rulings()[0].pending());
  EXPECT_EQ(preset.rulings()[0].choice(), "NO_RESULT");
  ASSERT_NE(preset.a().result(), nullptr);
  EXPECT_EQ(preset.a().result()->outcome(), v1::Result::NO_RESULT);
  EXPECT_EQ(preset.a().result()->sgf(), "Void");
}

TEST(VariantRulesTest, PendingRepetitionDecidedAsVoidMoveCountsAsPass) {
  Game g("cn-2002");
  PlayRepetition(g, "cn-2002");
  ASSERT_EQ(g.a().State().to_move(), v1::WHITE);
  ASSERT_TRUE(
      g.Apply(200, R"("arbiterDecision": {"ruling": 1, "choice": "MOVE_VOID+COUNTS_AS_PASS"})")
          .ok());
  ASSERT_EQ(g.rulings().size(), 2u);
  EXPECT_EQ(g.rulings()[1].resolves(), 1u);
  EXPECT_EQ(g.a().State().to_move(), v1::BLACK);
  EXPECT_TRUE(g.a().State().pending_rulings().empty());
  // Deciding it again is bad input: it is no longer pending.
  EXPECT_FALSE(g.Apply(210, R"("arbiterDecision": {"ruling": 1, "choice": "DRAW"})").ok());
}

TEST(VariantRulesTest, SupplementWithoutPassOnTimeoutLoses) {
  for (const bool supplement : {false, true}) {
    Game g("cn-2002", supplement ? "cn-2002-rapid-no-pass" : "");
    ASSERT_TRUE(
        g.Apply(0,
                Created("cn-2002", "SAME_SITE",
                        R"({"mainTime": "60s", "byoYomi": {"periods": 1, "periodTime": "30s"}})"))
            .ok());
    ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
    ASSERT_TRUE(g.Apply(80, R"("timeExpired": {"color": "BLACK", "passRequested": true})").ok());
    ASSERT_EQ(g.rulings().size(), 1u);
    EXPECT_EQ(g.rulings()[0].clause(), "cn-2002/22.5");
    EXPECT_EQ(g.a().result() != nullptr, supplement);
    if (!supplement) {
      // The period restarts and it is White's turn.
      EXPECT_EQ(g.a().State().to_move(), v1::WHITE);
      EXPECT_EQ(g.a().State().clocks().black().periods_remaining(), 1);
    }
  }
}

TEST(VariantRulesTest, SupplementLateLimitTurnsALossIntoADeduction) {
  for (const bool supplement : {false, true}) {
    Game g("cn-1988", supplement ? "cn-1988-late-30min" : "");
    ASSERT_TRUE(g.Apply(0, Created("cn-1988")).ok());
    ASSERT_TRUE(g.Apply(0, R"("gameStarted": {"absent": ["BLACK"]})").ok());
    ASSERT_TRUE(g.Apply(1200, Of("playerArrived", "BLACK")).ok());
    ASSERT_EQ(g.rulings().size(), 1u);
    EXPECT_EQ(g.rulings()[0].clause(), supplement ? "cn-1988/23.3" : "cn-1988/23.1");
  }
}

// 17.5: without agreement the chief arbiter decides; the moved stones
// stand unless the decision puts them back.
TEST(DecisionTest, DisputedDisplacementStandsOnlyIfTheDecisionSaysSo) {
  for (const std::string choice : {"STANDS", "STONE_RESTORED"}) {
    SCOPED_TRACE(choice);
    Game g("cn-2002");
    ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
    ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
    ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q16")).ok());
    ASSERT_TRUE(
        g.Apply(
             20,
             R"("stonesDisplaced": {"points": [{"from": "Q16", "to": "Q17"}], "agreement": "NONE"})")
            .ok());
    ASSERT_TRUE(g.Apply(30, absl::StrCat(R"("arbiterDecision": {"ruling": 1, "choice": ")", choice,
                                         R"("})"))
                    .ok());
    ASSERT_EQ(g.rulings().size(), 2u);
    EXPECT_EQ(g.rulings()[1].choice(), choice);
    const v1::GameState s = g.a().State();
    // Row 19 first: Q16 is row index 3, Q17 row index 2, column Q = 15.
    EXPECT_EQ(s.board(3)[15], choice == "STANDS" ? '.' : 'X');
    EXPECT_EQ(s.board(2)[15], choice == "STANDS" ? 'X' : '.');
  }
}

}  // namespace
}  // namespace arbiter::testing

namespace arbiter::testing {
namespace {

// 17.3 (1988 17.2): the takeback is void and the stone goes back to where it
// was first placed, so the board keeps the move and the opponent keeps the turn.
TEST(TakebackTest, TheStoneStaysWhereItWasFirstPlacedUnderBothRulesets) {
  for (const char* ruleset : {"cn-2002", "cn-1988"}) {
    Game g(ruleset);
    ASSERT_TRUE(g.Apply(0, Created(ruleset)).ok());
    ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
    ASSERT_TRUE(g.Apply(10, Move("BLACK", "Q16")).ok());
    ASSERT_TRUE(g.Apply(12, Of("takeback", "BLACK")).ok());
    const v1::GameState s = g.a().State();
    EXPECT_EQ(s.to_move(), v1::WHITE) << ruleset;
    EXPECT_EQ(s.move_number(), 1) << ruleset;
    EXPECT_EQ(s.board(3)[15], 'X') << ruleset;  // Q16: row 16 is index 3, Q is column 15
    ASSERT_EQ(g.rulings().size(), 1u) << ruleset;
    EXPECT_EQ(g.rulings()[0].sanctions(0), v1::STONE_RESTORED) << ruleset;
    // The game goes on from there: White plays, and a takeback claimed
    // against Black after White's move is refused.
    ASSERT_TRUE(g.Apply(20, Move("WHITE", "D4")).ok());
    EXPECT_FALSE(g.Apply(22, Of("takeback", "BLACK")).ok()) << ruleset;
  }
}

}  // namespace
}  // namespace arbiter::testing
