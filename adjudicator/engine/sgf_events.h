// An SGF game record as the events of DOMAIN.md §3 (`arbiter import-sgf`).
//
// gameCreated (game id as given; ruleset cn-2002; venue
// SAME_SITE; scheduled start from DT at 00:00Z, else 2000-01-01T00:00:00Z;
// komiStones = KM / 2; setup from AB/AW/PL; main time only, and only when
// BL/WL are present and each player's only go down and stay above zero),
// gameStarted, one move or pass per main-line move and, when RE says X+R,
// the loser's resign. Times never go backwards: records without BL/WL have
// their moves one second apart; with them, time advances by what each move
// used, as the remaining times show (a remaining time that went up, as in
// byo-yomi, costs nothing; byo-yomi itself is not modelled).
#ifndef ARBITER_ADJUDICATOR_ENGINE_SGF_EVENTS_H_
#define ARBITER_ADJUDICATOR_ENGINE_SGF_EVENTS_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "adjudicator/engine/sgf.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// Fails, naming the move's place in the file, if a move of the main line is
// illegal on the board (occupied, suicide, a repeated situation). `game_id`
// names the game: GN is a title, not an identifier (ten of the shared GNU Go
// records share one), so the caller chooses, e.g. the file's name.
absl::StatusOr<std::vector<v1::Event>> SgfToEvents(const SgfGame& game,
                                                   std::string_view game_id);

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_SGF_EVENTS_H_
