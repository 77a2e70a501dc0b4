// Play: moves, passes, clock presses, takebacks, capture errors and
// resignation (arts. 4-8, 17-20; the count is adjudicator_count.cc). Each handler checks first,
// then changes state: a handler that returns an error has changed nothing.
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/area_count.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/game_result.h"

namespace arbiter {

absl::Status Adjudicator::OnMove(const v1::Move& m) {
  const v1::Color c = m.color();
  if (absl::Status s = CheckColor(c, "move.color"); !s.ok()) return s;
  absl::StatusOr<int> v = ParsePointField(m.point(), board_->size(), "move.point");
  if (!v.ok()) return v.status();
  if (board_->at(*v) != Stone::kEmpty) {
    return absl::InvalidArgumentError(absl::StrCat("move.point: ", m.point(), " is occupied"));
  }

  play_recorded_ = true;
  EnsureStarted();
  if (consecutive_passes_ >= 2 && !clocks_.running() && !clocks_.adjourned()) {
    // Play resumes after two passes (the players did not agree it ended).
    clocks_.ResumePlay(at_, to_move_);
    consecutive_passes_ = 0;
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // Playing is arriving, for a player listed absent at the start.
  if (lateness_.absent(c)) Arrive(c);
  lateness_.Seen(c);
  if (result_.has_value()) return absl::OkStatus();
  // The opponent's move: a mover who did not press is taken to have pressed
  // at their move.
  if (clocks_.awaiting_press() && c != clocks_.owner()) clocks_.Press(clocks_.move_at());
  if (c != to_move_) {
    Rule(v1::DOUBLE_MOVE, c);  // the stone is not played in any case
    return absl::OkStatus();
  }
  PlayMove(c, *v);
  return absl::OkStatus();
}

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

absl::Status Adjudicator::OnPass(const v1::Pass& p) {
  const v1::Color c = p.color();
  if (absl::Status s = CheckColor(c, "pass.color"); !s.ok()) return s;
  play_recorded_ = true;
  EnsureStarted();
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // Playing is arriving, for a player listed absent at the start.
  if (lateness_.absent(c)) Arrive(c);
  lateness_.Seen(c);
  if (result_.has_value()) return absl::OkStatus();
  // After two passes play has ended: a further pass changes nothing.
  if (consecutive_passes_ >= 2) return absl::OkStatus();
  if (clocks_.awaiting_press() && c != clocks_.owner()) clocks_.Press(clocks_.move_at());
  if (c != to_move_) {
    Rule(v1::DOUBLE_MOVE, c);  // a pass is a move (虚着): out of turn it is a second move
    return absl::OkStatus();
  }
  PlayPass(c);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnClockPress(const v1::ClockPress& p) {
  const v1::Color c = p.color();
  if (absl::Status s = CheckColor(c, "clockPress.color"); !s.ok()) return s;
  if (p.captures_not_cleared()) {
    if (absl::Status s = CheckCapturesToClear(c); !s.ok()) return s;
  }
  play_recorded_ = true;
  SettleTime(true);
  if (result_.has_value() || !clocks_.running()) return absl::OkStatus();
  lateness_.Seen(c);
  // The opponent pressing: the mover is taken to have pressed at the move,
  // so this press is the opponent's own, in a turn with no stone placed yet.
  if (clocks_.awaiting_press() && c != clocks_.owner()) clocks_.Press(clocks_.move_at());
  if (c != clocks_.owner()) return absl::OkStatus();  // the button of a stopped clock
  if (!clocks_.awaiting_press()) {
    // No stone placed since the turn began (17.4): the clock stays with `c`
    // whatever the clause imposes, since the turn cannot pass without a move.
    Rule(v1::EARLY_CLOCK_PRESS, c);
    return absl::OkStatus();
  }
  if (p.captures_not_cleared()) {
    const int index = Rule(v1::CAPTURES_NOT_CLEARED, c);
    if (Imposed(index, v1::CLOCK_UNCHANGED) || result_.has_value()) return absl::OkStatus();
  }
  clocks_.Press(at_);
  return absl::OkStatus();
}

absl::Status Adjudicator::CheckCapturesToClear(v1::Color c) const {
  // 22.6 (包含提子的着手，必须全部提清之后方可按钟) is about a move that
  // captured: the press must end `c`'s own move, and that move took stones.
  const std::string who = v1::Color_Name(c);
  if (!clocks_.running() || !clocks_.awaiting_press() || clocks_.owner() != c) {
    return absl::InvalidArgumentError(
        absl::StrCat("clockPress.capturesNotCleared: the record shows no move of ", who,
                     "'s that this press ends (", v1::Color_Name(to_move_),
                     " to move), so there are no captures to clear (22.6)"));
  }
  if (last_captures_ == 0) {
    const std::string move = last_point_ < 0 ? std::string("a pass")
                                             : absl::StrCat("move ", move_number_, " at ",
                                                            PointName(last_point_, board_->size()));
    return absl::InvalidArgumentError(absl::StrCat(
        "clockPress.capturesNotCleared: the record shows ", who, "'s last move (", move,
        ") captured no stone, so there are no captures to clear (22.6 is about a move that "
        "captured)"));
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnTakeback(const v1::Takeback& t) {
  const v1::Color c = t.color();
  if (absl::Status s = CheckColor(t.color(), "takeback.color"); !s.ok()) return s;
  // Without the moves recorded the arbiter's word is the record: 17.3's
  // sanction needs no board (the stone goes back where it was).
  if (play_recorded_ && last_stone_by_ != c) {
    return absl::FailedPreconditionError(
        absl::StrCat("takeback: the last move on the board is not ", v1::Color_Name(c), "'s"));
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // 17.3: the takeback is void. The stone goes back to where it was first
  // placed, so the rules' board, which never saw it lifted, stays as it is,
  // and the opponent keeps the turn.
  Rule(v1::TAKEBACK, c);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnCaptureError(const v1::CaptureError& e) {
  if (absl::Status s = CheckColor(e.color(), "captureError.color"); !s.ok()) return s;
  if (e.kind() != v1::CaptureError::REMOVED_LIVE && e.kind() != v1::CaptureError::NOT_REMOVED) {
    return absl::InvalidArgumentError("captureError.kind must be REMOVED_LIVE or NOT_REMOVED");
  }
  // A board fact, checked against the board: the stones named are the
  // opponent's (REMOVED_LIVE: taken while alive; NOT_REMOVED: left on the
  // board once dead), standing there now or at some time before.
  if (e.points().empty()) {
    return absl::InvalidArgumentError("captureError.points: name the stones concerned");
  }
  const v1::Color owner = Opponent(e.color());
  std::set<int> named;
  for (const std::string& p : e.points()) {
    absl::StatusOr<int> v = ParsePointField(p, board_->size(), "captureError.points");
    if (!v.ok()) return v.status();
    if (!named.insert(*v).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("captureError.points: ", p, " is named twice"));
    }
    // Without the moves recorded there is no board to check it against:
    // 18.1 and 18.2 sanction the act the arbiter saw, not a position.
    if (play_recorded_ && !board_->Held(*v, owner)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "captureError.points: ", p, " has never held a ", v1::Color_Name(owner), " stone, so ",
          v1::Color_Name(e.color()), " cannot have mistaken a capture there"));
    }
    // 18.2 (未提或漏提对方无气之子) is about stones without liberties: a stone
    // standing with a liberty on the record's board was not left dead.
    const int liberty = board_->at(*v) == StoneOf(owner) ? board_->Liberty(*v) : -1;
    if (e.kind() == v1::CaptureError::NOT_REMOVED && liberty >= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "captureError.points: the record shows the ", v1::Color_Name(owner), " stone at ", p,
          " with a liberty at ", PointName(liberty, board_->size()),
          ", so it is not a dead stone left on the board (18.2 is about stones without "
          "liberties)"));
    }
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // The board here is the rules' board: the wrongly taken stones are still
  // on it and the dead ones already off, so the physical repair
  // (STONE_RESTORED, STONES_REMOVED) changes nothing in it.
  Rule(e.kind() == v1::CaptureError::REMOVED_LIVE ? v1::CAPTURE_REMOVED_LIVE
                                                  : v1::CAPTURE_NOT_REMOVED,
       e.color());
  return absl::OkStatus();
}

absl::Status Adjudicator::OnResign(const v1::Resign& r) {
  if (absl::Status s = CheckColor(r.color(), "resign.color"); !s.ok()) return s;
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  v1::Result result = Loss(r.color(), v1::Result::RESIGNATION);
  Cite(v1::RESIGNED, &result);  // 7.2 where the ruleset names it
  EndGame(std::move(result), at_, 0);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnContestAbandoned(const v1::ContestAbandoned& a) {
  const v1::Color c = a.color();
  if (absl::Status s = CheckColor(c, "contestAbandoned.color"); !s.ok()) return s;
  if (!clocks_.Absolute()) {
    return absl::FailedPreconditionError(
        "contestAbandoned: giving up the contest on the board is a rule of absolute time "
        "(a main time with no byo-yomi); here the player passes");
  }
  if (rules_.Find(v1::CONTEST_ABANDONED, 1, game_.venue()) == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("contestAbandoned: ", rules_.id(),
                     " has no clause for giving up the contest on the board"));
  }
  if (c != to_move_ || consecutive_passes_ >= 2 || abandoned_by_ != v1::COLOR_UNSPECIFIED ||
      clocks_.adjourned()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "contestAbandoned: only the player to move, in play, can give up the contest (",
        v1::Color_Name(to_move_), " to move", NotRecordedNote(), ")"));
  }
  EnsureStarted();
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // Giving up the right to move ends play; the timing stops (允许终止计时).
  clocks_.Stop(at_);
  abandoned_by_ = c;
  Rule(v1::CONTEST_ABANDONED, c);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnMoveSealed(const v1::MoveSealed& m) {
  const v1::Color c = m.color();
  if (absl::Status s = CheckColor(c, "moveSealed.color"); !s.ok()) return s;
  if (clocks_.adjourned())
    return absl::FailedPreconditionError("moveSealed: the game is already adjourned");
  if (!play_recorded_) {
    return absl::FailedPreconditionError(
        "moveSealed: a sealed move is opened by playing it on the recorded board, and no move "
        "of this game is recorded; record the adjournment as adjourned, then resumed");
  }
  if (c != to_move_ || consecutive_passes_ >= 2 || abandoned_by_ != v1::COLOR_UNSPECIFIED ||
      sealed_by_ != v1::COLOR_UNSPECIFIED) {
    return absl::FailedPreconditionError(
        absl::StrCat("moveSealed: only the player to move, in play, seals a move (",
                     v1::Color_Name(to_move_), " to move)"));
  }
  EnsureStarted();
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // The sealer's clock ran until the move was sealed; the game is adjourned.
  clocks_.Adjourn(at_);
  sealed_by_ = c;
  return absl::OkStatus();
}

absl::Status Adjudicator::OnSealedMoveOpened(const v1::SealedMoveOpened& o) {
  const v1::Color c = o.color();
  if (absl::Status s = CheckColor(c, "sealedMoveOpened.color"); !s.ok()) return s;
  if (sealed_by_ == v1::COLOR_UNSPECIFIED) {
    return absl::FailedPreconditionError("sealedMoveOpened: no sealed move awaits opening");
  }
  if (clocks_.adjourned()) {
    return absl::FailedPreconditionError("sealedMoveOpened: the game has not resumed yet");
  }
  if (c != sealed_by_) {
    return absl::InvalidArgumentError(
        absl::StrCat("sealedMoveOpened: the sealed move is ", v1::Color_Name(sealed_by_), "'s"));
  }
  absl::StatusOr<int> v = ParsePointField(o.point(), board_->size(), "sealedMoveOpened.point");
  if (!v.ok()) return v.status();
  sealed_by_ = v1::COLOR_UNSPECIFIED;
  // Opened at the resumption: the sealer's turn, with what it ran before
  // the adjournment, ends with the stone and the opponent's clock starts.
  if (started_) clocks_.Run(at_);
  lateness_.Seen(c);
  if (board_->at(*v) != Stone::kEmpty) {
    // 1988 22: 如封棋之点已有棋子时，判弃权一次，轮对方下子.
    const int index = Rule(v1::SEALED_MOVE_OCCUPIED, c);
    if (Imposed(index, v1::COUNTS_AS_PASS) && !result_.has_value()) PlayPass(c);
    return absl::OkStatus();
  }
  PlayMove(c, *v);
  return absl::OkStatus();
}

}  // namespace arbiter
