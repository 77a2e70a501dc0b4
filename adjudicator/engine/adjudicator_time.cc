// Reported flag falls and clock malfunctions (arts. 12.4, 22.5, 22.8).
// Each handler checks first, then changes state: a handler that returns an
// error has changed nothing.
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/proto_time.h"

namespace arbiter {

absl::Status Adjudicator::OnTimeExpired(const v1::TimeExpired& t) {
  const v1::Color c = t.color();
  if (absl::Status s = CheckColor(c, "timeExpired.color"); !s.ok()) return s;
  EnsureStarted();
  SettleTime(false);  // lateness may precede; the flag is this event's
  if (result_.has_value()) return absl::OkStatus();
  if (awaiting_press_ && c != clock_owner_) PressClock(move_at_);
  PlayerClock& clock = clocks_[Index(c)];
  // When our clock already shows the flag down, it fell at its own instant;
  // otherwise the report is the flag fall.
  absl::Time when = at_;
  PlayerClock now = clock;
  const bool runs = clocks_running_ && c == clock_owner_;
  if (runs) {
    const absl::Duration elapsed = TurnElapsed(at_);
    if (clock.Expired(elapsed)) when = turn_start_ + (clock.FlagOffset() - turn_carry_);
    now.ChargePartial(elapsed);
  }
  const bool last_period = clock.mode() == PlayerClock::Mode::kByoYomi &&
                           (now.flagged() || (now.in_overtime() && now.periods_remaining() <= 1));
  if (t.pass_requested() && last_period && rules_.params().pass_on_timeout() && c == to_move_ &&
      consecutive_passes_ < 2) {
    const int index = Rule(v1::TIME_EXPIRED_PASS_REQUESTED, c, when);
    if (Imposed(index, v1::COUNTS_AS_PASS) && !result_.has_value()) {
      // 22.5: the flag becomes a pass and the last period starts again.
      clock.RestartLastPeriod();
      if (runs) {
        turn_start_ = at_;
        turn_carry_ = absl::ZeroDuration();
      }
      PlayPass(c);
      if (clocks_running_) PressClock(at_);
    }
    return absl::OkStatus();
  }
  clock.Flag();
  if (runs) {
    turn_start_ = when;
    turn_carry_ = absl::ZeroDuration();
  }
  const bool overtime = clock.mode() == PlayerClock::Mode::kByoYomi ||
                        clock.mode() == PlayerClock::Mode::kMovesInTime;
  Rule(overtime ? v1::TIME_EXPIRED : v1::TIME_EXPIRED_NO_OVERTIME, c, when);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnClockMalfunction(const v1::ClockMalfunction& m) {
  for (const auto* d : {&m.error_per_hour(), &m.black_used(), &m.white_used()}) {
    if (absl::Status s = CheckDuration(*d, "clockMalfunction durations"); !s.ok()) return s;
  }
  const absl::Duration black_shown = FromProto(m.black_used());
  const absl::Duration white_shown = FromProto(m.white_used());
  const v1::Parameters& params = rules_.params();
  const bool prorate =
      params.has_clock_error_tolerance_per_hour() &&
      FromProto(m.error_per_hour()) >= FromProto(params.clock_error_tolerance_per_hour());
  if (prorate && black_shown + white_shown <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("clockMalfunction: blackUsed and whiteUsed are both zero");
  }
  SettleTime(true);
  if (result_.has_value() || !prorate) return absl::OkStatus();
  const int index = Rule(v1::CLOCK_MALFUNCTION_PRORATED, v1::COLOR_UNSPECIFIED);
  if (index < 0 || rulings_[index].pending() || result_.has_value()) return absl::OkStatus();
  // 22.8: the time really used by both (known exactly from the events) is
  // shared in the proportion of the faulty clock's readings.
  if (awaiting_press_) PressClock(move_at_);
  const absl::Duration running = started_ ? TurnElapsed(at_) : absl::ZeroDuration();
  const absl::Duration total = clocks_[0].used() + clocks_[1].used() + running;
  const double black_share = absl::FDivDuration(black_shown, black_shown + white_shown);
  const absl::Duration target[2] = {
      absl::Trunc(total * black_share, absl::Milliseconds(1)),
      total - absl::Trunc(total * black_share, absl::Milliseconds(1))};
  for (const v1::Color c : {v1::BLACK, v1::WHITE}) {
    // The running turn stays on the clock; the rest is set to the share.
    const absl::Duration in_turn = started_ && clock_owner_ == c ? running : absl::ZeroDuration();
    const absl::Duration delta = target[Index(c)] - in_turn - clocks_[Index(c)].used();
    if (delta > absl::ZeroDuration()) clocks_[Index(c)].Deduct(delta);
    if (delta < absl::ZeroDuration()) clocks_[Index(c)].Credit(-delta);
  }
  return absl::OkStatus();
}

}  // namespace arbiter
