// Resource names of the arbiter.v1 services, and the one rule for the ids in
// them: "games/{id}", "tournaments/{id}", "rulesets/{id}". An id is 1-128
// characters of letters, digits and "-._~" (URL-safe and without '/'), but
// not "." or "..", so a name round-trips through any client, URL or file
// name. A refusal quotes at most 16 bytes of the id, C-escaped. Tournament, team
// and player ids follow the same rule as game ids.
#ifndef ARBITER_PROTO_NAMES_RESOURCE_NAME_H_
#define ARBITER_PROTO_NAMES_RESOURCE_NAME_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace arbiter {

inline constexpr size_t kMaxIdLength = 128;

// OK iff `id` is a valid id; INVALID_ARGUMENT saying why otherwise, naming
// it as "`kind` id" ("game id '...': ...").
absl::Status CheckId(absl::string_view kind, absl::string_view id);
inline bool IsValidId(absl::string_view id) { return CheckId("", id).ok(); }

// "{collection}/{id}" -> id, for collection "games", "tournaments" or
// "rulesets"; INVALID_ARGUMENT naming `field` when malformed.
absl::StatusOr<std::string> ParseResourceName(absl::string_view collection, absl::string_view name,
                                              absl::string_view field);

// "{collection}/{id}".
std::string ResourceName(absl::string_view collection, absl::string_view id);

}  // namespace arbiter

#endif  // ARBITER_PROTO_NAMES_RESOURCE_NAME_H_
