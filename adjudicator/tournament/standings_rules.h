// The versions of the standings rules: how adjudicator/tournament turns a
// tournament's record into standings (scoring.h, standings.h, withdrawals.h,
// match_scores.h). Each tournament pins one at creation
// (TournamentCreated.standings_rules), as each game pins its rules, so a
// standings report recorded in the log (recorded_standings.h) is derived
// again under the version it was made with. These are code, not data, so
// they are listed here rather than in rulesdb/data/PUBLISHED (which holds
// the articles' data and its content hashes): a change to the scoring that
// changes any report adds a version at the end of kStandingsRulesVersions
// and keeps the earlier behaviour reachable under the earlier names
// (branching on StandingsRulesFrom(t, version)); a published name is never
// reused.
//
//  - tournament-2026.1: the first; every 0-0 (BOTH_LOSE, NO_RESULT) is a
//    loss in the wins/draws/losses columns.
//  - tournament-2026.2: a NO_RESULT game counts in none of wins, draws and
//    losses (the README's "Game outcomes": no result is not a loss); a
//    BOTH_LOSE is still a loss for both.
//  - tournament-2026.3: a player of an individual event is credited no bye
//    for a round after their withdrawal (art. 28: they play no more; a bye
//    is a round's points for a player there to be paired, scoring.h
//    ByeCredited). Earlier versions credited every bye in the round's list.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_STANDINGS_RULES_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_STANDINGS_RULES_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// Every version this binary scores under, oldest first; the last is the
// current one, which new tournaments pin.
inline constexpr absl::string_view kStandingsRulesVersions[] = {
    "tournament-2026.1", "tournament-2026.2", "tournament-2026.3"};

// The version a new tournament pins.
absl::string_view CurrentStandingsRules();

// The version `created` pins: its own, or the first when it names none (a
// tournament recorded before the pin). INVALID_ARGUMENT, naming the known
// versions, for one this binary does not have.
absl::StatusOr<std::string> PinnedStandingsRules(const v1::TournamentCreated& created);

// Whether `t` is scored under `version` or a later one: the scoring's branch
// for a change `version` made. `t`'s pin is its standings_rules (the fold
// sets it; none reads as the first version). `version` must be one of
// kStandingsRulesVersions; another, or a pin this binary does not have
// (which the fold refuses), answers false.
bool StandingsRulesFrom(const v1::Tournament& t, absl::string_view version);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_STANDINGS_RULES_H_
