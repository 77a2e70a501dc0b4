// The game's clocks: both players' clocks (clock.h: main time, byo-yomi
// periods, moves-in-time) and the turn they time (arts. 12, 14, 17.4, 22).
//
// - The turn. One clock runs at a time, its owner's. When a stone is placed
//   the turn passes on the board at once, but the mover's clock runs on until
//   the press (`awaiting_press`); a press never made is taken to have been
//   made at the move, so the opponent's clock is the one running since then.
// - Stopping. Two passes, a result, a cancellation or an adjournment stop
//   the clocks; an adjournment keeps what the turn in progress has run (its
//   carry) for when play resumes.
// - The adjournment halves (22.9). At each adjournment the time each player
//   has used so far is recorded as the first half; if the first half was not
//   recorded on the clocks (firstHalfUnrecorded, after `resumed`), that time
//   is shared equally (ShareFirstHalf), and what each used since stays theirs.
//
// Time comes only from the events (`at`); nothing here reads a wall clock.
// A value: the fold copies it with the game.
#ifndef ARBITER_ADJUDICATOR_ENGINE_GAME_CLOCKS_H_
#define ARBITER_ADJUDICATOR_ENGINE_GAME_CLOCKS_H_

#include <optional>
#include <utility>

#include "absl/time/time.h"
#include "adjudicator/engine/board.h"
#include "adjudicator/engine/clock.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/rulings.pb.h"

namespace arbiter {

class GameClocks {
 public:
  // Untimed, Black's turn: before gameCreated.
  GameClocks() = default;
  // At gameCreated: `first` moves first; each player starts with `clock`
  // (nullopt: an untimed game).
  GameClocks(v1::Color first, const std::optional<PlayerClock>& clock);

  PlayerClock& clock(v1::Color c) { return clocks_[Index(c)]; }
  const PlayerClock& clock(v1::Color c) const { return clocks_[Index(c)]; }

  // --- the turn ---
  bool running() const { return running_; }
  // Whose clock the turn charges (the mover's until the press).
  v1::Color owner() const { return owner_; }
  // A stone was placed (or a pass made) and the mover has not pressed yet.
  bool awaiting_press() const { return awaiting_press_; }
  // When the move whose press is awaited was made.
  absl::Time move_at() const { return move_at_; }
  // When the turn (or its stretch since an adjournment) began, and what it
  // ran before the adjournment.
  absl::Time turn_start() const { return turn_start_; }
  absl::Duration turn_carry() const { return turn_carry_; }
  // The time the running clock has run this turn as of `at`.
  absl::Duration TurnElapsed(absl::Time at) const {
    return running_ ? turn_carry_ + (at - turn_start_) : turn_carry_;
  }
  // Whose clock really runs: the opponent's from the move while a press is
  // awaited, else the owner's.
  v1::Color Ticking() const { return awaiting_press_ ? Opponent(owner_) : owner_; }

  // The first play (or gameStarted): the clocks start at `at` with
  // `to_move`'s turn, unless the game was adjourned before it started.
  void Start(absl::Time at, v1::Color to_move);
  // Play resumes after two passes (the players did not agree it ended).
  void ResumePlay(absl::Time at, v1::Color to_move);
  // A stone placed or a pass made at `at`: the press is awaited.
  void Moved(absl::Time at);
  // Ends the owner's turn as if the clock was pressed at `at`.
  void Press(absl::Time at);
  // The clocks run again from `at` (a resumption, a sealed move opened, a
  // result withdrawn on appeal), the turn keeping its carry.
  void Run(absl::Time at);
  // The turn's time counts from `at` and nothing before it: a flag that
  // fell, time that a deduction replaced, a decision after which the time
  // since the ruling is nobody's.
  void RestartTurn(absl::Time at);
  // Only the time since `at` of the current stretch counts; a carry from
  // before an adjournment stays (a late player's deduction replaces what
  // their clock ran meanwhile).
  void RestartStretch(absl::Time at) { turn_start_ = at; }
  // The record learns at `at` that `c`'s clock is the one running (a flag
  // of theirs reported in a game recorded without its moves): the turn is
  // theirs from `at`, and what ran before is nobody's, there being no press
  // to charge it to.
  void TurnFound(absl::Time at, v1::Color c);
  // Play ends (two passes, a result, a cancellation): the running clock is
  // charged up to `at` and the clocks stop.
  void Stop(absl::Time at);

