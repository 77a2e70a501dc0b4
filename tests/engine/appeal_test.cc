// Appeals (2002 arts. 16.3-16.4) and the confirmed result (23.1), under both
// rulesets: an appeal rules nothing; the chief arbiter's decision upholds the
// ruling or supersedes it, lifting its warnings, penalty stones and the
// result it caused; the original stays in the history.
#include <string>
#include <vector>

#include "absl/strings/str_replace.h"

#include "adjudicator/engine/report.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

std::string Discussion(const std::string& color, const std::string& decision) {
  return absl::StrCat(R"("misconduct": {"color": ")", color,
                      R"(", "kind": "DISCUSSION", "decision": ")", decision, R"("})");
}
std::string Lodged(int ruling, const std::string& by = "BLACK") {
  return absl::StrCat(R"("appealLodged": {"ruling": )", ruling, R"(, "byColor": ")", by,
                      R"(", "grounds": "it was not a discussion"})");
}
std::string Decided(int ruling, bool upheld) {
  return absl::StrCat(R"("appealDecided": {"ruling": )", ruling, R"(, "upheld": )",
                      upheld ? "true" : "false", R"(, "note": "chief arbiter"})");
}

class AppealTest : public ::testing::TestWithParam<std::string> {
 protected:
  AppealTest() : g_(GetParam()) {
    EXPECT_TRUE(g_.Apply(0, Created(GetParam())).ok());
    EXPECT_TRUE(g_.Apply(0, R"("gameStarted": {})").ok());
    EXPECT_TRUE(g_.Apply(10, Move("BLACK", "Q16")).ok());
    EXPECT_TRUE(g_.Apply(10, Of("clockPress", "BLACK")).ok());
  }
  int BlackWarnings() { return g_.a().State().warnings().black(); }
  Game g_;
};

TEST_P(AppealTest, AnAppealRulesNothingAndAnUpheldRulingStands) {
  ASSERT_TRUE(g_.Apply(20, Discussion("BLACK", "WARNING")).ok());
  ASSERT_EQ(g_.rulings().size(), 1u);
  const int penalty = g_.a().State().penalty_stones().black();
  ASSERT_TRUE(g_.Apply(30, Lodged(1)).ok());
  EXPECT_EQ(g_.rulings().size(), 1u);
  ASSERT_TRUE(g_.Apply(40, Decided(1, true)).ok());
  ASSERT_EQ(g_.rulings().size(), 2u);
  const v1::Ruling& upheld = g_.rulings()[1];
  EXPECT_EQ(upheld.appealed(), 1u);
  EXPECT_EQ(upheld.supersedes(), 0u);
  EXPECT_EQ(upheld.clause(), g_.rulings()[0].clause());
  EXPECT_EQ(upheld.decided_by(), v1::CHIEF_ARBITER);
  EXPECT_TRUE(upheld.sanctions().empty());
  EXPECT_EQ(upheld.note(), "chief arbiter");
  EXPECT_EQ(BlackWarnings(), 1);
  EXPECT_EQ(g_.a().State().penalty_stones().black(), penalty);
}

TEST_P(AppealTest, OverturningLiftsTheWarningAndPenaltyStoneAndKeepsTheOriginal) {
  ASSERT_TRUE(g_.Apply(20, Discussion("BLACK", "WARNING")).ok());
  const v1::Ruling original = g_.rulings()[0];
  ASSERT_TRUE(g_.Apply(30, Lodged(1)).ok());
  ASSERT_TRUE(g_.Apply(40, Decided(1, false)).ok());
  ASSERT_EQ(g_.rulings().size(), 2u);
  EXPECT_EQ(g_.rulings()[0].SerializeAsString(), original.SerializeAsString());
  EXPECT_EQ(g_.rulings()[1].supersedes(), 1u);
  EXPECT_EQ(g_.rulings()[1].warnings(), 0);
  EXPECT_EQ(BlackWarnings(), 0);
  EXPECT_EQ(g_.a().State().penalty_stones().black(), 0);
  // The readable report shows both.
  const std::string text = RenderText(BuildReport(g_.a()), {});
  EXPECT_NE(text.find("appeal on #1: supersedes #1"), std::string::npos) << text;
  EXPECT_NE(text.find("WARNING"), std::string::npos) << text;
}

