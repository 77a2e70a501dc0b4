// A tournament is the fold of its events (tournament.proto), as a game is
// the fold of its own. Apply checks everything that would make an event bad
// input before it changes anything, so a refused event leaves the
// tournament exactly as it was, and a store can validate an append by
// folding it first. Pure: no I/O, no clock.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_FOLD_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_FOLD_H_

#include <cstdint>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// The games of an individual round robin (players x (players - 1) / 2 x
// cycles) are at most this many: a single round robin of 316 players, a
// double of 224. Its standings list every game (art. 28.2 forfeits those
// never paired), so this bounds what they cost to compute and hold.
inline constexpr int64_t kMaxRoundRobinGames = 50000;

// Folds one event into `t` (empty before `created`). INVALID_ARGUMENT for a
// malformed event (unknown player, a board used twice, a player paired twice
// in a round, an individual round robin of more than kMaxRoundRobinGames
// games, an event before `created`...); FAILED_PRECONDITION when the
// tournament's state forbids it (a round already paired, a Swiss pairing of
// a player who withdrew: art. 28.3, a roundStarted attaching a game to a
// board that names one already).
absl::Status Apply(const v1::TournamentEvent& event, v1::Tournament* t);

// Folds a whole stream, naming the first bad event's 1-based position.
absl::StatusOr<v1::Tournament> Fold(const std::vector<v1::TournamentEvent>& events);

// INVALID_ARGUMENT when `p` pairs two players of one team in a team event.
// A director's pairing is refused so (the service checks it); a file of
// tournament software may hold such a game (OpenGotha reads it), which then
// counts for the players and for no match.
absl::Status CheckNotTeamMates(const v1::Tournament& t, const v1::Pairing& p);

// Lookups in a folded tournament (nullptr when absent).
const v1::TournamentPlayer* FindPlayer(const v1::Tournament& t, absl::string_view id);
const v1::TournamentTeam* FindTeam(const v1::Tournament& t, absl::string_view id);
const v1::Pairing* FindPairing(const v1::Tournament& t, int round, int board);
const v1::PlayerWithdrawn* FindWithdrawal(const v1::Tournament& t, absl::string_view player);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_FOLD_H_
