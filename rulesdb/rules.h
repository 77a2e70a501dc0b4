// Rules: one ruleset with its supplement applied, as the engine consults it.
//
// This is the only view of the rule articles the adjudicator has. Everything a
// ruling cites or imposes comes from here, so a new ruleset version is a data
// change, not an engine change.
#ifndef ARBITER_RULESDB_RULES_H_
#define ARBITER_RULESDB_RULES_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/rules.pb.h"

namespace arbiter {

// The ruleset a game is judged under when its gameCreated names none, and
// the one new games get by default (DOMAIN.md §1: the 2002 rules).
inline constexpr char kDefaultRuleset[] = "cn-2002";

class Rules {
 public:
  // Validates `ruleset` (and `supplement`, whose base must be `ruleset`) and
  // computes their content hashes. Tests use this to build variants.
  static absl::StatusOr<Rules> FromProto(v1::Ruleset ruleset,
                                         const v1::Supplement* supplement = nullptr);

  const std::string& id() const;               // "cn-2002"
  const std::string& version() const;          // "2002.2"
  const std::string& hash() const;             // hex SHA-256 of the ruleset
  const std::string& supplement_id() const;    // empty without one
  const std::string& supplement_hash() const;  // empty without one

  // The base parameters with the supplement's overrides applied.
  const v1::Parameters& params() const;

  // The sanctioning that governs the `occurrence`-th (1-based) instance of
  // `incident` by one player in one game at `venue`, or nullptr when this
  // ruleset has no clause for it (the engine then rules nothing).
  const v1::Sanctioning* Find(v1::Incident incident, int occurrence,
                              v1::GameCreated::Venue venue) const;

  // A clause or article by id ("cn-2002/23.7", "cn-2002/19"), or nullptr.
  const v1::Clause* FindClause(std::string_view id) const;

  // The base ruleset exactly as given (what hash() covers); params() and
  // Find() are what see the supplement.
  const v1::Ruleset& ruleset() const;

  // The supplement as given, or nullptr.
  const v1::Supplement* supplement() const;

  // Every sanctioning in force: the base's, with the supplement's replacing
  // those of the same incident, occurrence and venue.
  const std::vector<v1::Sanctioning>& sanctionings() const;

 private:
  struct Rep;
  explicit Rules(std::shared_ptr<const Rep> rep);
  std::shared_ptr<const Rep> rep_;  // immutable, so copies are cheap and safe
};

// The rulesets and supplements built into this binary (builtin_rules.h).
// Unknown ids and versions are NOT_FOUND errors that name them; a supplement
// for another ruleset is INVALID_ARGUMENT.

// The latest version of `ruleset_id`: what a new game is judged under.
absl::StatusOr<Rules> LoadRules(std::string_view ruleset_id, std::string_view supplement_id = "");

// Version `version` of `ruleset_id` (empty: the latest).
absl::StatusOr<Rules> LoadRulesVersion(std::string_view ruleset_id, std::string_view version,
                                       std::string_view supplement_id = "");

// The version whose content hash is `ruleset_hash`: what a game whose ledger
// pinned that hash is judged under, whatever versions came after it.
absl::StatusOr<Rules> LoadRulesByHash(std::string_view ruleset_hash,
                                      std::string_view supplement_id = "");

// The rules a game names in its gameCreated: `ruleset` (empty: cn-2002) at
// `rulesetVersion` (empty: the latest), with its `supplement`.
absl::StatusOr<Rules> LoadRulesFor(const v1::GameCreated& created);

// A ruleset written "ID[@VERSION][+SUPPLEMENT]", e.g. "cn-2002@2002.1" or
// "cn-2002+cn-2002-rapid-no-pass"; without a version, the latest.
absl::StatusOr<Rules> LoadRulesSpec(std::string_view spec);

}  // namespace arbiter

#endif  // ARBITER_RULESDB_RULES_H_
