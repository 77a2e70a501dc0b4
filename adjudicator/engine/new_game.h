// Checks of a game being created now that a game recorded before them is
// not held to.
//
// A game is judged under its pinned rules for ever, and `arbiter verify`
// re-derives its rulings from its events (DOMAIN.md §1): a check added to
// the fold would turn an honest ledger's game, recorded when the check did
// not exist, into a verification failure. So a check of new input that the
// fold did not always make lives here, and every front end that takes a new
// gameCreated calls it before anything is recorded or judged: the server's
// Recorder, `arbiter adjudicate`, and `arbiter record`'s check of its lines.
#ifndef ARBITER_ADJUDICATOR_ENGINE_NEW_GAME_H_
#define ARBITER_ADJUDICATOR_ENGINE_NEW_GAME_H_

#include "absl/status/status.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// INVALID_ARGUMENT, naming the field, for a time control with two time
// systems (byoYomi, 12.3, and movesInTime, 12.5) or one that counts
// nothing (no periods or moves, a period of 0s). The fold reads such a
// game as byo-yomi, or as absolute time with the empty system dropped:
// timed otherwise than its record says.
// And CheckSetupLiberties.
absl::Status CheckNewGame(const v1::GameCreated& game);

// INVALID_ARGUMENT, naming a stone, for a `setup` in which a chain has no
// liberty: no play leaves one on the board (art. 4, 提子: stones without
// liberties are taken off at once), and the fold would keep it there, to
// be counted as living or to be captured by a later move that takes a
// liberty it does not have. Other faults of the setup (a point off the
// board, a point set up twice) are the fold's to refuse.
absl::Status CheckSetupLiberties(const v1::GameCreated& game);

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_NEW_GAME_H_
