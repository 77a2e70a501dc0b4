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

Access AccessOf(absl::string_view method) {
  if (absl::StartsWith(method, "/grpc.health.v1.Health/")) return Access::kPublic;
  if (absl::StartsWith(method, "/grpc.reflection.")) return Access::kRead;
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
      return role == Role::kChiefArbiter;
    case Access::kUnknown:
      return false;
  }
  return false;
}

}  // namespace arbiter::service
