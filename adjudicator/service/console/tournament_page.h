// The tournament as the console shows it, server-rendered and printable on
// A4 without scripts (/tournaments/{id}): the standings under a header that
// names each criterion of the event's system (积分, 胜者小分, ... with their
// legend), a cross-table for an individual round robin, and a round's
// pairings with their results in words. And where each game stands in the
// tournaments (its round and board), for the hall's round filter and the
// ruling slip.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_TOURNAMENT_PAGE_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_TOURNAMENT_PAGE_H_

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "adjudicator/service/registration.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::service::console {

// A game's place in a tournament: the pairing that names it.
struct Placement {
  std::string tournament_id;
  std::string title;
  std::string location;
  int round = 0;
  int board = 0;
};
using Placements = absl::flat_hash_map<std::string, Placement>;  // by game id

// Every game any stored tournament pairs (replays too); the errors of the
// store (UNAVAILABLE, DATA_LOSS) as they come.
absl::StatusOr<Placements> PlaceGames(tournament::TournamentHost& host);

// {"G1": {"tournament": "cup", "title": "...", "round": 3, "board": 2}, ...}
std::string PlacementsJson(const Placements& placements);

struct TournamentFacts {
  v1::Tournament tournament;
  v1::StandingsReport report;
  int round = 0;      // the round whose pairings are shown; 0: the latest paired
  uint64_t feed = 0;  // the live feed's position the report was read at
};

std::string RenderTournament(const TournamentFacts& facts);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_TOURNAMENT_PAGE_H_
