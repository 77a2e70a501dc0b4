// One player's game clock (2002 arts. 12.2-12.5): absolute time, byo-yomi
// (读秒) and moves-in-time (定时限步制).
//
// The clock knows nothing of wall time. The adjudicator charges it whole
// turns ("this turn took t") and asks it where its flag would fall, so a flag
// fall is found from event times alone and a turn timed past the flag is ruled
// at the flag's instant. Durations are exact (absl::Duration), never floats.
#ifndef ARBITER_ADJUDICATOR_ENGINE_CLOCK_H_
#define ARBITER_ADJUDICATOR_ENGINE_CLOCK_H_

#include "absl/time/time.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/rulings.pb.h"

namespace arbiter {

class PlayerClock {
 public:
  enum class Mode { kUntimed, kAbsolute, kByoYomi, kMovesInTime };

  // An untimed clock.
  PlayerClock() = default;
  // `exact_period_counts`: a byo-yomi move taking exactly the period time uses
  // the period (12.3, DOMAIN.md §4). `over_when_exceeded`: in absolute time a
  // turn ending with exactly nothing left is in time (12.4(5)).
  PlayerClock(const v1::TimeControl& tc, bool exact_period_counts, bool over_when_exceeded = false);

  Mode mode() const { return mode_; }
  bool flagged() const { return flagged_; }
  bool in_overtime() const { return mode_ >= Mode::kByoYomi && main_ == absl::ZeroDuration(); }
  int periods_remaining() const { return periods_; }
  absl::Duration used() const { return used_; }

  // How long a turn may run from now before the flag falls: the main time,
  // then all remaining byo-yomi periods (the flag falls as the last is used),
  // or the time left in the current moves-in-time period. Infinite untimed.
  absl::Duration FlagOffset() const;

  // True when a turn that has run `elapsed` is past the flag: at FlagOffset()
  // itself (time reaches zero; a byo-yomi period of exactly its length is
  // used) unless exact periods do not count, or, in absolute time, time is
  // over only when exceeded.
  bool Expired(absl::Duration elapsed) const;

  // Charges one completed turn of `t` (a move or pass, with its press). The
  // turn must end before FlagOffset(). Byo-yomi: t - main < period costs
  // nothing, otherwise floor(overtime / period) periods; moves-in-time: the
  // move counts toward the period's quota, and a met quota carries the
  // unused time into the next period.
  void ChargeTurn(absl::Duration t);

  // Charges `t` of a turn that has not ended (the figures as of an instant
  // mid-turn): the main time runs down and, in byo-yomi, periods already
  // fully used are gone; no move is counted.
  void ChargePartial(absl::Duration t);

  // Adds `t` to the used time as a penalty (a late arrival, 22.1-22.2): off
  // the main time first, then whole byo-yomi periods (or moves-in-time
  // period time). Sets flagged() when nothing is left.
  void Deduct(absl::Duration t);

  // Gives back `t` of used time (a prorated correction, 22.8), to the main
  // time.
  void Credit(absl::Duration t);

  // The flag fell: periods and time are exhausted.
  void Flag();

  // 22.5: the flag fell in the last period and the player passed instead of
  // losing; the last period starts again.
  void RestartLastPeriod();

  // The figures for GameState.clocks; `running` says whose clock runs.
  v1::Clock ToProto(bool running) const;

 private:
  // Takes `t` off the main time, then off the overtime; a byo-yomi period
  // is used by exactly its length when `exact_period_counts`.
  void Spend(absl::Duration t, bool exact_period_counts);

  Mode mode_ = Mode::kUntimed;
  bool exact_period_counts_ = true;
  bool over_when_exceeded_ = false;
  absl::Duration main_;
  absl::Duration period_time_;  // byo-yomi period, or moves-in-time period
  int periods_ = 0;             // byo-yomi periods left
  int quota_ = 0;               // moves-in-time: moves per period
  int moves_left_ = 0;          // moves-in-time: moves still owed this period
  absl::Duration period_left_;  // moves-in-time: time left this period
  absl::Duration used_;
  bool flagged_ = false;
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_CLOCK_H_
