// Server reflection, grpc.reflection.v1alpha (proto/grpc/reflection/v1alpha/
// reflection.proto), so that standard clients (grpcurl, the reflection test)
// learn the served schemas from the server itself.
//
// It answers as gRPC's own grpc++_reflection does: from the protos linked
// into this binary (the generated descriptor pool), a file always with every
// file it imports, transitively, in the same response; a file, symbol, type
// or extension this binary does not know is a NOT_FOUND error_response on
// the stream, which goes on. list_services names the services the built
// server serves, including those registered after this one and the health
// service gRPC adds when it starts.
//
// It is ours rather than that library's so that it sits behind the same
// admission as the other services: each stream is admitted before its
// first request is read, and each further request on it is admitted again
// (charged to the caller's read rate like any call); a refused stream ends
// with the refusal's code (`arbiter serve` admits it through its
// Gatekeeper, auth_gatekeeper.h: UNAUTHENTICATED without a live token once
// tokens exist, RESOURCE_EXHAUSTED past the read rate).
#ifndef ARBITER_ADJUDICATOR_SERVICE_REFLECTION_H_
#define ARBITER_ADJUDICATOR_SERVICE_REFLECTION_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
#include "grpcpp/server_builder.h"

namespace arbiter::service {

class ReflectionService final : public grpc::reflection::v1alpha::ServerReflection::Service {
 public:
  // Decides whether a stream may start, or go on to its next request, given
  // the full method name
  // ("/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo").
  using Admission =
      std::function<absl::Status(const grpc::ServerContext&, absl::string_view method)>;

  explicit ReflectionService(Admission admit);

  // Registers this service on `builder` and has it list the services of the
  // server `builder` builds. This must outlive that server.
  void AddTo(grpc::ServerBuilder& builder);

  grpc::Status ServerReflectionInfo(
      grpc::ServerContext* context,
      grpc::ServerReaderWriter<grpc::reflection::v1alpha::ServerReflectionResponse,
                               grpc::reflection::v1alpha::ServerReflectionRequest>* stream)
      override;

 private:
  // The answer to one request (its error, if any, in error_response).
  grpc::reflection::v1alpha::ServerReflectionResponse Answer(
      const grpc::reflection::v1alpha::ServerReflectionRequest& request) const;

  Admission admit_;
  // The built server's own list of service names, set by AddTo's builder
  // plugin while the server is built, before it serves a call.
  const std::vector<std::string>* services_ = nullptr;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_REFLECTION_H_
