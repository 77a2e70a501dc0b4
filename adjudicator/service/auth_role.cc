#include "adjudicator/service/auth_role.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/admission.h"
#include "arbiter/v1/events.pb.h"
#include "google/protobuf/descriptor.h"

namespace arbiter::service {

absl::string_view RoleName(Role role) {
  switch (role) {
    case Role::kArbiter:
      return "ARBITER";
    case Role::kChiefArbiter:
      return "CHIEF_ARBITER";
    case Role::kAuditor:
      return "AUDITOR";
    case Role::kSoftware:
      return "SOFTWARE";
    case Role::kVenue:
      return "VENUE";
  }
  return "UNKNOWN";
}

std::string RoleWithArticle(Role role) {
  const absl::string_view name = RoleName(role);
  // ARBITER, AUDITOR: spoken with a vowel; the others with a consonant.
  const bool vowel = absl::string_view("AEIOU").find(name.front()) != absl::string_view::npos;
  return absl::StrCat(vowel ? "an " : "a ", name);
}

std::optional<Role> ParseRole(absl::string_view name) {
  for (Role r :
       {Role::kArbiter, Role::kChiefArbiter, Role::kAuditor, Role::kSoftware, Role::kVenue}) {
    if (name == RoleName(r)) return r;
  }
  return std::nullopt;
}

std::string ActorOf(absl::string_view name, Role role, absl::string_view token_id) {
  return absl::StrCat(name, " (", RoleName(role), ", token ", token_id, ")");
}

RecordedActor ParseActor(absl::string_view actor) {
  RecordedActor whole{.name = std::string(actor)};
  // The suffix holds no " (", so the last one opens it even when the name
  // has brackets of its own.
  const size_t open = actor.rfind(" (");
  if (open == absl::string_view::npos || !absl::EndsWith(actor, ")")) return whole;
  absl::string_view inside = actor.substr(open + 2, actor.size() - open - 3);
  const size_t comma = inside.find(", token ");
  if (comma == absl::string_view::npos) return whole;
  const std::optional<Role> role = ParseRole(inside.substr(0, comma));
  const absl::string_view id = inside.substr(comma + 8);
  if (!role.has_value() || id.empty() || open == 0) return whole;
  return {.name = std::string(actor.substr(0, open)), .role = role, .token_id = std::string(id)};
}

v1::Access MethodAccess(absl::string_view method) {
  if (absl::StartsWith(method, "/grpc.health.v1.Health/")) return v1::PUBLIC;
  if (absl::StartsWith(method, "/grpc.reflection.v1alpha.ServerReflection/")) return v1::READ;
  // An arbiter.v1 method as it declares itself (admission.h): one that
  // lacks an option, method_access or game_scope, is refused.
  const MethodAdmission* admission = MethodAdmission::Find(method);
  return admission == nullptr ? v1::ACCESS_UNSPECIFIED : admission->access();
}

v1::Access EventAccess(const v1::Event& event) {
  if (event.kind_case() == v1::Event::KIND_NOT_SET) return v1::ACCESS_UNSPECIFIED;
  const google::protobuf::FieldDescriptor* kind =
      v1::Event::descriptor()->FindFieldByNumber(event.kind_case());
  return kind == nullptr ? v1::ACCESS_UNSPECIFIED : kind->options().GetExtension(v1::event_access);
}

bool Permits(Role role, v1::Access access) {
  switch (access) {
    case v1::PUBLIC:
    case v1::READ:
      return true;
    case v1::AUDIT:
      return role == Role::kAuditor || role == Role::kChiefArbiter;
    case v1::RECORD:
      return role == Role::kArbiter || role == Role::kChiefArbiter;
    case v1::CREATE:
    case v1::ORGANISE:
    case v1::RULE_ON_APPEAL:
    case v1::CORRECT:
      return role == Role::kChiefArbiter;
    case v1::SYNC:
      return role == Role::kVenue;
    default:
      return false;
  }
}

bool IsWrite(v1::Access access) {
  return access == v1::RECORD || access == v1::CREATE || access == v1::ORGANISE ||
         access == v1::RULE_ON_APPEAL || access == v1::CORRECT || access == v1::SYNC;
}

v1::Authority AuthorityOf(Role role) {
  switch (role) {
    case Role::kArbiter:
      return v1::ARBITER;
    case Role::kChiefArbiter:
      return v1::CHIEF_ARBITER;
    default:
      return v1::AUTHORITY_UNSPECIFIED;
  }
}

}  // namespace arbiter::service
