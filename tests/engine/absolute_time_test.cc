// Absolute time (包干用时制, 2002 art. 12.4): items (4) giving up the contest on
// the board, (6) a clock failure and (7) time-wasting, as the latest versions
// encode them. 2002.1, 1988 and games with byo-yomi do otherwise.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "adjudicator/engine/point.h"
#include "gtest/gtest.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

const std::string kAbsolute = R"({"mainTime": "3600s"})";

// Black walls columns A-J, White walls L-T: column K (19 points) touches
// both, the contested points (双方可争之点).
std::string GapSetup() {
  std::vector<std::string> black, white;
  for (int row = 1; row <= 19; ++row) {
    black.push_back(absl::StrCat("\"", PointName(VertexAt(8, row, 19), 19), "\""));
    white.push_back(absl::StrCat("\"", PointName(VertexAt(10, row, 19), 19), "\""));
  }
  return absl::StrCat(R"("setup": {"black": [)", absl::StrJoin(black, ", "), R"(], "white": [)",
                      absl::StrJoin(white, ", "), "]}");
}

// The gap position under `rules` in absolute time, started at 0.
void Start(Game& g, const std::string& ruleset, const std::string& time_control = kAbsolute) {
  ASSERT_TRUE(g.Apply(0, Created(ruleset, "SAME_SITE", time_control, GapSetup())).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
}

TEST(ContestAbandonedTest, TheContestedPointsGoToTheOpponentAtTheCount) {
  // Shared as usual: Black has columns A-J (171) and half of K (9.5).
  Game shared("cn-2002");
  Start(shared, "cn-2002");
  ASSERT_TRUE(shared.Apply(10, Of("pass", "BLACK")).ok());
  ASSERT_TRUE(shared.Apply(20, Of("pass", "WHITE")).ok());
  ASSERT_TRUE(shared.Apply(30, R"("deadStones": {})").ok());
  EXPECT_DOUBLE_EQ(shared.a().result()->black_count(), 180.5);
  EXPECT_EQ(shared.a().result()->clause(), "cn-2002/9");

  // Black (to move) gives up the contest: column K goes to White.
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(100, Of("contestAbandoned", "BLACK")).ok());
  EXPECT_TRUE(g.rulings().empty());  // the event is the record
  EXPECT_EQ(g.a().result(), nullptr);
  // The timing stops (允许终止计时) and play has ended.
  EXPECT_FALSE(g.a().State().clocks().black().running());
  EXPECT_FALSE(g.a().State().clocks().white().running());
  EXPECT_EQ(g.a().State().clocks().black().used().seconds(), 100);
  const absl::Status move = g.Apply(110, Move("BLACK", "K10"));
  EXPECT_EQ(move.code(), absl::StatusCode::kFailedPrecondition) << move;
  EXPECT_EQ(g.Apply(110, Of("pass", "WHITE")).code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(g.Apply(200, R"("deadStones": {})").ok());
  const v1::Result& r = *g.a().result();
  EXPECT_EQ(r.reason(), v1::Result::COUNT);
  EXPECT_DOUBLE_EQ(r.black_count(), 171);
  EXPECT_EQ(r.outcome(), v1::Result::WHITE_WINS);
  EXPECT_DOUBLE_EQ(r.margin_stones(), 13.25);  // 180.5 - 171 + 3¾
  EXPECT_EQ(r.clause(), "cn-2002/12.4.4");
  EXPECT_EQ(std::vector<std::string>(r.also_cites().begin(), r.also_cites().end()),
            (std::vector<std::string>{"cn-2002/9", "cn-2002/11"}));
}

TEST(ContestAbandonedTest, OnlyThePlayerToMoveInAbsoluteTimeUnderAClauseForIt) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  EXPECT_EQ(g.Apply(10, Of("contestAbandoned", "WHITE")).code(),
            absl::StatusCode::kFailedPrecondition);  // Black is to move
  Game byo("cn-2002");
  Start(byo, "cn-2002", R"({"mainTime": "3600s", "byoYomi": {"periods": 5, "periodTime": "60s"}})");
  const absl::Status s = byo.Apply(10, Of("contestAbandoned", "BLACK"));
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("absolute time"), absl::string_view::npos) << s;
  for (const char* ruleset : {"cn-1988"}) {
    Game old(ruleset);
    Start(old, ruleset);
    const absl::Status no_clause = old.Apply(10, Of("contestAbandoned", "BLACK"));
    EXPECT_EQ(no_clause.code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_NE(no_clause.message().find("no clause"), absl::string_view::npos) << no_clause;
  }
  Game first(*LoadRulesVersion("cn-2002", "2002.1"));
  Start(first, "cn-2002");
  EXPECT_EQ(first.Apply(10, Of("contestAbandoned", "BLACK")).code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(ClockFailedTest, TheChiefArbiterMayRuleALossOnTimeAgainstOnePlayer) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "K10")).ok());
  ASSERT_TRUE(
      g.Apply(
           20,
           R"("clockMalfunction": {"errorPerHour": "30s", "blackUsed": "10s", "whiteUsed": "10s"})")
          .ok());
  ASSERT_EQ(g.rulings().size(), 1u);
  const v1::Ruling& pending = g.rulings()[0];
  EXPECT_EQ(pending.clause(), "cn-2002/12.4.6");
  EXPECT_EQ(pending.against(), v1::Ruling::BOTH);
  EXPECT_TRUE(pending.pending());
  EXPECT_EQ(pending.decided_by(), v1::CHIEF_ARBITER);
  ASSERT_TRUE(
      g.Apply(
           30,
           R"("arbiterDecision": {"ruling": 1, "choice": "WHITE_LOSES", "note": "白方钟面已超时"})")
          .ok());
  ASSERT_EQ(g.rulings().size(), 2u);
  EXPECT_EQ(g.rulings()[1].against(), v1::Ruling::WHITE);
  EXPECT_EQ(g.rulings()[1].sanctions(0), v1::LOSS);
  const v1::Result& r = *g.a().result();
  EXPECT_EQ(r.outcome(), v1::Result::BLACK_WINS);
  EXPECT_EQ(r.reason(), v1::Result::TIME);
  EXPECT_EQ(r.sgf(), "B+T");
}

