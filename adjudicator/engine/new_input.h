// Checks of input reported now that a game recorded before them is not
// held to.
//
// A game is judged under its pinned rules for ever, and `arbiter verify`
// re-derives its rulings from its events (DOMAIN.md §1): a check added to
// the fold would turn an honest ledger's game, recorded when the check did
// not exist, into a verification failure. So a check of new input that the
// fold did not always make lives here. Every front end that takes a new
// gameCreated calls CheckNewGame before anything is recorded or judged: the
// server's Recorder, `arbiter adjudicate`, and `arbiter record`'s check of
// its lines. The server judges every later event a client reports with
// CheckNewEvent first (the judge adapter's ApplyNew); a venue's synced
// events, judged at the venue, and the audit's re-derivation are not.
#ifndef ARBITER_ADJUDICATOR_ENGINE_NEW_INPUT_H_
#define ARBITER_ADJUDICATOR_ENGINE_NEW_INPUT_H_

#include "absl/status/status.h"
#include "adjudicator/engine/adjudicator.h"
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

// INVALID_ARGUMENT, saying what was expected, for an event that `game` (the
// fold before it) would take but that reports nothing that happened:
// - a `playerArrived`, once the game has started, for a player nobody
//   awaits: not listed absent when the clocks started, or arrived (or
//   played) since, and not away since a resumption (arts. 22.1-22.2 rule a
//   listed absence). The fold takes it and rules nothing, so a wrong colour
//   would leave the absent player to forfeit at the limit. Before the
//   start an arrival is attendance, taken as ever.
// - a `stonesDisplaced` agreed to STAND, or an `arbiterDecision` letting
//   disputed displaced stones stand (17.5), that leaves a chain without a
//   liberty: a position no play reaches (art. 4), which the fold would keep
//   on the board.
// OK for anything else, including what the fold itself refuses (it says
// why when the event is applied).
absl::Status CheckNewEvent(const Adjudicator& game, const v1::Event& event);

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_NEW_INPUT_H_
