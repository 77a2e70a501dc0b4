// The ledger games a round is played as (`arbiter tournament start-round`):
// one a board, named from the tournament, the round and the board, and
// created with what the tournament says of its games. Pure.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_ROUND_GAMES_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_ROUND_GAMES_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// "{tournament}-r{round}-b{board}" ("cup-r3-b7"): the same on every call,
// so that starting a round twice finds the games it created the first time,
// and readable on a score sheet. INVALID_ARGUMENT when it would not be a
// valid game id (a tournament id of more than about 115 characters).
absl::StatusOr<std::string> RoundGameId(absl::string_view tournament_id, int round, int board);

// The gameCreated of pairing `p` of `t` as game `game_id`: the players'
// native names and ranks (as the pairing's colours say), table = board, the
// tournament's ruleset (cn-2002 when unset), komi, time control, venue
// (SAME_SITE when unset) and live clocks; a 19x19 board. FAILED_PRECONDITION
// for a handicap pairing: the engine adjudicates even games only (it has no
// handicap placement nor the compensation counted for it).
absl::StatusOr<v1::GameCreated> RoundGame(const v1::Tournament& t, const v1::Pairing& p,
                                          const std::string& game_id);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_ROUND_GAMES_H_
