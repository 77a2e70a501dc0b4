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
// (branching on StandingsRules(t)); a published name is never reused.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_STANDINGS_RULES_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_STANDINGS_RULES_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// Every version this binary scores under, oldest first; the last is the
// current one, which new tournaments pin.
inline constexpr absl::string_view kStandingsRulesVersions[] = {"tournament-2026.1"};

// The version a new tournament pins.
absl::string_view CurrentStandingsRules();

// The version `created` pins: its own, or the first when it names none (a
// tournament recorded before the pin). INVALID_ARGUMENT, naming the known
// versions, for one this binary does not have.
absl::StatusOr<std::string> PinnedStandingsRules(const v1::TournamentCreated& created);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_STANDINGS_RULES_H_
