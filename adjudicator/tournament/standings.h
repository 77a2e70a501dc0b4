// Standings per art. 27 (2002), from scored pairings (scoring.h).
//
// Individual round robin (27 个人赛 1): points (2/1/0), then
//   A 胜者小分: the final points of the opponents beaten plus half those of
//     the opponents drawn,
//   B fewer warnings over the whole event (WARNING sanctions in our rulings),
//   C an extra game or lots, recorded as a TieBreakDecided;
//   entrants still level share the rank.
// Individual Swiss (27 个人赛 2):
//   TOTAL_SCORE (2.A): total score = points + [opponents' points /
//     (½ of the maximum points) − rounds], the maximum points being 2 per
//     round, so ½ of it is the number of rounds R: points + ΣOpp/R − R.
//     Then B, then C.
//   POINTS_THEN_OPPONENTS (2.B): points, then opponents' points, then B, C.
//   R is the number of rounds paired so far; a bye has no opponent.
// Team events (27 团体赛): a match is won (2 match points) by the team with
//   more board points (2/1/0 per game), drawn (1 each) on equal board points;
//   round robin: match points, then board points, then board 1's game
//   points, board 2's... (1); Swiss (2): the total score formula over match
//   points, then as the round robin; C (3) when decided; else shared.
// Byes score the settings' byePoints. Pending, void and mismatched
// pairings count nothing (a mismatch is listed in the report's `errors`);
// forfeits count as results (the opponent met).
// Under cn-1988, art. 29.3: a withdrawn Swiss player's points count for
// their opponents' scores (total score, opponents' points) as their points
// plus A x the rounds after their withdrawal, A = their game points per
// game played, at most 1 (Standing.opponentsScore).
// Team events: a game with a player outside any team, or between team-mates
// (only from tournament software's file: fold.h), belongs to no match;
// board by board takes each game's board from its pairing's teamBoard when
// the boards change by round, else from the player's own board.
// Each standing's decidedBy names the criterion that broke its tie with the
// entry above.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_STANDINGS_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_STANDINGS_H_

#include <vector>

#include "adjudicator/tournament/game_facts.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// The whole report: pairings scored (withdrawals applied), standings ranked.
v1::StandingsReport ComputeStandings(const v1::Tournament& t, const GameFactsMap& games);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_STANDINGS_H_
