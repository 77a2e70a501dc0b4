#include "adjudicator/tournament/standings_rules.h"

#include <iterator>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace arbiter::tournament {

absl::string_view CurrentStandingsRules() {
  return kStandingsRulesVersions[std::size(kStandingsRulesVersions) - 1];
}

absl::StatusOr<std::string> PinnedStandingsRules(const v1::TournamentCreated& created) {
  if (created.standings_rules().empty()) return std::string(kStandingsRulesVersions[0]);
  for (absl::string_view v : kStandingsRulesVersions) {
    if (v == created.standings_rules()) return std::string(v);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("standingsRules '", created.standings_rules(),
                   "' is not a version of the standings rules this binary scores under (it has ",
                   absl::StrJoin(kStandingsRulesVersions, ", "), ")"));
}

}  // namespace arbiter::tournament