TEST_P(AppealTest, OverturningTheSecondWarningWithdrawsTheFollowOnLoss) {
  ASSERT_TRUE(g_.Apply(20, Discussion("BLACK", "WARNING")).ok());
  ASSERT_TRUE(g_.Apply(30, Discussion("BLACK", "WARNING")).ok());
  ASSERT_EQ(g_.rulings().size(), 3u);  // the second warning, then 24.2 (1988 25.2)
  ASSERT_NE(g_.a().result(), nullptr);
  EXPECT_EQ(g_.a().result()->reason(), v1::Result::WARNINGS);
  ASSERT_TRUE(g_.Apply(40, Lodged(2)).ok());
  ASSERT_TRUE(g_.Apply(50, Decided(2, false)).ok());
  ASSERT_EQ(g_.rulings().size(), 5u);
  EXPECT_EQ(g_.rulings()[3].supersedes(), 2u);
  EXPECT_EQ(g_.rulings()[4].supersedes(), 3u);
  EXPECT_EQ(g_.rulings()[4].appealed(), 2u);
  EXPECT_EQ(g_.rulings()[4].clause(), g_.rulings()[2].clause());  // 24.2 (1988 25.2)
  EXPECT_EQ(g_.a().result(), nullptr);
  EXPECT_EQ(BlackWarnings(), 1);
  // The game goes on: White's clock restarted at the decision.
  ASSERT_TRUE(g_.a().NextDeadline().has_value());
  EXPECT_EQ(g_.a().NextDeadline()->event.time_expired().color(), v1::WHITE);
  EXPECT_TRUE(g_.Apply(60, Move("WHITE", "D4")).ok());
}

TEST_P(AppealTest, ALossOverturnedAfterConfirmationOf231IsRestoredToTheEarlierResult) {
  ASSERT_TRUE(g_.Apply(20, R"("resign": {"color": "WHITE"})").ok());
  ASSERT_EQ(g_.a().result()->outcome(), v1::Result::BLACK_WINS);
  ASSERT_TRUE(g_.Apply(30, R"("resultConfirmed": {})").ok());
  // 23.1: cheating reopens the confirmed result.
  ASSERT_TRUE(
      g_.Apply(40, R"("misconduct": {"color": "BLACK", "kind": "CHEATING", "decision": "LOSS"})")
          .ok());
  ASSERT_EQ(g_.a().result()->outcome(), v1::Result::WHITE_WINS);
  const int cheating = static_cast<int>(g_.rulings().size());
  ASSERT_TRUE(g_.Apply(50, Lodged(cheating)).ok());
  ASSERT_TRUE(g_.Apply(60, Decided(cheating, false)).ok());
  ASSERT_NE(g_.a().result(), nullptr);
  EXPECT_EQ(g_.a().result()->outcome(), v1::Result::BLACK_WINS);
  EXPECT_EQ(g_.a().result()->reason(), v1::Result::RESIGNATION);
}

TEST_P(AppealTest, ARestoredResultSkipsOneAnOverturnedRulingGave) {
  const std::string cheating =
      R"("misconduct": {"color": "%s", "kind": "CHEATING", "decision": "LOSS"})";
  ASSERT_TRUE(g_.Apply(20, R"("resign": {"color": "WHITE"})").ok());
  ASSERT_TRUE(g_.Apply(30, absl::StrReplaceAll(cheating, {{"%s", "BLACK"}})).ok());  // 1
  ASSERT_TRUE(g_.Apply(40, absl::StrReplaceAll(cheating, {{"%s", "WHITE"}})).ok());  // 2
  ASSERT_EQ(g_.a().result()->ruling(), 2u);
  ASSERT_TRUE(g_.Apply(50, Lodged(1)).ok());
  ASSERT_TRUE(g_.Apply(60, Decided(1, false)).ok());
  EXPECT_EQ(g_.a().result()->ruling(), 2u);  // not the result ruling 1 gave
  ASSERT_TRUE(g_.Apply(70, Lodged(2, "WHITE")).ok());
  ASSERT_TRUE(g_.Apply(80, Decided(2, false)).ok());
  ASSERT_NE(g_.a().result(), nullptr);
  EXPECT_EQ(g_.a().result()->reason(), v1::Result::RESIGNATION);
  EXPECT_EQ(g_.a().result()->outcome(), v1::Result::BLACK_WINS);
}

