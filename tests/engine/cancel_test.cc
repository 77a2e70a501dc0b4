// A game created by mistake (DOMAIN.md §3.2): `gameCancelled {reason}`, the
// chief arbiter's, keeps the game in the record, stops it, and refuses
// everything after it but a correction.
#include <string>
#include <vector>

#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

v1::Event Cancel(int seconds, v1::Authority authority, const std::string& reason = "wrong pair") {
  v1::Event e = Ev(seconds, absl::StrCat(R"("gameCancelled": {"reason": ")", reason, R"("})"));
  e.set_authority(authority);
  return e;
}

TEST(CancelTest, TheChiefArbiterCancelsAndNothingButACorrectionFollows) {
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(60, Of("phoneRang", "BLACK")).ok());
  ASSERT_TRUE(g.Apply(Cancel(120, v1::CHIEF_ARBITER)).ok());
  EXPECT_TRUE(g.a().cancelled());
  EXPECT_EQ(g.a().cancel_reason(), "wrong pair");
  EXPECT_TRUE(g.a().State().cancelled());
  EXPECT_EQ(g.a().State().cancelled_reason(), "wrong pair");
  EXPECT_EQ(g.rulings().size(), 1u);  // what was ruled stays; cancelling rules nothing
  EXPECT_EQ(g.a().result(), nullptr);
  EXPECT_FALSE(g.a().NextDeadline().has_value());
  for (const std::string& kind :
       {Of("resign", "WHITE"), std::string(R"("countRecorded": {"blackCount": 185})"),
        Of("phoneRang", "WHITE")}) {
    const absl::Status s = g.Apply(180, kind);
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << kind;
    EXPECT_NE(s.message().find("cancelled (wrong pair)"), std::string::npos) << s;
  }
  EXPECT_EQ(g.Apply(Cancel(180, v1::CHIEF_ARBITER)).code(), absl::StatusCode::kFailedPrecondition);
  // Voiding the cancellation restores the game.
  v1::Event fix = Ev(240, R"("eventVoided": {"event": 4, "reason": "the right game"})");
  fix.set_authority(v1::CHIEF_ARBITER);
  ASSERT_TRUE(g.Apply(fix).ok());
  EXPECT_FALSE(g.a().cancelled());
  ASSERT_TRUE(g.Apply(300, Of("resign", "WHITE")).ok());
  EXPECT_EQ(g.a().result()->sgf(), "B+R");
}

TEST(CancelTest, RefusedToAnArbiterAndWithoutAReason) {
  Game g("cn-2002");
  ASSERT_TRUE(g.Apply(0, Created("cn-2002")).ok());
  EXPECT_EQ(g.Apply(Cancel(60, v1::ARBITER)).code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(g.Apply(Cancel(60, v1::CHIEF_ARBITER, "")).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(g.a().cancelled());
  EXPECT_EQ(g.a().events(), 1u);
}

TEST(CancelTest, AFinishedGameCanBeCancelledAndIsJudgedAlikeAgain) {
  std::vector<v1::Event> events = {Ev(0, Created("cn-2002")), Ev(60, Of("resign", "BLACK")),
                                   Cancel(120, v1::CHIEF_ARBITER)};
  Game g("cn-2002");
  for (const v1::Event& e : events) ASSERT_TRUE(g.Apply(e).ok());
  EXPECT_TRUE(g.a().cancelled());
  EXPECT_NE(g.a().result(), nullptr);  // the record keeps what happened
  Game again("cn-2002");
  for (const v1::Event& e : events) ASSERT_TRUE(again.Apply(e).ok());
  EXPECT_EQ(again.a().State().SerializeAsString(), g.a().State().SerializeAsString());
}

}  // namespace
}  // namespace arbiter::testing
