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

bool StandingsRulesFrom(const v1::Tournament& t, absl::string_view version) {
  const absl::string_view pinned =
      t.standings_rules().empty() ? kStandingsRulesVersions[0] : t.standings_rules();
  int pinned_at = -1;
  int version_at = -1;
  for (int i = 0; i < static_cast<int>(std::size(kStandingsRulesVersions)); ++i) {
    if (kStandingsRulesVersions[i] == pinned) pinned_at = i;
    if (kStandingsRulesVersions[i] == version) version_at = i;
  }
  return pinned_at >= 0 && version_at >= 0 && pinned_at >= version_at;
}

}  // namespace arbiter::tournament
