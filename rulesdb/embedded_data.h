// The rules data compiled into the binary.
//
// The definition is generated at build time by rulesdb/tools/embed_rules.cc:
// it parses and validates rulesdb/data/**.textproto (rules_data.h), checks
// them against the PUBLISHED manifest, and only then writes each ruleset
// version and each supplement as its canonical bytes (proto/canonical). The
// binary decodes those bytes rather than parsing the text again: decoding
// takes a millisecond where the text format took most of a short command's
// time (`arbiter verify`, `arbiter adjudicate` load one version each).
#ifndef ARBITER_RULESDB_EMBEDDED_DATA_H_
#define ARBITER_RULESDB_EMBEDDED_DATA_H_

#include <cstddef>
#include <span>

namespace arbiter {

// One v1::Ruleset or v1::Supplement in its canonical encoding.
struct EmbeddedMessage {
  const char* name;  // "<id>@<version>", for a message naming a damaged one
  const unsigned char* data;
  size_t size;
};

// The ruleset versions, ordered by id then version (as RulesData::rulesets).
std::span<const EmbeddedMessage> EmbeddedRulesets();

// The supplements, ordered by id (as RulesData::supplements).
std::span<const EmbeddedMessage> EmbeddedSupplements();

}  // namespace arbiter

#endif  // ARBITER_RULESDB_EMBEDDED_DATA_H_
