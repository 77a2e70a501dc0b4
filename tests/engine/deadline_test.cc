// Adjudicator::NextDeadline: the instant time alone next decides something,
// and the event that records it, under both rulesets. Each case also checks
// the prediction against the fold itself: nothing is ruled by time one
// second before `at`, and appending `event` rules `instant` first.
#include <optional>
#include <string>
#include <vector>

#include "adjudicator/engine/proto_time.h"
#include "tests/engine/engine_test_util.h"

namespace arbiter::testing {
namespace {

absl::Time T(int seconds) { return absl::FromUnixSeconds(UnixAt(seconds)); }

// NextDeadline is what the server's timekeeper runs a live game's clocks by;
// in a game recorded without its moves time alone decides nothing (the
// record cannot say whose clock runs), so each game here is live.
std::string LiveCreated(
    const std::string& ruleset, const std::string& venue = "SAME_SITE",
    const std::string& time_control =
        R"({"mainTime": "3600s", "byoYomi": {"periods": 5, "periodTime": "60s"}})") {
  return Created(ruleset, venue, time_control, R"("live": true)");
}

class DeadlineTest : public ::testing::TestWithParam<std::string> {
 protected:
  // Checks `d` against the fold: returns the first ruling `d->event` makes.
  static v1::Ruling Confirm(Game& g, const Adjudicator::Deadline& d) {
    // Nothing is due a second before (a returnedSeat settles time only).
    Adjudicator before = g.a();
    v1::Event quiet;
    ToProto(d.at - absl::Seconds(1), quiet.mutable_at());
    quiet.mutable_returned_seat()->set_color(v1::BLACK);
    absl::StatusOr<std::vector<v1::Ruling>> none = before.Apply(quiet);
    EXPECT_TRUE(none.ok()) << none.status();
    if (none.ok()) {
      EXPECT_TRUE(none->empty()) << none->front().DebugString();
    }

    EXPECT_EQ(FromProto(d.event.at()), d.at);
    absl::StatusOr<std::vector<v1::Ruling>> r = g.a().Apply(d.event);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok() || r->empty()) return v1::Ruling();
    EXPECT_EQ(FromProto(r->front().at()), d.instant);
    return r->front();
  }
};

TEST_P(DeadlineTest, ByoYomiFlagsAfterMainTimeAndEveryPeriod) {
  Game g(GetParam());
  ASSERT_TRUE(g.Apply(0, LiveCreated(GetParam())).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(20, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(20, Of("clockPress", "BLACK")).ok());
  std::optional<Adjudicator::Deadline> d = g.a().NextDeadline();
  ASSERT_TRUE(d.has_value());
  // White's clock runs from 20 s: 3600 s main time, then 5 periods of 60 s,
  // the last used up at exactly its length (exact periods count).
  EXPECT_EQ(d->instant, T(20 + 3600 + 300));
  EXPECT_EQ(d->at, d->instant);
  EXPECT_EQ(d->event.time_expired().color(), v1::WHITE);
  const v1::Ruling r = Confirm(g, *d);
  EXPECT_EQ(r.against(), v1::Ruling::WHITE);
  ASSERT_NE(g.a().result(), nullptr);
  EXPECT_EQ(g.a().result()->reason(), v1::Result::TIME);
  EXPECT_FALSE(g.a().NextDeadline().has_value());  // over
}

TEST_P(DeadlineTest, AnUnpressedMoveRunsTheOpponentsClockFromTheMove) {
  Game g(GetParam());
  ASSERT_TRUE(g.Apply(0, LiveCreated(GetParam())).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(30, Move("BLACK", "Q16")).ok());
  std::optional<Adjudicator::Deadline> d = g.a().NextDeadline();
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->instant, T(30 + 3900));
  EXPECT_EQ(d->event.time_expired().color(), v1::WHITE);
  EXPECT_EQ(Confirm(g, *d).against(), v1::Ruling::WHITE);
}

TEST_P(DeadlineTest, AbsoluteTimeFlagsWhenMainTimeRunsOut) {
  Game g(GetParam());
  ASSERT_TRUE(g.Apply(0, LiveCreated(GetParam(), "SAME_SITE", R"({"mainTime": "600s"})")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(100, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(100, Of("clockPress", "BLACK")).ok());
  ASSERT_TRUE(g.Apply(150, Move("WHITE", "D4")).ok());
  ASSERT_TRUE(g.Apply(150, Of("clockPress", "WHITE")).ok());
  std::optional<Adjudicator::Deadline> d = g.a().NextDeadline();
  ASSERT_TRUE(d.has_value());
  // Black used 100 s of 600 and runs again from 150 s.
  EXPECT_EQ(d->instant, T(150 + 500));
  EXPECT_EQ(d->event.time_expired().color(), v1::BLACK);
  const v1::Ruling r = Confirm(g, *d);
  EXPECT_EQ(r.against(), v1::Ruling::BLACK);
  ASSERT_NE(g.a().result(), nullptr);
  EXPECT_EQ(g.a().result()->outcome(), v1::Result::WHITE_WINS);
}

TEST_P(DeadlineTest, MovesInTimeFlagsWhenThePeriodRunsOut) {
  Game g(GetParam());
  ASSERT_TRUE(
      g.Apply(0,
              LiveCreated(GetParam(), "SAME_SITE",
                          R"({"mainTime": "0s", "movesInTime": {"moves": 10, "period": "300s"}})"))
          .ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(g.Apply(40, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(40, Of("clockPress", "BLACK")).ok());
  ASSERT_TRUE(g.Apply(50, Move("WHITE", "D4")).ok());
  ASSERT_TRUE(g.Apply(50, Of("clockPress", "WHITE")).ok());
  std::optional<Adjudicator::Deadline> d = g.a().NextDeadline();
  ASSERT_TRUE(d.has_value());
  // Black has 260 s of the period left for 9 moves.
  EXPECT_EQ(d->instant, T(50 + 260));
  EXPECT_EQ(d->event.time_expired().color(), v1::BLACK);
  EXPECT_EQ(Confirm(g, *d).against(), v1::Ruling::BLACK);
}

TEST_P(DeadlineTest, AnAbsentPlayerForfeitsOneSecondPastTheLimit) {
  Game g(GetParam());
  ASSERT_TRUE(g.Apply(0, LiveCreated(GetParam(), "SAME_SITE")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {"absent": ["WHITE"]})").ok());
  ASSERT_TRUE(g.Apply(5, Move("BLACK", "Q16")).ok());
  ASSERT_TRUE(g.Apply(5, Of("clockPress", "BLACK")).ok());
  std::optional<Adjudicator::Deadline> d = g.a().NextDeadline();
  ASSERT_TRUE(d.has_value());
  // 15 minutes at the same site, inclusive: the limit itself is in time.
  EXPECT_EQ(d->instant, T(900));
  EXPECT_EQ(d->at, T(901));
  EXPECT_EQ(d->event.time_expired().color(), v1::WHITE);
  const v1::Ruling r = Confirm(g, *d);
  EXPECT_EQ(r.against(), v1::Ruling::WHITE);
  ASSERT_NE(g.a().result(), nullptr);
  EXPECT_EQ(g.a().result()->reason(), v1::Result::LATENESS);
}

TEST_P(DeadlineTest, BothAbsentLoseTogether) {
  Game g(GetParam());
  ASSERT_TRUE(g.Apply(0, LiveCreated(GetParam(), "SEPARATE_SITE")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {"absent": ["BLACK", "WHITE"]})").ok());
  std::optional<Adjudicator::Deadline> d = g.a().NextDeadline();
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->instant, T(3600));
  EXPECT_EQ(d->at, T(3601));
  EXPECT_EQ(Confirm(g, *d).against(), v1::Ruling::BOTH);
}

TEST_P(DeadlineTest, AFlagBeforeTheLimitComesFirst) {
  Game g(GetParam());
  ASSERT_TRUE(g.Apply(0, LiveCreated(GetParam(), "SEPARATE_SITE", R"({"mainTime": "600s"})")).ok());
  ASSERT_TRUE(g.Apply(0, R"("gameStarted": {"absent": ["WHITE"]})").ok());
  std::optional<Adjudicator::Deadline> d = g.a().NextDeadline();
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->instant, T(600));  // Black's flag, before White's limit
  EXPECT_EQ(d->event.time_expired().color(), v1::BLACK);
  EXPECT_EQ(Confirm(g, *d).against(), v1::Ruling::BLACK);
}

TEST_P(DeadlineTest, NoneBeforeTheStartWhileAdjournedOrUntimed) {
  Game created(GetParam());
  ASSERT_TRUE(created.Apply(0, LiveCreated(GetParam())).ok());
  EXPECT_FALSE(created.a().NextDeadline().has_value());

  Game adjourned(GetParam());
  ASSERT_TRUE(adjourned.Apply(0, LiveCreated(GetParam())).ok());
  ASSERT_TRUE(adjourned.Apply(0, R"("gameStarted": {})").ok());
  ASSERT_TRUE(adjourned.Apply(10, R"("adjourned": {})").ok());
  EXPECT_FALSE(adjourned.a().NextDeadline().has_value());
  ASSERT_TRUE(adjourned.Apply(100, R"("resumed": {})").ok());
  std::optional<Adjudicator::Deadline> d = adjourned.a().NextDeadline();
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->instant, T(100 + 3900 - 10));  // the 10 s before stay used

  Game untimed(GetParam());
  ASSERT_TRUE(untimed.Apply(0, LiveCreated(GetParam(), "SAME_SITE", "")).ok());
  ASSERT_TRUE(untimed.Apply(0, R"("gameStarted": {})").ok());
  EXPECT_FALSE(untimed.a().NextDeadline().has_value());
}

INSTANTIATE_TEST_SUITE_P(BothRulesets, DeadlineTest, ::testing::Values("cn-2002", "cn-1988"));

}  // namespace
}  // namespace arbiter::testing
