// The per-request half of a call's admission, one typed step per method,
// driven by the method's descriptor: what its options declare
// (arbiter.v1.method_access, arbiter.v1.game_scope, proto/arbiter/v1/
// access.proto) decides what is checked, so no method is special-cased by
// name and a new method is admitted as it declares.
//
// The call's first half, before any request arrives, is the Gatekeeper's
// (auth_gatekeeper.h): the bearer token, the role against the method's
// access, the rate, the watch cap. This half runs on the request itself,
// as the handler receives it, typed (Callers::Serve, auth_interceptor.h),
// before the handler reads it. The request's type names its method's
// admission: each arbiter.v1 method has a request message of its own, or
// shares it only with methods that declare the same admission (AppendEvents
// and RecordEvents); a message two methods declared differently for would
// admit neither. The step, on each request (each message of a stream):
//  1. the bounds of every string in it (field_bounds.h: INVALID_ARGUMENT);
//  2. the caller's authority over the game the method's game_scope field
//     names, for a method that writes a game (RECORD): an ARBITER only in
//     the games of their token (PERMISSION_DENIED).
#ifndef ARBITER_ADJUDICATOR_SERVICE_ADMISSION_H_
#define ARBITER_ADJUDICATOR_SERVICE_ADMISSION_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "adjudicator/service/auth_gatekeeper.h"
#include "arbiter/v1/access.pb.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace arbiter::service {

class MethodAdmission {
 public:
  // The admission of the arbiter.v1 method named `full_method` as gRPC
  // names it ("/arbiter.v1.Arbiter/AppendEvents"); nullptr for a method of
  // another service (health, reflection: they carry no client text that is
  // stored, and name no game) or one not declared with both options.
  static const MethodAdmission* Find(absl::string_view full_method);
  // The admission of the arbiter.v1 method whose request is `request`;
  // nullptr when it is no one method's.
  static const MethodAdmission* ForRequest(const google::protobuf::Descriptor& request);

  // What `method` declares: INVALID_ARGUMENT when it lacks method_access or
  // game_scope, or when game_scope's field is not a string field of its
  // request. (Find holds the arbiter.v1 methods' admissions made by this.)
  static absl::StatusOr<MethodAdmission> Declared(const google::protobuf::MethodDescriptor* method);

  const google::protobuf::MethodDescriptor& method() const { return *method_; }
  v1::Access access() const { return access_; }
  // The request field naming the game; nullptr when the method names none.
  const google::protobuf::FieldDescriptor* game_field() const { return game_field_; }

  // The id of the game `request` names ("games/{id}" -> id, parsed as the
  // handler parses it: ParseResourceName), INVALID_ARGUMENT naming the field
  // when the name is malformed; nullopt when the method names no game.
  std::optional<absl::StatusOr<std::string>> GameOf(const google::protobuf::Message& request) const;

  // The step itself (see above): OK, INVALID_ARGUMENT or PERMISSION_DENIED;
  // INTERNAL when `request` is not this method's request.
  absl::Status Check(const Caller& caller, const google::protobuf::Message& request) const;

 private:
  MethodAdmission(const google::protobuf::MethodDescriptor* method, v1::Access access,
                  const google::protobuf::FieldDescriptor* game_field)
      : method_(method), access_(access), game_field_(game_field) {}

  const google::protobuf::MethodDescriptor* method_;
  v1::Access access_;
  const google::protobuf::FieldDescriptor* game_field_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_ADMISSION_H_