  // Whether `c` is in byo-yomi while the opponent's clock runs (22.7).
  bool InByoYomiInOpponentsTime(v1::Color c) const;
  // Whether the game is timed in absolute time (包干用时制, 12.4): a main
  // time with neither byo-yomi nor moves-in-time.
  bool Absolute() const { return clocks_[0].mode() == PlayerClock::Mode::kAbsolute; }
  // The flag of the clock that runs, if it has fallen by `at`: its instant
  // and whose. `pressed` is true for an event that is the owner's own press
  // (their clock ran up to it).
  std::optional<std::pair<absl::Time, v1::Color>> FlagFallenBy(absl::Time at, bool pressed) const;

  // Both clocks as of `at`, the running one charged up to it.
  v1::Clocks AsOf(absl::Time at) const;

  // --- adjournment ---
  bool adjourned() const { return adjourned_; }
  // The clocks stop at `at` for an adjournment (art. 14); the turn in
  // progress keeps what it has run, and the time each has used so far is
  // the first half (22.9).
  void Adjourn(absl::Time at);
  // Play resumes at `at`; the clocks run unless `run` is false (the game
  // had not started, play had ended, or a sealed move is opened first).
  void Resume(absl::Time at, bool run);
  // Whether the game was adjourned and then resumed: the first half is
  // known and play goes on after it.
  bool resumed_after_adjournment() const { return first_half_.has_value() && resumed_; }
  // 22.9: the time both used before the adjournment is split equally by
  // deducting from or crediting each main time.
  void ShareFirstHalf();

 private:
  static int Index(v1::Color c) { return c == v1::WHITE ? 1 : 0; }

  PlayerClock clocks_[2];
  bool running_ = false;
  bool adjourned_ = false;
  v1::Color owner_ = v1::BLACK;
  absl::Time turn_start_;
  absl::Duration turn_carry_;  // time run this turn before an adjournment
  bool awaiting_press_ = false;
  absl::Time move_at_;
  // The time each player had used when the game was last adjourned (22.9),
  // from the first adjournment on; `resumed_` once play resumed after it.
  std::optional<std::pair<absl::Duration, absl::Duration>> first_half_;
  bool resumed_ = false;
};

// Inline: called for nearly every event the engine folds (a move, a
// press), from other translation units.
inline void GameClocks::Press(absl::Time at) {
  clocks_[Index(owner_)].ChargeTurn(TurnElapsed(at));
  owner_ = Opponent(owner_);
  turn_start_ = at;
  turn_carry_ = absl::ZeroDuration();
  awaiting_press_ = false;
}

inline std::optional<std::pair<absl::Time, v1::Color>> GameClocks::FlagFallenBy(
    absl::Time at, bool pressed) const {
  if (awaiting_press_ && !pressed) {
    // The mover has not pressed: the press is taken to be at the move, so
    // it is the opponent's clock that has been running since.
    const v1::Color opp = Opponent(owner_);
    const PlayerClock& c = clocks_[Index(opp)];
    if (!c.flagged() && c.Expired(at - move_at_)) return std::pair(move_at_ + c.FlagOffset(), opp);
    return std::nullopt;
  }
  const PlayerClock& c = clocks_[Index(owner_)];
  if (!c.flagged() && c.Expired(TurnElapsed(at))) {
    return std::pair(turn_start_ + (c.FlagOffset() - turn_carry_), owner_);
  }
  return std::nullopt;
}

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_GAME_CLOCKS_H_
