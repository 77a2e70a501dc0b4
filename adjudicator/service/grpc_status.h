// The one bridge between absl::Status and grpc::Status. Both follow
// google.rpc.Code, so a conversion keeps the code and the message.
#ifndef ARBITER_ADJUDICATOR_SERVICE_GRPC_STATUS_H_
#define ARBITER_ADJUDICATOR_SERVICE_GRPC_STATUS_H_

#include <string>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace arbiter::service {

inline grpc::Status ToGrpc(const absl::Status& s) {
  if (s.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()), std::string(s.message()));
}

inline absl::Status FromGrpc(const grpc::Status& s) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()), s.error_message());
}

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_GRPC_STATUS_H_
