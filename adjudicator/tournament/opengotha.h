// OpenGotha's XML tournament file (the subset that carries the results):
// <Tournament><Players><Player name firstName rank rating country club
// egfPin agaId .../></Players><Games><Game roundNumber tableNumber
// whitePlayer blackPlayer handicap result .../></Games><ByePlayers>
// <ByePlayer roundNumber player/></ByePlayers><Teams><Team teamNumber
// teamName><Board roundNumber boardNumber player/></Team></Teams>
// <TournamentParameterSet><GeneralParameterSet name numberOfRounds
// beginDate endDate location komi/></TournamentParameterSet></Tournament>.
//
// Players are named in games by OpenGotha's key string, the upper-case
// concatenation of name and first name; our player ids are that key reduced
// to letters and digits. Results: RESULT_WHITEWINS, RESULT_BLACKWINS,
// RESULT_EQUAL, RESULT_BOTHLOSE, each with _BYDEF for a game not played
// over the board; RESULT_UNKNOWN (or absent) for none yet. RESULT_BOTHWIN,
// which the 2002 rules do not know, is refused.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_OPENGOTHA_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_OPENGOTHA_H_

#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// The events that create the tournament the file describes: created (the
// file's name, rounds, dates, location, komi; `settings` supplies what the
// file cannot say: the system, and teams), teams, players, then one
// roundPaired per round with the file's results as entered results.
// INVALID_ARGUMENT with the line on any malformed or inconsistent element.
absl::StatusOr<std::vector<v1::TournamentEvent>> ImportOpenGotha(absl::string_view xml,
                                                                 absl::string_view tournament_id,
                                                                 const v1::TournamentSettings& settings);

// The tournament as an OpenGotha file, each game's result from `report`
// (void pairings as RESULT_BOTHLOSE_BYDEF, pending ones RESULT_UNKNOWN;
// round robin forfeits never paired have no round and are left out: the
// sidecar lists them).
std::string ExportOpenGotha(const v1::Tournament& t, const v1::StandingsReport& report);

// OpenGotha's result token for a scored pairing.
std::string OpenGothaResult(const v1::ScoredPairing& p);

// The key OpenGotha names a player by, and our id derived from it.
std::string OpenGothaKey(absl::string_view name, absl::string_view first_name);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_OPENGOTHA_H_
