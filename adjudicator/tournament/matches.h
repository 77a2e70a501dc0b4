// A team round as matches (2002 art. 25.2 团体比赛, 27 团体赛, 28.4): each
// match pairs two teams' lineups board by board, board k against board k,
// with the colours the tournament's settings give (art. 10: 先后手由大会抽签
// 编排…竞赛规程对此应作明确表述). Pure: no I/O, no clock.
//
// A team's lineup for a round, board 1 first, is:
//  - 分台定人制 (FIXED_BOARDS): the lineup named for the round, or else its
//    first `boards` registered players in board order. A named lineup keeps
//    the registered order ("台次一经排定，比赛中不得更改"): a player left out
//    (a substitute, 替补, plays) moves the ones below up, never across.
//  - 临场出人制 (ROUND_LINEUP): the lineup the coach named for the round,
//    any order, from the team's players (substitutes included).
// A team fields `TournamentSettings.match_boards` players (每队人数相等), or,
// when that is 0, as many as it has registered boards.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_MATCHES_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_MATCHES_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/tournament.pb.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace arbiter::tournament {

// The lineup of `team` for round `round`: its players' ids, board 1 first.
// INVALID_ARGUMENT when no team `team` exists, or when its registered boards
// leave a gap (1, 2, 4) or are fewer than it fields; FAILED_PRECONDITION
// under 临场出人制 when no lineup was named for the round.
absl::StatusOr<std::vector<std::string>> TeamLineup(const v1::Tournament& t, int round,
                                                    absl::string_view team);

// INVALID_ARGUMENT unless `lineup` may be recorded in `t`: a team event
// under FIXED_BOARDS or ROUND_LINEUP, an existing team, a round from 1 (and
// within the planned rounds), each player once and of that team, not
// withdrawn before the round (28.4), as many as a team fields, and under
// 分台定人制 in registered board order. FAILED_PRECONDITION when the round
// is already paired: a lineup is named before its round.
absl::Status CheckLineup(const v1::Tournament& t, const v1::LineupSet& lineup);

// Round `round` as the matches `matches`, in that order: the tables of each
// match numbered on from the last one's; each pairing names its match board
// (`team_board`) and no game (`tournament start-round` creates them); `byes`
// copied as they are (a team's id stands for its lineup: fold.h). A board
// whose player has withdrawn is paired all the same: 28.4 forfeits it.
// INVALID_ARGUMENT for a team that is unknown, plays itself, appears twice
// in the round, or fields a different number of players than its opponent;
// TeamLineup's errors.
absl::StatusOr<v1::TournamentRound> PairMatches(
    const v1::Tournament& t, int round,
    const google::protobuf::RepeatedPtrField<v1::TeamMatch>& matches,
    const google::protobuf::RepeatedPtrField<std::string>& byes);

// INVALID_ARGUMENT when the pairings of round `r` of a team event do not
// make matches (25.2, 27): a team's players meet more than one team; a
// board meets another board (A1 v B2: crossed); a match's boards leave a
// gap (1, 2, 4: board-by-board ties would compare different boards) or
// name one board twice. A board is the pairing's `team_board`, else the
// player's registered one; a player with neither is not checked. OK for an
// individual event.
absl::Status CheckMatches(const v1::Tournament& t, const v1::TournamentRound& r);

// Why pairing `p` of a team event is lost by default without a game (28.4,
// 1988 29.4: a player withdrew before its round), in words; empty when it
// is to be played.
std::string ForfeitedBoard(const v1::Tournament& t, const v1::Pairing& p);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_MATCHES_H_
