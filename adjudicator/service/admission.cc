#include "adjudicator/service/admission.h"

#include <string>
#include <vector>

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
// method declared wrongly has none. Methods may share a request type only
// when they declare the same admission (AppendEvents and RecordEvents: the
// same access, the same game field), so the request's type still names
// one admission; when they differ, none of them has one and their calls
// are refused.
struct Table {
  absl::flat_hash_map<std::string, MethodAdmission> by_name;
  absl::flat_hash_map<const google::protobuf::Descriptor*, const MethodAdmission*> by_request;
};

const MethodAdmission* Lookup(const Table& t, absl::string_view full_method) {
  auto it = t.by_name.find(full_method);
  return it == t.by_name.end() ? nullptr : &it->second;
}

const Table& Admissions() {
  static const Table* table = [] {
    auto* t = new Table();
    // Each request type's methods (their gRPC names), to see whether they
    // agree once every admission is made (by_name's values move as it grows).
    absl::flat_hash_map<const google::protobuf::Descriptor*, std::vector<std::string>> methods;
    for (const google::protobuf::ServiceDescriptor* s :
         {v1::CreateGameRequest::descriptor()->file()->service(0),
          v1::CreateTournamentRequest::descriptor()->file()->service(0)}) {
      for (int i = 0; i < s->method_count(); ++i) {
        std::string name = absl::StrCat("/", s->full_name(), "/", s->method(i)->name());
        absl::StatusOr<MethodAdmission> a = MethodAdmission::Declared(s->method(i));
        if (a.ok()) t->by_name.emplace(name, *a);
        methods[s->method(i)->input_type()].push_back(std::move(name));
      }
    }
    for (const auto& [request, names] : methods) {
      const MethodAdmission* first = Lookup(*t, names.front());
      bool agree = first != nullptr;
      for (const std::string& name : names) {
        const MethodAdmission* a = Lookup(*t, name);
        agree = agree && a != nullptr && a->access() == first->access() &&
                a->game_field() == first->game_field();
      }
      if (agree) t->by_request[request] = first;
    }
    return t;
  }();
  return *table;
}

}  // namespace

const MethodAdmission* MethodAdmission::Find(absl::string_view full_method) {
  return Lookup(Admissions(), full_method);
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
