// NextDeadline: when the passing of time alone decides something in a live
// game, and the event the server appends for it.
#include "adjudicator/service/deadline.h"

#include "absl/strings/match.h"
#include "absl/time/time.h"
#include "adjudicator/engine/proto_time.h"
#include "gtest/gtest.h"
#include "rulesdb/rules.h"
#include "tests/service/e2e_util.h"

namespace arbiter::testing {
namespace {

using service::Deadline;
using service::NextDeadline;

Adjudicator Fold(const std::vector<v1::Event>& events) {
  absl::StatusOr<Rules> rules = LoadRules("cn-2002");
  EXPECT_TRUE(rules.ok());
  absl::StatusOr<Adjudicator> a = Adjudicator::Create(*rules);
  EXPECT_TRUE(a.ok());
  for (const v1::Event& e : events) EXPECT_TRUE(a->Apply(e).ok()) << e.DebugString();
  return *std::move(a);
}

v1::Event ByoYomiGame(bool live) {
  v1::Event e = Created("d", T0(), live);
  v1::TimeControl* tc = e.mutable_game_created()->mutable_time_control();
  ToProto(absl::Seconds(10), tc->mutable_main_time());
  tc->mutable_byo_yomi()->set_periods(3);
  ToProto(absl::Seconds(5), tc->mutable_byo_yomi()->mutable_period_time());
  return e;
}

v1::Event Press(absl::Time t, v1::Color c) {
  v1::Event e = At(t);
  e.mutable_clock_press()->set_color(c);
  return e;
}

TEST(DeadlineTest, TheRunningClocksFlagAfterMainTimeAndEveryPeriod) {
  Adjudicator a =
      Fold({ByoYomiGame(true), Started(T0()), MoveAt(T0() + absl::Seconds(4), v1::BLACK, "Q16"),
            Press(T0() + absl::Seconds(4), v1::BLACK)});
  std::optional<Deadline> d = NextDeadline(a);
  ASSERT_TRUE(d.has_value());
  // White's clock runs from 4 s: 10 s main time, then 3 periods of 5 s.
  EXPECT_EQ(d->fire_at, T0() + absl::Seconds(29));
  ASSERT_TRUE(d->event.has_time_expired());
  EXPECT_EQ(d->event.time_expired().color(), v1::WHITE);
  EXPECT_EQ(FromProto(d->event.at()), d->fire_at);
  EXPECT_EQ(d->predicted.against(), v1::Ruling::WHITE);
  EXPECT_TRUE(absl::StartsWith(d->predicted.clause(), "cn-2002/22.5"));
  // Appending the event rules exactly what was predicted.
  absl::StatusOr<std::vector<v1::Ruling>> r = a.Apply(d->event);
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(r->empty());
  EXPECT_EQ(r->front().SerializeAsString(), d->predicted.SerializeAsString());
  ASSERT_NE(a.result(), nullptr);
  EXPECT_EQ(a.result()->reason(), v1::Result::TIME);
  EXPECT_FALSE(NextDeadline(a).has_value());  // over
}

TEST(DeadlineTest, AnUnpressedMoveStartsTheOpponentsClockAtTheMove) {
  Adjudicator a =
      Fold({ByoYomiGame(true), Started(T0()), MoveAt(T0() + absl::Seconds(2), v1::BLACK, "Q16")});
  std::optional<Deadline> d = NextDeadline(a);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->fire_at, T0() + absl::Seconds(27));
  EXPECT_EQ(d->event.time_expired().color(), v1::WHITE);
}

TEST(DeadlineTest, NoneWhenNotLiveNotStartedAdjournedOrUntimed) {
  EXPECT_FALSE(NextDeadline(Fold({ByoYomiGame(false), Started(T0())})).has_value());
  EXPECT_FALSE(NextDeadline(Fold({ByoYomiGame(true)})).has_value());
  v1::Event adjourned = At(T0() + absl::Seconds(3));
  adjourned.mutable_adjourned();
  EXPECT_FALSE(NextDeadline(Fold({ByoYomiGame(true), Started(T0()), adjourned})).has_value());
  EXPECT_FALSE(NextDeadline(Fold({Created("u", T0(), true), Started(T0())})).has_value());
}

TEST(DeadlineTest, LatenessForfeitsOneSecondPastTheLimit) {
  v1::Event created = Created("l", T0(), true);
  created.mutable_game_created()->set_venue(v1::GameCreated::SEPARATE_SITE);
  ToProto(absl::Hours(2),
          created.mutable_game_created()->mutable_time_control()->mutable_main_time());
  v1::Event started = Started(T0());
  started.mutable_game_started()->add_absent(v1::BLACK);
  Adjudicator a = Fold({created, started});
  std::optional<Deadline> d = NextDeadline(a);
  ASSERT_TRUE(d.has_value());
  // The limit itself is in time (one hour, inclusive); one second more loses.
  EXPECT_EQ(d->fire_at, T0() + absl::Hours(1) + absl::Seconds(1));
  EXPECT_EQ(FromProto(d->predicted.at()), T0() + absl::Hours(1));
  EXPECT_EQ(d->predicted.clause(), "cn-2002/22.1");
  ASSERT_TRUE(a.Apply(d->event).ok());
  ASSERT_NE(a.result(), nullptr);
  EXPECT_EQ(a.result()->reason(), v1::Result::LATENESS);
  EXPECT_EQ(a.result()->outcome(), v1::Result::WHITE_WINS);
}

}  // namespace
}  // namespace arbiter::testing
