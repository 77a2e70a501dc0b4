#include "adjudicator/engine/game_clocks.h"

namespace arbiter {

GameClocks::GameClocks(v1::Color first, const std::optional<PlayerClock>& clock) : owner_(first) {
  if (clock.has_value()) {
    clocks_[0] = *clock;
    clocks_[1] = *clock;
  }
}

void GameClocks::Start(absl::Time at, v1::Color to_move) {
  running_ = !adjourned_;
  owner_ = to_move;
  turn_start_ = at;
  turn_carry_ = absl::ZeroDuration();
}

void GameClocks::ResumePlay(absl::Time at, v1::Color to_move) {
  running_ = true;
  owner_ = to_move;
  turn_start_ = at;
  awaiting_press_ = false;
}

void GameClocks::Moved(absl::Time at) {
  awaiting_press_ = true;
  move_at_ = at;
}

void GameClocks::Run(absl::Time at) {
  running_ = true;
  turn_start_ = at;
}

void GameClocks::RestartTurn(absl::Time at) {
  turn_start_ = at;
  turn_carry_ = absl::ZeroDuration();
}

void GameClocks::TurnFound(absl::Time at, v1::Color c) {
  owner_ = c;
  awaiting_press_ = false;
  RestartTurn(at);
}

void GameClocks::Stop(absl::Time at) {
  if (!running_) return;
  if (awaiting_press_) Press(move_at_);
  clocks_[Index(owner_)].ChargePartial(TurnElapsed(at));
  turn_carry_ = absl::ZeroDuration();
  turn_start_ = at;
  running_ = false;
}

bool GameClocks::InByoYomiInOpponentsTime(v1::Color c) const {
  const PlayerClock& clock = clocks_[Index(c)];
  if (clock.mode() != PlayerClock::Mode::kByoYomi || !clock.in_overtime() || !running_) {
    return false;
  }
  // A mover who has not pressed is taken to have pressed at the move.
  return Ticking() == Opponent(c);
}

v1::Clocks GameClocks::AsOf(absl::Time at) const {
  PlayerClock clocks[2] = {clocks_[0], clocks_[1]};
  v1::Color running = v1::COLOR_UNSPECIFIED;
  if (running_) {
    if (awaiting_press_) {
      clocks[Index(owner_)].ChargeTurn(TurnElapsed(move_at_));
      running = Opponent(owner_);
      clocks[Index(running)].ChargePartial(at - move_at_);
    } else {
      running = owner_;
      clocks[Index(running)].ChargePartial(TurnElapsed(at));
    }
  }
  v1::Clocks out;
  *out.mutable_black() = clocks[0].ToProto(running == v1::BLACK);
  *out.mutable_white() = clocks[1].ToProto(running == v1::WHITE);
  return out;
}

void GameClocks::Adjourn(absl::Time at) {
  // Clocks stop (art. 14); the turn in progress keeps what it has run.
  if (running_) {
    if (awaiting_press_) Press(move_at_);
    turn_carry_ = TurnElapsed(at);
    running_ = false;
  }
  const absl::Duration carry[2] = {owner_ == v1::BLACK ? turn_carry_ : absl::ZeroDuration(),
                                   owner_ == v1::WHITE ? turn_carry_ : absl::ZeroDuration()};
  first_half_.emplace(clocks_[0].used() + carry[0], clocks_[1].used() + carry[1]);
  resumed_ = false;
  adjourned_ = true;
}

void GameClocks::Resume(absl::Time at, bool run) {
  adjourned_ = false;
  resumed_ = true;
  if (run) Run(at);
}

void GameClocks::ShareFirstHalf() {
  const absl::Duration before[2] = {first_half_->first, first_half_->second};
  const absl::Duration half = (before[0] + before[1]) / 2;
  for (const int i : {0, 1}) {
    const absl::Duration delta = half - before[i];
    if (delta > absl::ZeroDuration()) clocks_[i].Deduct(delta);
    if (delta < absl::ZeroDuration()) clocks_[i].Credit(-delta);
  }
  first_half_.emplace(half, half);
}

}  // namespace arbiter
