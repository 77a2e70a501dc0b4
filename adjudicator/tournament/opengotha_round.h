// One round of an OpenGotha file paired into a tournament that exists
// already (`arbiter tournament import-round`): the director pairs in
// OpenGotha, arbiter follows without retyping. Pure.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_OPENGOTHA_ROUND_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_OPENGOTHA_ROUND_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// Round `round` of the OpenGotha file `xml` (read as ImportOpenGotha reads
// it) as a round of `t`: its boards (OpenGotha's table numbers), colours,
// handicaps and byes, each of the file's players named by the id of the
// player of `t` it is: the one with the same EGD PIN, else the one the
// file's name names (names.h RecordedAs: native or romanized, either order,
// case and spacing aside). The file's results for the round are left out
// (its games are still to be played here), and so are game ids.
// INVALID_ARGUMENT, nothing paired, for a malformed file, a round the file
// does not pair (naming those it does), or any player of the round that
// matches no player of `t`, or more than one (all named in one message).
absl::StatusOr<v1::TournamentRound> RoundFromOpenGotha(absl::string_view xml,
                                                       const v1::Tournament& t, int round);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_OPENGOTHA_ROUND_H_
