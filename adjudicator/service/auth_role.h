// Who may do what on the arbiter.v1 service (issue 8): the four roles a
// bearer token carries, and the methods each may call.
//
//   ARBITER        records events (incidents, moves, presses) and decides
//                  rulings, only in the games the token is assigned to
//   CHIEF_ARBITER  everything an arbiter does, in every game, and creates
//                  games (the chief arbiter's clauses and appeals are
//                  decided through Decide)
//   AUDITOR        reads, verifies and exports
//   SOFTWARE       reads and watches (broadcast, pairing software)
//
// Health checks need no token. Any method not listed is refused.
#ifndef ARBITER_ADJUDICATOR_SERVICE_AUTH_ROLE_H_
#define ARBITER_ADJUDICATOR_SERVICE_AUTH_ROLE_H_

#include <optional>
#include <string>
#include "absl/strings/string_view.h"

namespace arbiter::service {

enum class Role { kArbiter, kChiefArbiter, kAuditor, kSoftware };

// "ARBITER", "CHIEF_ARBITER", "AUDITOR", "SOFTWARE".
absl::string_view RoleName(Role role);
std::optional<Role> ParseRole(absl::string_view name);

// What a call does, as far as permissions go.
enum class Access {
  kPublic,   // health checks
  kRead,     // reading games, rulings, checkpoints, proofs, rules; watching
  kAudit,    // verifying and exporting
  kRecord,   // appending events, deciding rulings (per game for ARBITER)
  kCreate,   // creating games
  kUnknown,  // not a method of this service: refused
};

// The access a full method name ("/arbiter.v1.Arbiter/AppendEvents") needs.
Access AccessOf(absl::string_view method);

// Whether `role` has `access` (kRecord for ARBITER still needs the game to
// be one of the token's).
bool Permits(Role role, Access access);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_ROLE_H_
