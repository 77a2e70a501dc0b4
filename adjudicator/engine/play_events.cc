// Play: moves, passes and clock presses (arts. 4-8, 17-20), and the sealed
// move of an adjournment (14; 1988 14, 22).
#include "adjudicator/engine/play_events.h"

#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/area_count.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/game_result.h"
#include "adjudicator/engine/refusal_reason.h"

namespace arbiter {

absl::Status PlayEvents::OnMove(Adjudicator& a, const v1::Move& m) {
  const v1::Color c = m.color();
  if (absl::Status s = Adjudicator::CheckColor(c, "move.color"); !s.ok()) return s;
  absl::StatusOr<int> v = ParsePointField(m.point(), a.board_->size(), "move.point");
  if (!v.ok()) return v.status();
  if (a.board_->at(*v) != Stone::kEmpty) {
    return absl::InvalidArgumentError(absl::StrCat("move.point: ", m.point(), " is occupied"));
  }

  a.play_recorded_ = true;
  a.EnsureStarted();
  if (a.consecutive_passes_ >= 2 && !a.clocks_.running() && !a.clocks_.adjourned()) {
    // Play resumes after two passes (the players did not agree it ended),
    // by whichever player's move where the side claiming the stones dead
    // moves first (21.4): the record does not say which side that is.
    if (a.rules_.params().resumption_by_either_player()) a.to_move_ = c;
    a.clocks_.ResumePlay(a.at_, a.to_move_);
    a.consecutive_passes_ = 0;
  }
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  // Playing is arriving, for a player listed absent at the start.
  if (a.lateness_.absent(c)) a.Arrive(c);
  a.lateness_.Seen(c);
  if (a.result_.has_value()) return absl::OkStatus();
  // The opponent's move: a mover who did not press is taken to have pressed
  // at their move.
  if (a.clocks_.awaiting_press() && c != a.clocks_.owner()) a.clocks_.Press(a.clocks_.move_at());
  if (c != a.to_move_) {
    a.Rule(OutOfTurn(a), c);  // the stone is not played in any case
    return absl::OkStatus();
  }
  a.PlayMove(c, *v);
  return absl::OkStatus();
}

absl::Status PlayEvents::OnPass(Adjudicator& a, const v1::Pass& p) {
  const v1::Color c = p.color();
  if (absl::Status s = Adjudicator::CheckColor(c, "pass.color"); !s.ok()) return s;
  a.play_recorded_ = true;
  a.EnsureStarted();
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  // Playing is arriving, for a player listed absent at the start.
  if (a.lateness_.absent(c)) a.Arrive(c);
  a.lateness_.Seen(c);
  if (a.result_.has_value()) return absl::OkStatus();
  // After two passes play has ended: a further pass changes nothing.
  if (a.consecutive_passes_ >= 2) return absl::OkStatus();
  if (a.clocks_.awaiting_press() && c != a.clocks_.owner()) a.clocks_.Press(a.clocks_.move_at());
  if (c != a.to_move_) {
    a.Rule(OutOfTurn(a), c);  // a pass is a move (虚着): out of turn, as a move
    return absl::OkStatus();
  }
  a.PlayPass(c);
  return absl::OkStatus();
}

v1::Incident PlayEvents::OutOfTurn(const Adjudicator& a) {
  const bool first =
      a.move_number_ == 0 && a.game_.setup().black().empty() && a.game_.setup().white().empty();
  if (first && a.rules_.Find(v1::FIRST_MOVE_OUT_OF_TURN, 1, a.game_.venue()) != nullptr) {
    return v1::FIRST_MOVE_OUT_OF_TURN;
  }
  return v1::DOUBLE_MOVE;
}

absl::Status PlayEvents::OnClockPress(Adjudicator& a, const v1::ClockPress& p) {
  const v1::Color c = p.color();
  if (absl::Status s = Adjudicator::CheckColor(c, "clockPress.color"); !s.ok()) return s;
  if (p.captures_not_cleared()) {
    if (absl::Status s = CheckCapturesToClear(a, c); !s.ok()) return s;
  }
  a.play_recorded_ = true;
  a.SettleTime(true);
  if (a.result_.has_value() || !a.clocks_.running()) return absl::OkStatus();
  a.lateness_.Seen(c);
  // The opponent pressing: the mover is taken to have pressed at the move,
  // so this press is the opponent's own, in a turn with no stone placed yet.
  if (a.clocks_.awaiting_press() && c != a.clocks_.owner()) a.clocks_.Press(a.clocks_.move_at());
  if (c != a.clocks_.owner()) return absl::OkStatus();  // the button of a stopped clock
  if (!a.clocks_.awaiting_press()) {
    // No stone placed since the turn began (17.4): the clock stays with `c`
    // whatever the clause imposes, since the turn cannot pass without a move.
    a.Rule(v1::EARLY_CLOCK_PRESS, c);
    return absl::OkStatus();
  }
  if (p.captures_not_cleared()) {
    const int index = a.Rule(v1::CAPTURES_NOT_CLEARED, c);
    if (a.Imposed(index, v1::CLOCK_UNCHANGED) || a.result_.has_value()) return absl::OkStatus();
  }
  a.clocks_.Press(a.at_);
  return absl::OkStatus();
}

absl::Status PlayEvents::CheckCapturesToClear(const Adjudicator& a, v1::Color c) {
  // 22.6 (包含提子的着手，必须全部提清之后方可按钟) is about a move that
  // captured: the press must end `c`'s own move, and that move took stones.
  const std::string who = v1::Color_Name(c);
  if (!a.clocks_.running() || !a.clocks_.awaiting_press() || a.clocks_.owner() != c) {
    return absl::InvalidArgumentError(
        absl::StrCat("clockPress.capturesNotCleared: the record shows no move of ", who,
                     "'s that this press ends (", v1::Color_Name(a.to_move_),
                     " to move), so there are no captures to clear (22.6)"));
  }
  if (a.last_captures_ == 0) {
    const std::string move = a.last_point_ < 0
                                 ? std::string("a pass")
                                 : absl::StrCat("move ", a.move_number_, " at ",
                                                PointName(a.last_point_, a.board_->size()));
    return absl::InvalidArgumentError(absl::StrCat(
        "clockPress.capturesNotCleared: the record shows ", who, "'s last move (", move,
        ") captured no stone, so there are no captures to clear (22.6 is about a move that "
        "captured)"));
  }
  return absl::OkStatus();
}

absl::Status PlayEvents::OnMoveSealed(Adjudicator& a, const v1::MoveSealed& m) {
  const v1::Color c = m.color();
  if (absl::Status s = Adjudicator::CheckColor(c, "moveSealed.color"); !s.ok()) return s;
  if (a.clocks_.adjourned()) {
    return WithRefusalReason(
        absl::FailedPreconditionError("moveSealed: the game is already adjourned"),
        "ALREADY_ADJOURNED");
  }
  if (!a.play_recorded_) {
    return WithRefusalReason(
        absl::FailedPreconditionError(
            "moveSealed: a sealed move is opened by playing it on the recorded board, and no move "
            "of this game is recorded; record the adjournment as adjourned, then resumed"),
        "SEALED_WITHOUT_MOVES");
  }
  if (absl::Status s = a.RefuseOncePlayEnded("moveSealed"); !s.ok()) return s;
  if (a.sealed_by_ != v1::COLOR_UNSPECIFIED) {
    // Resumed, and the move sealed before it not yet played.
    return WithRefusalReason(absl::FailedPreconditionError(absl::StrCat(
                                 "moveSealed: ", v1::Color_Name(a.sealed_by_),
                                 "'s sealed move is not opened yet; it is played first")),
                             "SEALED_NOT_OPENED", {{"color", v1::Color_Name(a.sealed_by_)}});
  }
  if (c != a.to_move_) {
    return WithRefusalReason(absl::FailedPreconditionError(
                                 absl::StrCat("moveSealed: only the player to move seals a move (",
                                              v1::Color_Name(a.to_move_), " to move)")),
                             "SEALED_NOT_TO_MOVE", {{"color", v1::Color_Name(c)}});
  }
  a.EnsureStarted();
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  // The sealer's clock ran until the move was sealed; the game is adjourned.
  a.clocks_.Adjourn(a.at_);
  a.sealed_by_ = c;
  return absl::OkStatus();
}

absl::Status PlayEvents::OnSealedMoveOpened(Adjudicator& a, const v1::SealedMoveOpened& o) {
  const v1::Color c = o.color();
  if (absl::Status s = Adjudicator::CheckColor(c, "sealedMoveOpened.color"); !s.ok()) return s;
  if (a.sealed_by_ == v1::COLOR_UNSPECIFIED) {
    return absl::FailedPreconditionError("sealedMoveOpened: no sealed move awaits opening");
  }
  if (a.clocks_.adjourned()) {
    return absl::FailedPreconditionError("sealedMoveOpened: the game has not resumed yet");
  }
  if (c != a.sealed_by_) {
    return absl::InvalidArgumentError(
        absl::StrCat("sealedMoveOpened: the sealed move is ", v1::Color_Name(a.sealed_by_), "'s"));
  }
  absl::StatusOr<int> v = ParsePointField(o.point(), a.board_->size(), "sealedMoveOpened.point");
  if (!v.ok()) return v.status();
  a.sealed_by_ = v1::COLOR_UNSPECIFIED;
  // Opened at the resumption: the sealer's turn, with what it ran before
  // the adjournment, ends with the stone and the opponent's clock starts.
  if (a.started_) a.clocks_.Run(a.at_);
  a.lateness_.Seen(c);
  if (a.board_->at(*v) != Stone::kEmpty) {
    // 1988 22: 如封棋之点已有棋子时，判弃权一次，轮对方下子.
    const int index = a.Rule(v1::SEALED_MOVE_OCCUPIED, c);
    if (a.Imposed(index, v1::COUNTS_AS_PASS) && !a.result_.has_value()) a.PlayPass(c);
    return absl::OkStatus();
  }
  a.PlayMove(c, *v);
  return absl::OkStatus();
}

// The fold's own placing of a stone, defined beside the move's handler so that
// the two compile together (one translation unit: inlined, as engine_bench
// measures).
void Adjudicator::PlayMove(v1::Color c, int v) {
  int index = -1;
  switch (board_->Check(c, v)) {
    case Legality::kLegal:
      last_captures_ = board_->Play(c, v);
      last_point_ = v;
      last_stone_by_ = c;
      ++move_number_;
      consecutive_passes_ = 0;
      to_move_ = Opponent(c);
      clocks_.Moved(at_);
      return;
    case Legality::kOccupied:  // the callers place stones on empty points only
      return;
    case Legality::kSuicide:
      index = Rule(v1::SUICIDE, c);
      break;
    case Legality::kKoRecapture:
      index = Rule(v1::KO_RECAPTURE, c);
      break;
    case Legality::kRepetition:
      index = Rule(v1::OTHER_REPETITION, c, std::nullopt, &rules_.params().repetition_preset());
      break;
  }
  // An illegal move is never played; it may count as a pass.
  if (Imposed(index, v1::COUNTS_AS_PASS) && !result_.has_value()) PlayPass(c);
}

}  // namespace arbiter
