// The Judge the service and `arbiter verify` use: each game folded by the
// Adjudicator under the ruleset (and supplement) its gameCreated names, by
// default cn-2002. Kept out of arbiter_ledger (target
// arbiter_ledger_adjudicator) so that the store never depends on the engine.
#ifndef ARBITER_ADJUDICATOR_SERVICE_ADJUDICATOR_JUDGE_H_
#define ARBITER_ADJUDICATOR_SERVICE_ADJUDICATOR_JUDGE_H_

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ledger/judge.h"

namespace arbiter::ledger {

class AdjudicatorJudge : public Judge {
 public:
  // A fold per game under the rules its gameCreated names (at its
  // rulesetVersion, by default the latest); its RulesPin() is
  // "<ruleset> sha256:<hex>" with " + <supplement> sha256:<hex>" when the
  // game names a supplement (rulesdb/rules_pin.h).
  absl::StatusOr<std::unique_ptr<GameJudge>> Open(absl::string_view game_id,
                                                  const v1::GameCreated& created) override;

  // A recorded game's fold under the ruleset version its pin names, even
  // when a later version exists. INVALID_ARGUMENT when no built-in rules
  // match the pin.
  absl::StatusOr<std::unique_ptr<GameJudge>> Reopen(absl::string_view game_id,
                                                    const v1::GameCreated& created,
                                                    absl::string_view pin) override;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_ADJUDICATOR_SERVICE_ADJUDICATOR_JUDGE_H_
