// Withdrawals the games record (2002 art. 23.2), seen by the standings.
//
// 23.2: "棋手报名参赛后，无正当理由，部分或全部退出比赛除对有关棋局判负之外，
// 允许作出今后的停赛处罚。" A player recorded withdrawing during a game (the
// `withdrew` event; GameFacts.withdrew_black/white) loses that game: the
// engine rules it (23.2 LOSS; under cn-1988 the chief arbiter decides, 25.1).
// What it means for the tournament, a decided reading:
//  - If the player has no later game with a result (recorded or entered),
//    they left the competition (全部退出) during that game's round R: the
//    tournament gets a PlayerWithdrawn {after_round = R}, and art. 28 (1988
//    art. 29) applies to it as to one the director recorded (scoring.h). The
//    game of round R counts as played; where 28.2 voids every result of a
//    player who played fewer than half the rounds, the 23.2 loss is void
//    with the rest (28 is the article on withdrawals from the competition).
//  - If a later game of theirs has a result, the withdrawal was partial
//    (部分退出): the game concerned is lost and nothing else changes.
//  - A withdrawal the tournament already records for the player (the
//    director's `withdraw`) is kept as it is.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_WITHDRAWALS_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_WITHDRAWALS_H_

#include "adjudicator/tournament/game_facts.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// `t` with a PlayerWithdrawn added, in round order, for each player that a
// game of a pairing (the game in force) records as withdrawing from the
// competition, as above. Its note names the game and the clause.
v1::Tournament WithWithdrawalsFromGames(const v1::Tournament& t, const GameFactsMap& games);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_WITHDRAWALS_H_
