// Play: moves, passes and clock presses (arts. 4-8, 17-20), and the sealed
// move of an adjournment (14; 1988 14, 22).
//
// Handlers of the table of event kinds (adjudicator_kinds.cc) over the fold
// they change; each checks everything that can make its event bad input
// before it changes anything, so an error leaves the fold as it was.
#ifndef ARBITER_ADJUDICATOR_ENGINE_PLAY_EVENTS_H_
#define ARBITER_ADJUDICATOR_ENGINE_PLAY_EVENTS_H_

#include "absl/status/status.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// The handlers of play events: a friend of Adjudicator, whose state they change.
class PlayEvents {
 public:
  static absl::Status OnMove(Adjudicator& a, const v1::Move& m);
  static absl::Status OnPass(Adjudicator& a, const v1::Pass& p);
  static absl::Status OnClockPress(Adjudicator& a, const v1::ClockPress& p);
  static absl::Status OnMoveSealed(Adjudicator& a, const v1::MoveSealed& m);
  static absl::Status OnSealedMoveOpened(Adjudicator& a, const v1::SealedMoveOpened& o);

 private:
  // Why a press by `c` reporting captures not cleared (22.6) is contradicted
  // by the record (it ends no move of `c`'s, or one that took nothing), or OK.
  static absl::Status CheckCapturesToClear(const Adjudicator& a, v1::Color c);
  // What a move or pass by the colour not to move is: a second in a row
  // (DOUBLE_MOVE), or, where the ruleset names it, the game's first in a
  // game with no stones set up (FIRST_MOVE_OUT_OF_TURN: no move before it).
  static v1::Incident OutOfTurn(const Adjudicator& a);
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_PLAY_EVENTS_H_
