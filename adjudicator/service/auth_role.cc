#include "adjudicator/service/auth_role.h"

#include "absl/strings/match.h"

namespace arbiter::service {

absl::string_view RoleName(Role role) {
  switch (role) {
    case Role::kArbiter: return "ARBITER";
    case Role::kChiefArbiter: return "CHIEF_ARBITER";
    case Role::kAuditor: return "AUDITOR";
    case Role::kSoftware: return "SOFTWARE";
  }
  return "UNKNOWN";
}

std::optional<Role> ParseRole(absl::string_view name) {
  for (Role r : {Role::kArbiter, Role::kChiefArbiter, Role::kAuditor, Role::kSoftware}) {
    if (name == RoleName(r)) return r;
  }
  return std::nullopt;
}

namespace {

// arbiter.v1.TournamentService: the organiser's record, which the chief
// arbiter keeps. No method records a result: a pairing's result is its
// ledger game's, recorded through arbiter.v1.Arbiter by that game's arbiter.
Access TournamentAccessOf(absl::string_view name) {
  if (name == "CreateTournament" || name == "ImportTournament") return Access::kCreate;
  for (absl::string_view organise :
       {"AddPlayers", "PairRound", "ScheduleReplay", "WithdrawPlayer", "DecideTieBreak"}) {
    if (name == organise) return Access::kOrganise;
  }
  for (absl::string_view read : {"GetTournament", "GetStandings", "ExportTournament"}) {
    if (name == read) return Access::kRead;
  }
  return Access::kUnknown;
}

}  // namespace

Access AccessOf(absl::string_view method) {
  if (absl::StartsWith(method, "/grpc.health.v1.Health/")) return Access::kPublic;
  if (absl::StartsWith(method, "/grpc.reflection.")) return Access::kRead;
  constexpr absl::string_view kTournaments = "/arbiter.v1.TournamentService/";
  if (absl::StartsWith(method, kTournaments)) {
    return TournamentAccessOf(method.substr(kTournaments.size()));
  }
  constexpr absl::string_view kService = "/arbiter.v1.Arbiter/";
  if (!absl::StartsWith(method, kService)) return Access::kUnknown;
  const absl::string_view name = method.substr(kService.size());
  if (name == "CreateGame") return Access::kCreate;
  if (name == "AppendEvents" || name == "Decide") return Access::kRecord;
  if (name == "VerifyGame" || name == "ExportGame") return Access::kAudit;
  for (absl::string_view read : {"GetGame", "ListEvents", "ListRulings", "WatchGame", "WatchAll",
                                "GetCheckpoint", "GetInclusionProof", "GetRuleset", "GetClause"}) {
    if (name == read) return Access::kRead;
  }
  return Access::kUnknown;
}

bool Permits(Role role, Access access) {
  switch (access) {
    case Access::kPublic:
    case Access::kRead:
      return true;
    case Access::kAudit:
      return role == Role::kAuditor || role == Role::kChiefArbiter;
    case Access::kRecord:
      return role == Role::kArbiter || role == Role::kChiefArbiter;
    case Access::kCreate:
    case Access::kOrganise:
      return role == Role::kChiefArbiter;
    case Access::kUnknown:
      return false;
  }
  return false;
}

bool IsWrite(Access access) {
  return access == Access::kRecord || access == Access::kCreate || access == Access::kOrganise;
}

}  // namespace arbiter::service
