// The rulesets and supplements built into this binary.
//
// They are parsed from the embedded data files once, on first use. The build
// has already validated the same files, so a failure here means a corrupted
// binary; it is still reported, never ignored.
#ifndef ARBITER_RULESDB_BUILTIN_RULES_H_
#define ARBITER_RULESDB_BUILTIN_RULES_H_

#include "absl/status/statusor.h"
#include "rulesdb/rules.h"
#include "rulesdb/rules_data.h"

namespace arbiter {

// Every built-in ruleset and supplement; the pointer lives forever.
absl::StatusOr<const RulesData*> BuiltinRulesData();

// The built-in ruleset `id`, or NOT_FOUND naming it and the known ids.
absl::StatusOr<const v1::Ruleset*> BuiltinRuleset(std::string_view id);

// The built-in supplement `id`, or NOT_FOUND.
absl::StatusOr<const v1::Supplement*> BuiltinSupplement(std::string_view id);

}  // namespace arbiter

#endif  // ARBITER_RULESDB_BUILTIN_RULES_H_
