// Validation of rules data beyond what the proto schema can say.
//
// The schema accepts any combination of fields; these checks make sure the
// data means something the engine can act on: every cited clause exists,
// every discretionary clause says who decides, no two sanctionings compete
// for the same incident, parameters are in range. They run when the build
// embeds the data and whenever a Rules is made from a proto.
#ifndef ARBITER_RULESDB_VALIDATE_H_
#define ARBITER_RULESDB_VALIDATE_H_

#include <string>

#include "absl/status/status.h"
#include "arbiter/v1/rules.pb.h"

namespace arbiter {

// The RulingOption id for a set of sanctions: their names joined by "+",
// e.g. "MOVE_VOID+COUNTS_AS_PASS".
std::string OptionId(const google::protobuf::RepeatedField<int>& sanctions);

// INVALID_ARGUMENT naming the ruleset and the offending entry.
absl::Status ValidateRuleset(const v1::Ruleset& ruleset);

// Checks `supplement` against its base, which must be `base`.
absl::Status ValidateSupplement(const v1::Supplement& supplement, const v1::Ruleset& base);

}  // namespace arbiter

#endif  // ARBITER_RULESDB_VALIDATE_H_
