// The one bridge between absl::Status and grpc::Status. Both follow
// google.rpc.Code, so a conversion keeps the code and the message.
#ifndef ARBITER_ADJUDICATOR_SERVICE_GRPC_STATUS_H_
#define ARBITER_ADJUDICATOR_SERVICE_GRPC_STATUS_H_

#include <cstddef>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace arbiter::service {

// The longest status message sent. A message travels in an HTTP/2 trailer,
// and one that quoted a client's 8,000-byte value came back as
// RESOURCE_EXHAUSTED about metadata (a 100,000-byte one hung the call):
// messages quote at most a prefix of a value (field_bounds.h), and this cuts
// whatever else would be longer.
inline constexpr size_t kMaxStatusMessageBytes = 1024;

inline grpc::Status ToGrpc(const absl::Status& s) {
  if (s.ok()) return grpc::Status::OK;
  std::string message(s.message());
  if (message.size() > kMaxStatusMessageBytes) {
    size_t cut = kMaxStatusMessageBytes;
    while (cut > 0 && (static_cast<unsigned char>(message[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
    message.resize(cut);
    message += " … (cut)";
  }
  return grpc::Status(static_cast<grpc::StatusCode>(s.code()), std::move(message));
}

inline absl::Status FromGrpc(const grpc::Status& s) {
  if (s.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(s.error_code()), s.error_message());
}

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_GRPC_STATUS_H_
