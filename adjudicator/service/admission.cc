#include "adjudicator/service/admission.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/field_bounds.h"
#include "arbiter/v1/service.pb.h"
#include "arbiter/v1/tournament.pb.h"
#include "proto/names/resource_name.h"

namespace arbiter::service {
namespace {

// The arbiter.v1 methods' admissions, made once from the descriptors linked
// into this binary, by gRPC's full method name and by request type. A
// method declared wrongly has none, nor do the methods of a request type
// two methods share, so their calls are refused.
struct Table {
  absl::flat_hash_map<std::string, MethodAdmission> by_name;
  absl::flat_hash_map<const google::protobuf::Descriptor*, const MethodAdmission*> by_request;
};

const Table& Admissions() {
  static const Table* table = [] {
    auto* t = new Table();
    absl::flat_hash_map<const google::protobuf::Descriptor*, int> uses;
    for (const google::protobuf::ServiceDescriptor* s :
         {v1::CreateGameRequest::descriptor()->file()->service(0),
          v1::CreateTournamentRequest::descriptor()->file()->service(0)}) {
      for (int i = 0; i < s->method_count(); ++i) {
        ++uses[s->method(i)->input_type()];
        absl::StatusOr<MethodAdmission> a = MethodAdmission::Declared(s->method(i));
        if (a.ok()) {
          t->by_name.emplace(absl::StrCat("/", s->full_name(), "/", s->method(i)->name()), *a);
        }
      }
    }
    for (const auto& [name, a] : t->by_name) {
      if (uses[a.method().input_type()] == 1) t->by_request[a.method().input_type()] = &a;
    }
    return t;
  }();
  return *table;
}

}  // namespace

const MethodAdmission* MethodAdmission::Find(absl::string_view full_method) {
  const Table& t = Admissions();
  auto it = t.by_name.find(full_method);
  return it == t.by_name.end() ? nullptr : &it->second;
}

const MethodAdmission* MethodAdmission::ForRequest(const google::protobuf::Descriptor& request) {
  const Table& t = Admissions();
  auto it = t.by_request.find(&request);
  return it == t.by_request.end() ? nullptr : it->second;
}

absl::StatusOr<MethodAdmission> MethodAdmission::Declared(
    const google::protobuf::MethodDescriptor* method) {
  const google::protobuf::MethodOptions& options = method->options();
  const v1::Access access = options.GetExtension(v1::method_access);
  if (access == v1::ACCESS_UNSPECIFIED) {
    return absl::InvalidArgumentError(
        absl::StrCat(method->full_name(), ": no (arbiter.v1.method_access) option"));
  }
  const v1::GameScope& scope = options.GetExtension(v1::game_scope);
  switch (scope.scope_case()) {
    case v1::GameScope::kNone:
      if (!scope.none()) break;
      return MethodAdmission(method, access, nullptr);
    case v1::GameScope::kField: {
      const google::protobuf::FieldDescriptor* field =
          method->input_type()->FindFieldByName(scope.field());
      if (field == nullptr || field->is_repeated() ||
          field->type() != google::protobuf::FieldDescriptor::TYPE_STRING) {
        return absl::InvalidArgumentError(
            absl::StrCat(method->full_name(), ": (arbiter.v1.game_scope) names '", scope.field(),
                         "', which is not a string field of ", method->input_type()->full_name()));
      }
      return MethodAdmission(method, access, field);
    }
    case v1::GameScope::SCOPE_NOT_SET:
      break;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      method->full_name(), ": no (arbiter.v1.game_scope) option (a field, or none: true)"));
}

std::optional<absl::StatusOr<std::string>> MethodAdmission::GameOf(
    const google::protobuf::Message& request) const {
  if (game_field_ == nullptr || request.GetDescriptor() != game_field_->containing_type()) {
    return std::nullopt;
  }
  std::string scratch;
  const std::string& name =
      request.GetReflection()->GetStringReference(request, game_field_, &scratch);
  return ParseResourceName("games", name, game_field_->name());
}

absl::Status MethodAdmission::Check(const Caller& caller,
                                    const google::protobuf::Message& request) const {
  if (request.GetDescriptor() != method_->input_type()) {
    return absl::InternalError(
        absl::StrCat(method_->full_name(), " was handed a ", request.GetDescriptor()->full_name()));
  }
  if (absl::Status s = CheckRequest(request); !s.ok()) return s;
  // Authority over the game: what a role may write is limited to its games
  // (an ARBITER's tables); reading is not (SECURITY.md).
  if (access_ == v1::RECORD) {
    if (std::optional<absl::StatusOr<std::string>> game = GameOf(request); game.has_value()) {
      if (!game->ok()) return game->status();
      return caller.MayRecordIn(**game);
    }
  }
  return absl::OkStatus();
}

}  // namespace arbiter::service
