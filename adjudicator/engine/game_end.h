// The end of the game: resignation, a contest given up on the board
// (12.4(4)), and the count (arts. 9, 11, 24.1; 1988 9, 11): from the board
// after the agreed dead stones (`deadStones`), or the arbiter's own count
// (`countRecorded`), for the many games whose moves nobody records. Either way
// the result is the margin of DOMAIN.md §2 under the game's komi and penalty
// stones, and cites the ruleset's COUNTED sanctioning (9 with 11; after a
// contest given up, 12.4(4)).
//
// Handlers of the table of event kinds (adjudicator_kinds.cc) over the fold
// they change; each checks everything that can make its event bad input
// before it changes anything, so an error leaves the fold as it was.
#ifndef ARBITER_ADJUDICATOR_ENGINE_GAME_END_H_
#define ARBITER_ADJUDICATOR_ENGINE_GAME_END_H_

#include "absl/status/status.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// The handlers of the end of the game: a friend of Adjudicator, whose state they change.
class GameEnd {
 public:
  static absl::Status OnResign(Adjudicator& a, const v1::Resign& r);
  static absl::Status OnContestAbandoned(Adjudicator& a, const v1::ContestAbandoned& abandoned);
  static absl::Status OnDeadStones(Adjudicator& a, const v1::DeadStones& d);
  // The arbiter's count, for a game recorded without its moves.
  static absl::Status OnCountRecorded(Adjudicator& a, const v1::CountRecorded& c);

  // After a ruling given once the game was counted (a decision, an appeal's)
  // changed the penalty stones, where the ruleset says warnings after the
  // end apply (24.1: 该局计算胜负时): the count's margin again, from the same
  // count with the penalty stones as they now stand. The new result names
  // `ruling`, which replaced the old one (so that overturning it restores
  // that). Nothing when the result is not a count or its stones are current.
  static void Recount(Adjudicator& a, uint32_t ruling);

 private:
  // Ends the game by the count: `black_halves` is Black's stones and points
  // in half stones, turned into the margin with komi and penalty stones.
  static void EndByCount(Adjudicator& a, int black_halves);
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_GAME_END_H_
