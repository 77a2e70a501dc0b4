// What each pairing counts for (art. 27: a win 2, a draw 1 each, a loss 0),
// from its game's result, then art. 28's withdrawals applied.
//
// Decided mapping of game outcomes (DOMAIN.md §5) to tournament results:
//  - BLACK_WINS / WHITE_WINS: 2-0. By default (not played over the board,
//    OpenGotha's _BYDEF) when the reason is LATENESS: a lateness forfeit.
//  - DRAW: 1-1.  BOTH_LOSE: 0-0 (by default when by LATENESS, 22.3).
//  - NO_RESULT (无胜负): 0-0, the game counts as met, but is no loss: in
//    none of wins, draws and losses from tournament-2026.2 (standings_rules.h).
//    Exported as both-lose, the only 0-0 result the formats know; the
//    sidecar says NO_RESULT.
//  - REPLAY: pending until a ReplayScheduled names the replay's game, whose
//    result then decides the pairing.
//  - no result yet, or the game not in the ledger: pending (counts nothing).
//
// A game recorded with other players, or the paired players in the other
// colours (GameFacts.recordedBlack/White, when known), is MISMATCH: it
// counts for nobody, rather than crediting its result to the wrong player.
//
// Withdrawals (2002 art. 28; 1988 art. 29, the same here but for 29.3,
// which standings.h applies), for a player who withdrew after round R:
//  - round robin (28.2): if the games they finished in rounds 1..R are fewer
//    than half the event's rounds, every result of theirs is void, for them
//    and their opponents; otherwise those results stand and every game
//    of theirs after R (paired or not yet paired) is a loss by default.
//  - Swiss (28.3): results stand; no later pairing (the fold refuses them).
//  - team (28.4 "未赛部分均作弃权处理"): results stand; each later board of
//    theirs is a forfeit, lost by default (the opponent wins); under cn-1988
//    (29.4 "未赛部分均作对方胜") each counts as the opponent's win, by default.
// A forfeit between two withdrawn players is lost by both; under cn-1988 a
// team board between two withdrawn players is a win to each (29.4 read for
// each side: "作对方胜").
// A bye in a round after the player's withdrawal (a round robin's schedule
// drawn before it, or a withdrawal recorded in a later game) is credited
// nothing from tournament-2026.3 (ByeCredited).
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_SCORING_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_SCORING_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

#include "adjudicator/tournament/game_facts.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// Whether `facts` (a game's recorded players) fit the pairing `p`: its
// black player recorded as Black and its white player as White, each by id,
// native or romanized name (names.h RecordedAs). OK when the record names
// nobody (not known, not checked); FAILED_PRECONDITION saying who was
// recorded and whether the players or only the colours differ.
absl::Status CheckRecordedPlayers(const v1::Tournament& t, const v1::Pairing& p,
                                  const GameFacts& facts);

// One pairing of `t` from its game (or entered result), before withdrawals.
v1::ScoredPairing ScorePairing(const v1::Tournament& t, const v1::Pairing& p,
                               const GameFactsMap& games);

// Every pairing of `t`, in round and board order, withdrawals applied; a
// round robin's never-paired forfeits follow with round 0.
std::vector<v1::ScoredPairing> ScoreTournament(const v1::Tournament& t, const GameFactsMap& games);

// The rounds of a round robin: (n-1 if n is even, else n) x cycles, unless
// the settings name them.
int RoundRobinRounds(const v1::Tournament& t);

// Whether the pairing counts in the standings (decided or forfeited).
bool Counts(const v1::ScoredPairing& p);

// Whether `id`'s bye in `round` is worth the bye setting. Not in an
// individual event's round after `id` withdrew, from tournament-2026.3: a
// withdrawn player takes no further part (28.2 forfeits their games, 28.3
// pairs them no more), and a bye is the points of a round for a player who
// is there but has no opponent. Under 2026.1 and 2026.2 every listed bye is
// credited, so their recorded standings derive again. A team's bye is
// scored as a match (standings.cc CreditTeamBye) and is not changed here.
bool ByeCredited(const v1::Tournament& t, const std::string& id, int round);

// Every bye of every round as the standings count it (ByeCredited), in
// round order, then as the round lists them: the JSON export's `byes`.
std::vector<v1::ScoredBye> ScoredByes(const v1::Tournament& t);

// The tournament's ruleset id: settings.ruleset, "cn-2002" when unset.
std::string Ruleset(const v1::Tournament& t);

// The clause of the withdrawal rule for `system` ("round robin", "Swiss" or
// "team"): "cn-2002/28.2" or "cn-1988/29.2"...
std::string WithdrawalClause(const v1::Tournament& t, absl::string_view which);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_SCORING_H_
