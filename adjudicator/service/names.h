// Resource names of the arbiter.v1 service: "games/{game_id}" and
// "rulesets/{ruleset_id}". A game id is 1-128 characters of letters, digits
// and "-._~" (URL-safe, no '/'), so a name round-trips through any client.
#ifndef ARBITER_ADJUDICATOR_SERVICE_NAMES_H_
#define ARBITER_ADJUDICATOR_SERVICE_NAMES_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace arbiter::service {

// OK iff `id` is a valid game id; INVALID_ARGUMENT saying why otherwise.
absl::Status CheckGameId(absl::string_view id);

// "games/{id}" -> id; INVALID_ARGUMENT naming `field` when malformed.
absl::StatusOr<std::string> ParseGameName(absl::string_view name, absl::string_view field);

std::string GameName(absl::string_view id);

// "rulesets/{id}" -> id.
absl::StatusOr<std::string> ParseRulesetName(absl::string_view name);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_NAMES_H_