TEST_P(AppealTest, AConfirmedResultRefusesAppeals) {
  ASSERT_TRUE(g_.Apply(20, Discussion("BLACK", "WARNING")).ok());
  ASSERT_TRUE(g_.Apply(30, R"("resign": {"color": "BLACK"})").ok());
  ASSERT_TRUE(g_.Apply(40, R"("resultConfirmed": {})").ok());
  const absl::Status s = g_.Apply(50, Lodged(1));
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_EQ(g_.Apply(50, R"("resultConfirmed": {})").code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(g_.Apply(50, Move("WHITE", "D4")).code(), absl::StatusCode::kFailedPrecondition);
}

TEST_P(AppealTest, ConfirmationWaitsForAResultAndForLodgedAppeals) {
  EXPECT_EQ(g_.Apply(20, R"("resultConfirmed": {})").code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(g_.Apply(20, Discussion("BLACK", "WARNING")).ok());
  ASSERT_TRUE(g_.Apply(25, Lodged(1)).ok());
  ASSERT_TRUE(g_.Apply(30, R"("resign": {"color": "BLACK"})").ok());
  EXPECT_EQ(g_.Apply(40, R"("resultConfirmed": {})").code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(g_.Apply(50, Decided(1, true)).ok());
  EXPECT_TRUE(g_.Apply(60, R"("resultConfirmed": {})").ok());
}

struct BadAppeal {
  const char* name;
  std::string kind;
  absl::StatusCode code;
};

TEST_P(AppealTest, BadAppealsAreRefusedAndChangeNothing) {
  ASSERT_TRUE(g_.Apply(20, Discussion("BLACK", "WARNING")).ok());                         // 1
  ASSERT_TRUE(g_.Apply(21, R"("misconduct": {"color": "WHITE", "kind": "TALK"})").ok());  // 2
  ASSERT_TRUE(g_.Apply(22, Discussion("WHITE", "WARNING")).ok());                         // 3
  ASSERT_TRUE(g_.Apply(23, Lodged(3, "WHITE")).ok());
  ASSERT_TRUE(g_.Apply(24, Decided(3, true)).ok());  // 4
  ASSERT_TRUE(g_.Apply(25, Lodged(1)).ok());
  ASSERT_TRUE(g_.a().rulings()[1].pending());
  const BadAppeal cases[] = {
      {"no such ruling", Lodged(9), absl::StatusCode::kInvalidArgument},
      {"ruling zero", Lodged(0), absl::StatusCode::kInvalidArgument},
      {"a pending ruling", Lodged(2, "WHITE"), absl::StatusCode::kFailedPrecondition},
      {"already decided on appeal", Lodged(3, "WHITE"), absl::StatusCode::kFailedPrecondition},
      {"the decision on appeal", Lodged(4, "WHITE"), absl::StatusCode::kFailedPrecondition},
      {"lodged twice", Lodged(1), absl::StatusCode::kFailedPrecondition},
      {"no colour", Lodged(1, "COLOR_UNSPECIFIED"), absl::StatusCode::kInvalidArgument},
      {"decided with no appeal", Decided(2, false), absl::StatusCode::kFailedPrecondition},
      {"decided twice", Decided(3, false), absl::StatusCode::kFailedPrecondition},
      {"decision on nothing", Decided(7, true), absl::StatusCode::kInvalidArgument},
  };
  const std::string before = g_.a().State().SerializeAsString();
  const size_t rulings = g_.rulings().size();
  const uint32_t events = g_.a().events();
  for (const BadAppeal& c : cases) {
    const absl::Status s = g_.Apply(30, c.kind);
    EXPECT_EQ(s.code(), c.code) << c.name << ": " << s;
    EXPECT_FALSE(s.message().empty()) << c.name;
    EXPECT_EQ(g_.rulings().size(), rulings) << c.name;
    EXPECT_EQ(g_.a().events(), events) << c.name;
    EXPECT_EQ(g_.a().State().SerializeAsString(), before) << c.name;
  }
}

TEST_P(AppealTest, ABoardCorrectionCannotBeOverturned) {
  ASSERT_TRUE(g_.Apply(20, Move("WHITE", "D4")).ok());
  ASSERT_TRUE(g_.Apply(21, Of("takeback", "WHITE")).ok());
  ASSERT_EQ(g_.rulings().size(), 1u);
  ASSERT_TRUE(g_.Apply(22, Lodged(1, "WHITE")).ok());
  const absl::Status s = g_.Apply(23, Decided(1, false));
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_TRUE(g_.Apply(24, Decided(1, true)).ok());
}

INSTANTIATE_TEST_SUITE_P(BothRulesets, AppealTest, ::testing::Values("cn-2002", "cn-1988"));

// 2002 art. 23.7: a first phone ring is warned, a second loses. Once the
// first is overturned it is held not to have happened, so the next ring is
// a first one again. (1988 refers a ring to the arbiter instead.)
TEST(AppealEscalationTest, AnOverturnedIncidentNoLongerCountsTowardTheNext) {
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(10, Of("phoneRang", "BLACK")).ok());
  ASSERT_EQ(g.rulings().size(), 1u);
  ASSERT_TRUE(g.Apply(20, Lodged(1)).ok());
  ASSERT_TRUE(g.Apply(30, Decided(1, false)).ok());
  ASSERT_TRUE(g.Apply(40, Of("phoneRang", "BLACK")).ok());
  ASSERT_EQ(g.rulings().size(), 3u);
  const v1::Ruling& again = g.rulings()[2];
  EXPECT_EQ(again.clause(), g.rulings()[0].clause());
  EXPECT_EQ(std::vector<int>(again.sanctions().begin(), again.sanctions().end()),
            std::vector<int>(g.rulings()[0].sanctions().begin(), g.rulings()[0].sanctions().end()));
  EXPECT_EQ(g.a().result(), nullptr) << "the second ring was ruled as a first offence's repeat";
  // An upheld first ring still counts: the next one loses.
  ASSERT_TRUE(g.Apply(50, Lodged(3)).ok());
  ASSERT_TRUE(g.Apply(60, Decided(3, true)).ok());
  ASSERT_TRUE(g.Apply(70, Of("phoneRang", "BLACK")).ok());
  ASSERT_NE(g.a().result(), nullptr);
  EXPECT_EQ(g.a().result()->outcome(), v1::Result::WHITE_WINS);
}

}  // namespace
}  // namespace arbiter::testing
