// OpenGotha's XML tournament file, read and written as OpenGotha 3.x
// (info.vannier.gotha.ExternalDocument) reads and writes it:
// <Tournament dataVersion><Players><Player name firstName rank rating
// ratingOrigin country club egfPin agaId participating registeringStatus/>
// </Players><Games><Game roundNumber tableNumber whitePlayer blackPlayer
// knownColor handicap result/></Games><ByePlayers><ByePlayer roundNumber
// player/></ByePlayers><Teams><Team teamNumber teamName><Board roundNumber
// boardNumber player/></Team></Teams><TournamentParameterSet>
// <GeneralParameterSet .../><HandicapParameterSet .../>
// <PlacementParameterSet>...</PlacementParameterSet><PairingParameterSet
// .../></TournamentParameterSet><TeamTournamentParameterSet>...
// </TeamTournamentParameterSet></Tournament>.
//
// Players are named in games, byes and boards by OpenGotha's key string:
// name and first name concatenated, spaces removed, upper-cased by Java
// (Player.computeKeyString). Our player ids are that key reduced to ASCII
// letters and digits. Results: RESULT_WHITEWINS, RESULT_BLACKWINS,
// RESULT_EQUAL, RESULT_BOTHLOSE, each with _BYDEF for a game not played
// over the board; RESULT_UNKNOWN (or absent) for none yet. RESULT_BOTHWIN,
// which the 2002 rules do not know, is refused.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_OPENGOTHA_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_OPENGOTHA_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// The events that create the tournament the file describes: created (the
// file's name, rounds, dates, location, komi; `settings` supplies what the
// file cannot say: the system), teams, players, then one roundPaired per
// round with the file's results as entered results. A rating OpenGotha
// derived from the rank (ratingOrigin "INI") is not a rating: it is left
// unset. Team events: a player may be outside any team; a team's boards may
// change from round to round (each pairing then carries its teamBoard, and
// a player keeps a board of their own only if it never changed and no
// team-mate shares it); <Board> rounds past the games' are ignored.
// INVALID_ARGUMENT with the line on any malformed element, or one the
// tournament cannot hold (a player's country, a round past its rounds).
absl::StatusOr<std::vector<v1::TournamentEvent>> ImportOpenGotha(
    absl::string_view xml, absl::string_view tournament_id, const v1::TournamentSettings& settings);

// As ImportOpenGotha, each element checked, but the events not folded into
// one tournament: for `import-round`, which takes one round of the file
// onto a tournament of its own (whose rounds the file's others may exceed).
absl::StatusOr<std::vector<v1::TournamentEvent>> ReadOpenGotha(
    absl::string_view xml, absl::string_view tournament_id, const v1::TournamentSettings& settings);

// The tournament as an OpenGotha file that OpenGotha's File > Open accepts,
// each game's result from `report` (void pairings as RESULT_BOTHLOSE_BYDEF,
// pending and mismatched ones RESULT_UNKNOWN; round robin forfeits never
// paired have no round and are left out: the sidecar lists them). Names
// are the romanized ones where given, else the native ones. A rating is
// written where known, else derived from the rank as OpenGotha does
// (ratingFromRank, ratingOrigin "INI"). Every parameter set the importer
// reads without a null check is written.
// FAILED_PRECONDITION, naming the player or round, for what OpenGotha
// would refuse or lose: a player without a first name (Player.java), a
// country that is not two letters, a club of more than 4 characters, a
// rank OpenGotha cannot read, two players with one key string, a name
// whose upper case is not known here, two byes in one round (OpenGotha
// keeps one per round), more than 20 rounds, a date not YYYY-MM-DD.
absl::StatusOr<std::string> ExportOpenGotha(const v1::Tournament& t,
                                            const v1::StandingsReport& report);

// OpenGotha's result token for a scored pairing.
std::string OpenGothaResult(const v1::ScoredPairing& p);

// The key OpenGotha names a player by (Player.computeKeyString): name and
// first name, spaces removed, Java's upper case. INVALID_ARGUMENT when the
// upper case of a character is not known here (names.h, JavaUpperCase).
absl::StatusOr<std::string> OpenGothaKey(absl::string_view name, absl::string_view first_name);

// OpenGotha's rank number for a rank string (Player.convertKDPToInt: "30K"
// is -30, "1K" -1, "1D" 0, "9D" 8, "1P".."3P" 6, ...); nullopt where
// OpenGotha reads none (its -99).
std::optional<int> OpenGothaRank(absl::string_view rank);

// OpenGotha's rating for a rank number (Player.ratingFromRank).
int OpenGothaRatingFromRank(int rank);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_OPENGOTHA_H_
