// The rulesets and supplements built into this binary.
//
// They are decoded from the embedded data once, on first use. The build has
// parsed and validated the data files and embedded what it read
// (embedded_data.h), so a failure here means a corrupted binary; it is still
// reported, never ignored. Every published version of a
// ruleset is built in: the latest is what a new game gets, the others are
// what games pinned to them are judged under.
#ifndef ARBITER_RULESDB_BUILTIN_RULES_H_
#define ARBITER_RULESDB_BUILTIN_RULES_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "rulesdb/rules.h"
#include "rulesdb/rules_data.h"

namespace arbiter {

// Every built-in ruleset version and supplement; the pointer lives forever.
absl::StatusOr<const RulesData*> BuiltinRulesData();

// The latest built-in version of ruleset `id`, or NOT_FOUND naming it and the
// known ids.
absl::StatusOr<const v1::Ruleset*> BuiltinRuleset(std::string_view id);

// Version `version` of ruleset `id`, or NOT_FOUND naming the known versions.
absl::StatusOr<const v1::Ruleset*> BuiltinRulesetVersion(std::string_view id,
                                                         std::string_view version);

// The built-in ruleset version whose content hash (ContentHash, hex) is
// `hash`, or NOT_FOUND.
absl::StatusOr<const v1::Ruleset*> BuiltinRulesetByHash(std::string_view hash);

// The latest version of each built-in ruleset, ordered by id.
absl::StatusOr<std::vector<const v1::Ruleset*>> LatestBuiltinRulesets();

// The built-in supplement `id`, or NOT_FOUND.
absl::StatusOr<const v1::Supplement*> BuiltinSupplement(std::string_view id);

}  // namespace arbiter

#endif  // ARBITER_RULESDB_BUILTIN_RULES_H_