TEST(ClockFailedTest, ReplacingTheClockLeavesTheTimesAsTheEventsTimedThem) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(100, Move("BLACK", "K10")).ok());
  ASSERT_TRUE(
      g.Apply(
           150,
           R"("clockMalfunction": {"errorPerHour": "600s", "blackUsed": "400s", "whiteUsed": "10s"})")
          .ok());
  ASSERT_TRUE(g.Apply(160, R"("arbiterDecision": {"ruling": 1, "choice": "REPLACE_CLOCK"})").ok());
  EXPECT_EQ(g.a().result(), nullptr);
  EXPECT_TRUE(g.rulings()[1].sanctions().empty());
  EXPECT_EQ(g.a().State().clocks().black().used().seconds(), 100);  // not prorated (22.8)
  EXPECT_EQ(g.a().State().clocks().white().used().seconds(), 60);
}

TEST(TimeWastingTest, StoppedIsTheChiefArbitersAdvice) {
  Game g("cn-2002");
  Start(g, "cn-2002");
  ASSERT_TRUE(g.Apply(10, Move("BLACK", "K10")).ok());
  ASSERT_TRUE(g.Apply(20, Of("timeWasting", "WHITE")).ok());
  ASSERT_TRUE(g.Apply(25, R"("arbiterDecision": {"ruling": 1, "choice": "STOPPED"})").ok());
  ASSERT_EQ(g.rulings().size(), 2u);
  EXPECT_EQ(g.rulings()[1].clause(), "cn-2002/12.4.7");
  EXPECT_EQ(g.rulings()[1].against(), v1::Ruling::WHITE);
  EXPECT_EQ(g.rulings()[1].sanctions(0), v1::ADVICE);
  EXPECT_EQ(g.a().State().warnings().white(), 0);
  EXPECT_EQ(g.a().result(), nullptr);
}

}  // namespace
}  // namespace arbiter::testing
