// RulesPin: the rules a game is judged under, as its ledger records them.
//
// A pin names the ruleset and supplement by id and content hash:
//   "cn-2002 sha256:<hex>"  or  "cn-2002 sha256:<hex> + <supplement> sha256:<hex>"
// The ledger stores it when a game is created and treats it as opaque; a
// judge that re-opens the game loads exactly the pinned version, whatever
// version is the latest now, so the game re-adjudicates to the rulings it
// recorded.
#ifndef ARBITER_RULESDB_RULES_PIN_H_
#define ARBITER_RULESDB_RULES_PIN_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "rulesdb/rules.h"

namespace arbiter {

// The pin of `rules`.
std::string RulesPin(const Rules& rules);

// The built-in rules `pin` names: the ruleset version with the pinned hash,
// and the supplement the pin names, which must still hash as pinned.
// INVALID_ARGUMENT for a malformed pin; NOT_FOUND when no built-in ruleset
// version or supplement matches; FAILED_PRECONDITION when the supplement's
// content is no longer the pinned one.
absl::StatusOr<Rules> LoadPinnedRules(std::string_view pin);

}  // namespace arbiter

#endif  // ARBITER_RULESDB_RULES_PIN_H_
