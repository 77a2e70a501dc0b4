// Who may do what on the arbiter.v1 services (issue 8): the four roles a
// bearer token carries, and the methods of arbiter.v1.Arbiter and
// arbiter.v1.TournamentService each may call.
//
//   ARBITER        records events (incidents, moves, presses, the result's
//                  confirmation) and decides rulings, only in the games the
//                  token is assigned to
//   CHIEF_ARBITER  everything an arbiter does, in every game; creates games;
//                  organises tournaments (creates or imports them, adds
//                  players, pairs rounds, schedules replays, withdraws
//                  players, decides tie-breaks); the chief arbiter's clauses
//                  and appeals are decided through Decide
//   AUDITOR        reads, verifies and exports games
//   SOFTWARE       reads and watches (broadcast, pairing software)
//
// Tournament reads (GetTournament, GetStandings, ExportTournament) are reads
// for every role: standings and their exports are published results, and a
// tournament holds no result of its own (each pairing's result is its
// ledger game's).
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
  kCreate,   // creating games and tournaments
  kOrganise, // a tournament's players, rounds, replays, withdrawals, tie-breaks
  kUnknown,  // not a method of this service: refused
};

// The access a full method name ("/arbiter.v1.Arbiter/AppendEvents") needs.
Access AccessOf(absl::string_view method);

// Whether calls with `access` write (and count against the write rate).
bool IsWrite(Access access);

// Whether `role` has `access` (kRecord for ARBITER still needs the game to
// be one of the token's).
bool Permits(Role role, Access access);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_ROLE_H_
