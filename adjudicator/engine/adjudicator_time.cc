// Reported flag falls and clock malfunctions (arts. 12.4, 22.5, 22.8, 22.9).
// Each handler checks first, then changes state: a handler that returns an
// error has changed nothing.
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/proto_time.h"

namespace arbiter {

absl::Status Adjudicator::CheckFlagReport(v1::Color c) const {
  // A lateness limit passed: the report (the server names the absent
  // player, or Black for both) is of that forfeit, which is ruled first.
  if (started_ && lateness_.OverdueAt(at_).has_value()) return absl::OkStatus();
  if (clocks_.clock(c).mode() == PlayerClock::Mode::kUntimed) {
    return absl::InvalidArgumentError(
        "timeExpired: the record shows an untimed game (no timeControl), so no flag can fall");
  }
  // Only the clock of the player to move runs (a mover who has not pressed
  // is taken to have pressed at the move); before the start, Black's will.
  // In a game recorded without its moves the record cannot say whose clock
  // runs (ClockKnown): the arbiter's report is taken as it is.
  const bool stopped = started_ && !clocks_.running();
  if ((c != to_move_ && ClockKnown()) || stopped) {
    return absl::InvalidArgumentError(absl::StrCat(
        "timeExpired: the record shows ", v1::Color_Name(c), "'s clock is not running (",
        stopped ? "the clocks are stopped" : absl::StrCat(v1::Color_Name(to_move_), " to move"),
        "), so their flag cannot fall"));
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnTimeExpired(const v1::TimeExpired& t) {
  const v1::Color c = t.color();
  if (absl::Status s = CheckColor(c, "timeExpired.color"); !s.ok()) return s;
  if (absl::Status s = CheckFlagReport(c); !s.ok()) return s;
  EnsureStarted();
  SettleTime(false);  // lateness may precede; the flag is this event's
  if (result_.has_value()) return absl::OkStatus();
  if (clocks_.awaiting_press() && c != clocks_.owner()) clocks_.Press(clocks_.move_at());
  PlayerClock& clock = clocks_.clock(c);
  // When our clock already shows the flag down, it fell at its own instant;
  // otherwise the report is the flag fall.
  absl::Time when = at_;
  PlayerClock now = clock;
  const bool runs = clocks_.running() && c == clocks_.owner();
  // In a game recorded without its moves the clocks cannot say when the flag
  // fell nor which period runs: the arbiter's report does.
  const bool known = ClockKnown();
  if (runs) {
    const absl::Duration elapsed = clocks_.TurnElapsed(at_);
    if (known && clock.Expired(elapsed))
      when = clocks_.turn_start() + (clock.FlagOffset() - clocks_.turn_carry());
    now.ChargePartial(elapsed);
    // 12.4(6): a flag the record's clock disagrees with is the chief
    // arbiter's to read, where the ruleset says how far it may disagree.
    const v1::Parameters& params = rules_.params();
    if (known && params.has_flag_dispute_margin() && !clock.flagged() &&
        clock.FlagOffset() - elapsed > FromProto(params.flag_dispute_margin()) &&
        rules_.Find(v1::FLAG_DISPUTED, 1, game_.venue()) != nullptr) {
      Rule(v1::FLAG_DISPUTED, c);
      return absl::OkStatus();
    }
  }
  const bool last_period =
      clock.mode() == PlayerClock::Mode::kByoYomi &&
      (!known || now.flagged() || (now.in_overtime() && now.periods_remaining() <= 1));
  // Without the moves the record knows who is to move only from Black's
  // first turn: where the ruleset says so (DOMAIN.md §3.3), the arbiter's
  // report names the player whose clock ran, either player.
  const bool on_move =
      c == to_move_ || (!known && rules_.params().unrecorded_flag_pass_either_player());
  if (t.pass_requested() && last_period && rules_.params().pass_on_timeout() && on_move &&
      consecutive_passes_ < 2) {
    const int index = Rule(v1::TIME_EXPIRED_PASS_REQUESTED, c, when);
    if (Imposed(index, v1::COUNTS_AS_PASS) && !result_.has_value()) {
      // 22.5: the flag becomes a pass and the last period starts again.
      clock.RestartLastPeriod();
      if (runs) clocks_.RestartTurn(at_);
      // The report is the record that the turn was the reporter's.
      if (c != to_move_ && clocks_.running()) clocks_.TurnFound(at_, c);
      PlayPass(c);
      if (clocks_.running()) clocks_.Press(at_);
    }
    return absl::OkStatus();
  }
  clock.Flag();
  if (runs) clocks_.RestartTurn(when);
  Rule(FlagIncident(c), c, when);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnClockMalfunction(const v1::ClockMalfunction& m) {
  for (const auto* d : {&m.error_per_hour(), &m.black_used(), &m.white_used()}) {
    if (absl::Status s = CheckDuration(*d, "clockMalfunction durations"); !s.ok()) return s;
  }
  // 12.4(6): in absolute time the chief arbiter decides what a failed clock
  // means, where the ruleset has that clause; 22.8 otherwise.
  if (clocks_.Absolute() && rules_.Find(v1::CLOCK_FAILED_ABSOLUTE, 1, game_.venue()) != nullptr) {
    SettleTime(true);
    if (!result_.has_value()) Rule(v1::CLOCK_FAILED_ABSOLUTE, v1::COLOR_UNSPECIFIED);
    return absl::OkStatus();
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
  // The clock is replaced and set right: whether that is also a ruling is the
  // ruleset's to say (DOMAIN.md §4: the event itself is the record).
  const int index = Rule(v1::CLOCK_MALFUNCTION_PRORATED, v1::COLOR_UNSPECIFIED);
  if ((index >= 0 && history_.ruling(index).pending()) || result_.has_value())
    return absl::OkStatus();
  // 22.8: the time really used by both (known exactly from the events) is
  // shared in the proportion of the faulty clock's readings.
  if (clocks_.awaiting_press()) clocks_.Press(clocks_.move_at());
  const absl::Duration running = started_ ? clocks_.TurnElapsed(at_) : absl::ZeroDuration();
  const absl::Duration total =
      clocks_.clock(v1::BLACK).used() + clocks_.clock(v1::WHITE).used() + running;
  const double black_share = absl::FDivDuration(black_shown, black_shown + white_shown);
  const absl::Duration target[2] = {
      absl::Trunc(total * black_share, absl::Milliseconds(1)),
      total - absl::Trunc(total * black_share, absl::Milliseconds(1))};
  for (const v1::Color c : {v1::BLACK, v1::WHITE}) {
    // The running turn stays on the clock; the rest is set to the share.
    const absl::Duration in_turn =
        started_ && clocks_.owner() == c ? running : absl::ZeroDuration();
    const absl::Duration delta = target[Index(c)] - in_turn - clocks_.clock(c).used();
    if (delta > absl::ZeroDuration()) clocks_.clock(c).Deduct(delta);
    if (delta < absl::ZeroDuration()) clocks_.clock(c).Credit(-delta);
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnFirstHalfUnrecorded() {
  if (!clocks_.resumed_after_adjournment()) {
    return absl::FailedPreconditionError(
        "firstHalfUnrecorded: the game has not been adjourned and resumed");
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // Where the ruleset has the clause (22.9: 前半段用时判为双方均摊), the time
  // both used before the adjournment is split equally; the rest stays.
  if (rules_.Find(v1::FIRST_HALF_UNRECORDED, 1, game_.venue()) == nullptr) {
    return absl::OkStatus();
  }
  const int index = Rule(v1::FIRST_HALF_UNRECORDED, v1::COLOR_UNSPECIFIED);
  if ((index >= 0 && history_.ruling(index).pending()) || result_.has_value())
    return absl::OkStatus();
  clocks_.ShareFirstHalf();
  for (const v1::Color c : {v1::BLACK, v1::WHITE}) {
    if (clocks_.clock(c).flagged() && !result_.has_value()) FlagFalls(c, at_);
  }
  return absl::OkStatus();
}

}  // namespace arbiter
