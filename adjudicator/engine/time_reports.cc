// Reported flag falls and clock malfunctions (arts. 12.4, 22.5, 22.8, 22.9).
#include "adjudicator/engine/time_reports.h"

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/refusal_reason.h"

namespace arbiter {

absl::Status TimeReports::CheckFlagReport(const Adjudicator& a, v1::Color c) {
  // A lateness limit passed: the report (the server names the absent
  // player, or Black for both) is of that forfeit, which is ruled first.
  if (a.started_ && a.lateness_.OverdueAt(a.at_).has_value()) return absl::OkStatus();
  if (a.clocks_.clock(c).mode() == PlayerClock::Mode::kUntimed) {
    return WithRefusalReason(
        absl::InvalidArgumentError(
            "timeExpired: the record shows an untimed game (no timeControl), so no flag can fall"),
        "FLAG_UNTIMED");
  }
  // Only the clock of the player to move runs (a mover who has not pressed
  // is taken to have pressed at the move); before the start, Black's will.
  // In a game recorded without its moves the record cannot say whose clock
  // runs (ClockKnown): the arbiter's report is taken as it is.
  const bool stopped = a.started_ && !a.clocks_.running();
  if ((c != a.to_move_ && a.ClockKnown()) || stopped) {
    return WithRefusalReason(
        absl::InvalidArgumentError(absl::StrCat(
            "timeExpired: the record shows ", v1::Color_Name(c), "'s clock is not running (",
            stopped ? "the clocks are stopped"
                    : absl::StrCat(v1::Color_Name(a.to_move_), " to move"),
            "), so their flag cannot fall")),
        "FLAG_CLOCK_NOT_RUNNING", {{"color", v1::Color_Name(c)}});
  }
  return absl::OkStatus();
}

absl::Status TimeReports::OnTimeExpired(Adjudicator& a, const v1::TimeExpired& t) {
  const v1::Color c = t.color();
  if (absl::Status s = Adjudicator::CheckColor(c, "timeExpired.color"); !s.ok()) return s;
  if (absl::Status s = CheckFlagReport(a, c); !s.ok()) return s;
  a.EnsureStarted();
  a.SettleTime(false);  // lateness may precede; the flag is this event's
  if (a.result_.has_value()) return absl::OkStatus();
  if (a.clocks_.awaiting_press() && c != a.clocks_.owner()) a.clocks_.Press(a.clocks_.move_at());
  PlayerClock& clock = a.clocks_.clock(c);
  // When our clock already shows the flag down, it fell at its own instant;
  // otherwise the report is the flag fall.
  absl::Time when = a.at_;
  PlayerClock now = clock;
  const bool runs = a.clocks_.running() && c == a.clocks_.owner();
  // In a game recorded without its moves the clocks cannot say when the flag
  // fell nor which period runs: the arbiter's report does.
  const bool known = a.ClockKnown();
  if (runs) {
    const absl::Duration elapsed = a.clocks_.TurnElapsed(a.at_);
    if (known && clock.Expired(elapsed))
      when = a.clocks_.turn_start() + (clock.FlagOffset() - a.clocks_.turn_carry());
    now.ChargePartial(elapsed);
    // 12.4(6): a flag the record's clock disagrees with is the chief
    // arbiter's to read, where the ruleset says how far it may disagree.
    const v1::Parameters& params = a.rules_.params();
    if (known && params.has_flag_dispute_margin() && !clock.flagged() &&
        clock.FlagOffset() - elapsed > FromProto(params.flag_dispute_margin()) &&
        a.rules_.Find(v1::FLAG_DISPUTED, 1, a.game_.venue()) != nullptr) {
      a.Rule(v1::FLAG_DISPUTED, c);
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
      c == a.to_move_ || (!known && a.rules_.params().unrecorded_flag_pass_either_player());
  if (t.pass_requested() && last_period && a.rules_.params().pass_on_timeout() && on_move &&
      a.consecutive_passes_ < 2) {
    const int index = a.Rule(v1::TIME_EXPIRED_PASS_REQUESTED, c, when);
    if (a.Imposed(index, v1::COUNTS_AS_PASS) && !a.result_.has_value()) {
      // 22.5: the flag becomes a pass and the last period starts again.
      clock.RestartLastPeriod();
      if (runs) a.clocks_.RestartTurn(a.at_);
      // The report is the record that the turn was the reporter's.
      if (c != a.to_move_ && a.clocks_.running()) a.clocks_.TurnFound(a.at_, c);
      a.PlayPass(c);
      if (a.clocks_.running()) a.clocks_.Press(a.at_);
    }
    return absl::OkStatus();
  }
  clock.Flag();
  if (runs) a.clocks_.RestartTurn(when);
  a.Rule(a.FlagIncident(c), c, when);
  return absl::OkStatus();
}

absl::Status TimeReports::OnClockMalfunction(Adjudicator& a, const v1::ClockMalfunction& m) {
  for (const auto* d : {&m.error_per_hour(), &m.black_used(), &m.white_used()}) {
    if (absl::Status s = CheckDuration(*d, "clockMalfunction durations"); !s.ok()) return s;
  }
  // 12.4(6): in absolute time the chief arbiter decides what a failed clock
  // means, where the ruleset has that clause; 22.8 otherwise.
  if (a.clocks_.Absolute() &&
      a.rules_.Find(v1::CLOCK_FAILED_ABSOLUTE, 1, a.game_.venue()) != nullptr) {
    a.SettleTime(true);
    if (!a.result_.has_value()) a.Rule(v1::CLOCK_FAILED_ABSOLUTE, v1::COLOR_UNSPECIFIED);
    return absl::OkStatus();
  }
  const absl::Duration black_shown = FromProto(m.black_used());
  const absl::Duration white_shown = FromProto(m.white_used());
  const v1::Parameters& params = a.rules_.params();
  const bool prorate =
      params.has_clock_error_tolerance_per_hour() &&
      FromProto(m.error_per_hour()) >= FromProto(params.clock_error_tolerance_per_hour());
  if (prorate && black_shown + white_shown <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("clockMalfunction: blackUsed and whiteUsed are both zero");
  }
  a.SettleTime(true);
  if (a.result_.has_value() || !prorate) return absl::OkStatus();
  // The clock is replaced and set right: whether that is also a ruling is the
  // ruleset's to say (DOMAIN.md §4: the event itself is the record).
  const int index = a.Rule(v1::CLOCK_MALFUNCTION_PRORATED, v1::COLOR_UNSPECIFIED);
  if ((index >= 0 && a.history_.ruling(index).pending()) || a.result_.has_value())
    return absl::OkStatus();
  // 22.8: the time really used by both (known exactly from the events) is
  // shared in the proportion of the faulty clock's readings.
  if (a.clocks_.awaiting_press()) a.clocks_.Press(a.clocks_.move_at());
  const absl::Duration running = a.started_ ? a.clocks_.TurnElapsed(a.at_) : absl::ZeroDuration();
  const absl::Duration total =
      a.clocks_.clock(v1::BLACK).used() + a.clocks_.clock(v1::WHITE).used() + running;
  const double black_share = absl::FDivDuration(black_shown, black_shown + white_shown);
  const absl::Duration target[2] = {
      absl::Trunc(total * black_share, absl::Milliseconds(1)),
      total - absl::Trunc(total * black_share, absl::Milliseconds(1))};
  for (const v1::Color c : {v1::BLACK, v1::WHITE}) {
    // The running turn stays on the clock; the rest is set to the share.
    const absl::Duration in_turn =
        a.started_ && a.clocks_.owner() == c ? running : absl::ZeroDuration();
    const absl::Duration delta =
        target[Adjudicator::Index(c)] - in_turn - a.clocks_.clock(c).used();
    if (delta > absl::ZeroDuration()) a.clocks_.clock(c).Deduct(delta);
    if (delta < absl::ZeroDuration()) a.clocks_.clock(c).Credit(-delta);
  }
  return absl::OkStatus();
}

absl::Status TimeReports::OnFirstHalfUnrecorded(Adjudicator& a) {
  if (!a.clocks_.resumed_after_adjournment()) {
    return absl::FailedPreconditionError(
        "firstHalfUnrecorded: the game has not been adjourned and resumed");
  }
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  // Where the ruleset has the clause (22.9: 前半段用时判为双方均摊), the time
  // both used before the adjournment is split equally; the rest stays.
  if (a.rules_.Find(v1::FIRST_HALF_UNRECORDED, 1, a.game_.venue()) == nullptr) {
    return absl::OkStatus();
  }
  const int index = a.Rule(v1::FIRST_HALF_UNRECORDED, v1::COLOR_UNSPECIFIED);
  if ((index >= 0 && a.history_.ruling(index).pending()) || a.result_.has_value())
    return absl::OkStatus();
  a.clocks_.ShareFirstHalf();
  for (const v1::Color c : {v1::BLACK, v1::WHITE}) {
    if (a.clocks_.clock(c).flagged() && !a.result_.has_value()) a.FlagFalls(c, a.at_);
  }
  return absl::OkStatus();
}

}  // namespace arbiter
