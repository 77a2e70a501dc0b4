// A director's corrections (tournament.proto, TournamentCorrection): a
// pairing amended, a player's record updated, a result entered from a paper
// score sheet, a withdrawal taken back. Each is an event of its own with
// who and why; nothing recorded before it is rewritten. Pure: no I/O.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_CORRECTIONS_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_CORRECTIONS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// Folds `event` (its `corrected` set) into `t` and keeps it in
// `t->corrections`. INVALID_ARGUMENT: no reason, an unknown pairing or
// player, an amended round that is no longer a valid round (fold.h's
// checks of a paired round), a changed player id, team or board, an entered
// result that is no result (unspecified, REPLAY). FAILED_PRECONDITION: a
// player reinstated who has not withdrawn, or an amendment art. 28.3 forbids.
// On an error `t` is unchanged only as far as the caller discards it (Apply
// works on a copy).
absl::Status ApplyCorrection(const v1::TournamentEvent& event, v1::Tournament* t);

// One line for a correction: "2026-12-04 10:15 UTC, chief: round 2 board 3
// amended: A (Black) v B (White), board 3, handicap 0. Why: the colours were
// reversed at the board".
std::string CorrectionLine(const v1::TournamentEvent& event);

// Every correction of `t` as CorrectionLine writes it, in printable ASCII
// for the ASCII formats (EGD .h9, AGA): a line that is not is written with
// "?" for each character outside ASCII and says that the sidecar has it
// whole. Empty when there is none.
std::vector<std::string> CorrectionLines(const v1::Tournament& t, bool ascii);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_CORRECTIONS_H_
