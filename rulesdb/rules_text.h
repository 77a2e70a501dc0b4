// Parsing rules data written in protobuf text format.
//
// The data files are the rules database's source of truth. A malformed file
// must be reported with its name, line and column, both when the build embeds
// it (rulesdb/tools/embed_rules.cc) and when a binary loads it.
#ifndef ARBITER_RULESDB_RULES_TEXT_H_
#define ARBITER_RULESDB_RULES_TEXT_H_

#include <string_view>

#include "absl/status/status.h"
#include "google/protobuf/message.h"

namespace arbiter {

// Merges the text-format `text` into `message` (so a ruleset may be split over
// several files). On a syntax or schema error returns INVALID_ARGUMENT
// "<name>:<line>:<column>: <what>", with 1-based line and column, and leaves
// `message` unspecified.
absl::Status MergeRulesText(std::string_view name, std::string_view text,
                            google::protobuf::Message* message);

}  // namespace arbiter

#endif  // ARBITER_RULESDB_RULES_TEXT_H_
