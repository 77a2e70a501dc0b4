#include "adjudicator/engine/clock.h"

#include <algorithm>
#include <cstdint>

#include "adjudicator/engine/proto_time.h"

namespace arbiter {

PlayerClock::PlayerClock(const v1::TimeControl& tc, bool exact_period_counts,
                         bool over_when_exceeded)
    : exact_period_counts_(exact_period_counts),
      over_when_exceeded_(over_when_exceeded),
      main_(FromProto(tc.main_time())) {
  const absl::Duration byo = FromProto(tc.byo_yomi().period_time());
  const absl::Duration mit = FromProto(tc.moves_in_time().period());
  if (tc.byo_yomi().periods() > 0 && byo > absl::ZeroDuration()) {
    mode_ = Mode::kByoYomi;
    period_time_ = byo;
    periods_ = tc.byo_yomi().periods();
  } else if (tc.moves_in_time().moves() > 0 && mit > absl::ZeroDuration()) {
    mode_ = Mode::kMovesInTime;
    period_time_ = mit;
    quota_ = moves_left_ = tc.moves_in_time().moves();
    period_left_ = mit;
  } else if (main_ > absl::ZeroDuration()) {
    mode_ = Mode::kAbsolute;
  }
}

absl::Duration PlayerClock::FlagOffset() const {
  switch (mode_) {
    case Mode::kUntimed:
      return absl::InfiniteDuration();
    case Mode::kAbsolute:
      return main_;
    case Mode::kByoYomi:
      // With exact_period_counts the last period is used up at exactly
      // periods × period time; otherwise only strictly after it, which the
      // adjudicator sees as a turn ending past this offset.
      return main_ + periods_ * period_time_;
    case Mode::kMovesInTime:
      return main_ + period_left_;
  }
  return absl::InfiniteDuration();
}

bool PlayerClock::Expired(absl::Duration elapsed) const {
  const absl::Duration flag = FlagOffset();
  if (mode_ == Mode::kByoYomi && !exact_period_counts_) return elapsed > flag;
  if (mode_ == Mode::kAbsolute && over_when_exceeded_) return elapsed > flag;
  return elapsed >= flag;
}

void PlayerClock::ChargePartial(absl::Duration t) { Spend(t, exact_period_counts_); }

void PlayerClock::ChargeTurn(absl::Duration t) {
  const bool was_overtime = in_overtime();
  const absl::Duration main_before = main_;
  ChargePartial(t);
  if (mode_ != Mode::kMovesInTime || flagged_) return;
  // A move counts toward the quota only when made in the moves-in-time
  // period, i.e. when the turn ended after the main time ran out.
  if (!was_overtime && t <= main_before) return;
  if (--moves_left_ == 0) {
    moves_left_ = quota_;
    period_left_ += period_time_;  // 12.5: unused time carries over
  }
}

// A deduction takes whole periods: a remainder shorter than a period is not
// a move that reached the period time.
void PlayerClock::Deduct(absl::Duration t) { Spend(t, /*exact_period_counts=*/true); }

void PlayerClock::Spend(absl::Duration t, bool exact_period_counts) {
  used_ += t;
  if (mode_ == Mode::kUntimed) return;
  if (t <= main_) {
    main_ -= t;
    return;
  }
  const absl::Duration over = t - main_;
  main_ = absl::ZeroDuration();
  switch (mode_) {
    case Mode::kAbsolute:
      flagged_ = true;
      break;
    case Mode::kByoYomi: {
      absl::Duration rem;
      int64_t spent = absl::IDivDuration(over, period_time_, &rem);
      if (!exact_period_counts && spent > 0 && rem == absl::ZeroDuration()) --spent;
      periods_ -= static_cast<int>(std::min<int64_t>(spent, periods_));
      if (periods_ == 0) flagged_ = true;
      break;
    }
    case Mode::kMovesInTime:
      period_left_ -= over;
      if (period_left_ <= absl::ZeroDuration()) {
        period_left_ = absl::ZeroDuration();
        flagged_ = true;
      }
      break;
    case Mode::kUntimed:
      break;
  }
}

void PlayerClock::Credit(absl::Duration t) {
  used_ -= t;
  if (mode_ != Mode::kUntimed) main_ += t;
  flagged_ = false;
}

void PlayerClock::Flag() {
  if (mode_ == Mode::kUntimed) return;
  used_ += FlagOffset();
  main_ = absl::ZeroDuration();
  if (mode_ == Mode::kByoYomi) periods_ = 0;
  if (mode_ == Mode::kMovesInTime) period_left_ = absl::ZeroDuration();
  flagged_ = true;
}

void PlayerClock::RestartLastPeriod() {
  flagged_ = false;
  main_ = absl::ZeroDuration();
  if (mode_ == Mode::kByoYomi) periods_ = 1;
  if (mode_ == Mode::kMovesInTime) {
    moves_left_ = quota_;
    period_left_ = period_time_;
  }
}

v1::Clock PlayerClock::ToProto(bool running) const {
  v1::Clock c;
  if (mode_ != Mode::kUntimed) arbiter::ToProto(main_, c.mutable_main_remaining());
  if (mode_ == Mode::kByoYomi) {
    c.set_periods_remaining(periods_);
    arbiter::ToProto(period_time_, c.mutable_period_time());
  }
  if (mode_ == Mode::kMovesInTime) {
    c.set_moves_remaining(moves_left_);
    arbiter::ToProto(period_left_, c.mutable_period_remaining());
    arbiter::ToProto(period_time_, c.mutable_period_time());
  }
  c.set_running(running);
  arbiter::ToProto(used_, c.mutable_used());
  return c;
}

}  // namespace arbiter
