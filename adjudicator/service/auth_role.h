// Who may do what on the arbiter.v1 services: the four roles a bearer token
// carries, and which of them hold each access. The access each RPC method
// and each event kind needs is declared in the contract, beside the method
// or the event (proto/arbiter/v1/access.proto); this is the other half of
// the one table.
//
//   ARBITER        records events (incidents, moves, presses, the result's
//                  confirmation) and decides the arbiter's rulings, only in
//                  the games the token is assigned to
//   CHIEF_ARBITER  everything an arbiter does, in every game; creates games;
//                  organises tournaments (creates or imports them, adds
//                  players, pairs rounds, schedules replays, withdraws
//                  players, decides tie-breaks); decides the rulings the
//                  rules leave to the chief arbiter, and appeals (16.4)
//   AUDITOR        reads, verifies and exports games
//   SOFTWARE       reads and watches (broadcast, pairing software)
//   VENUE          a venue's `arbiter sync --to ADDR` into a federation's
//                  server: writes the venue's games verbatim (SyncVenueGame,
//                  access SYNC), and reads; records nothing at a board
//
// Reads are open to every role. Health checks need no token; server
// reflection is a read. Any other method is refused.
#ifndef ARBITER_ADJUDICATOR_SERVICE_AUTH_ROLE_H_
#define ARBITER_ADJUDICATOR_SERVICE_AUTH_ROLE_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "arbiter/v1/access.pb.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter::service {

enum class Role { kArbiter, kChiefArbiter, kAuditor, kSoftware, kVenue };

// "ARBITER", "CHIEF_ARBITER", "AUDITOR", "SOFTWARE", "VENUE".
absl::string_view RoleName(Role role);
// The name with its article, as a message reads it: "an ARBITER token",
// "a CHIEF_ARBITER token", "an AUDITOR token".
std::string RoleWithArticle(Role role);
std::optional<Role> ParseRole(absl::string_view name);

// The actor the service stamps on a token holder's events (Event.actor,
// TournamentEvent.actor): "Li Wei (ARBITER, token 1a2b3c4d)".
std::string ActorOf(absl::string_view name, Role role, absl::string_view token_id);

// A recorded actor read back for the pages a person reads (the slip): the
// name, role and token id of one ActorOf wrote; any other actor
// ("server:clock", an imported file's) whole as the name, no role or token.
struct RecordedActor {
  std::string name;
  std::optional<Role> role;
  std::string token_id;
};
RecordedActor ParseActor(absl::string_view actor);

// The access a full method name ("/arbiter.v1.Arbiter/AppendEvents") needs:
// its (arbiter.v1.method_access) option, when it declares its game_scope
// too (admission.h); PUBLIC for grpc.health.v1, READ for server reflection;
// ACCESS_UNSPECIFIED (refused) for anything else.
v1::Access MethodAccess(absl::string_view method);

// The access recording `event` needs: its kind's (arbiter.v1.event_access)
// option; ACCESS_UNSPECIFIED (refused) for an event with no kind.
v1::Access EventAccess(const v1::Event& event);

// Whether `role` holds `access` (RECORD for an ARBITER still needs the game
// to be one of the token's).
bool Permits(Role role, v1::Access access);

// Whether calls with `access` write (and count against the write rate).
bool IsWrite(v1::Access access);

// The authority events recorded by `role` carry (Event.authority).
v1::Authority AuthorityOf(Role role);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_AUTH_ROLE_H_
