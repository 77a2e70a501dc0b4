#include "cli/exit_codes.h"

#include "absl/strings/match.h"
#include "adjudicator/service/grpc_status.h"

namespace arbiter::cli {

// RESOURCE_EXHAUSTED means two different things to a user. gRPC itself
// answers it when a message is over a size limit ("Received message larger
// than max (N vs. M)", "Sent message larger than max ..."): the value sent
// is too large, which is bad input, and sending it again fails again. The
// server answers it for a caller over its rate ("rate limit: ...") or its
// watch streams ("at most N watch streams ..."), and the storage for a full
// disk: the service is unavailable to this caller for now, and a retry
// later can succeed. Only gRPC's size messages are told apart here, so any
// other exhaustion (these and any new one) counts as unavailable.
bool IsMessageTooLarge(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED &&
         absl::StrContains(status.error_message(), "message larger than max");
}

int ExitCodeOf(const grpc::Status& status) {
  switch (status.error_code()) {
    case grpc::StatusCode::OK:
      return kExitOk;
    case grpc::StatusCode::INVALID_ARGUMENT:
    case grpc::StatusCode::NOT_FOUND:
    case grpc::StatusCode::ALREADY_EXISTS:
    case grpc::StatusCode::FAILED_PRECONDITION:
    case grpc::StatusCode::ABORTED:
    case grpc::StatusCode::OUT_OF_RANGE:
      return kExitBadInput;
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return IsMessageTooLarge(status) ? kExitBadInput : kExitUnavailable;
    case grpc::StatusCode::UNAUTHENTICATED:
    case grpc::StatusCode::PERMISSION_DENIED:
      return kExitNotPermitted;
    default:  // UNAVAILABLE, DEADLINE_EXCEEDED, INTERNAL, UNKNOWN, DATA_LOSS, ...
      return kExitUnavailable;
  }
}

int ExitCodeOf(const absl::Status& status) { return ExitCodeOf(service::ToGrpc(status)); }

void PrintExitCodes(FILE* out) {
  std::fputs(
      "exit status:\n"
      "  0  success\n"
      "  1  a negative answer (verify: not intact; health: not serving)\n"
      "  2  bad input or usage, including a value the server refuses as too large\n"
      "  3  the server or the storage is unavailable\n"
      "  4  not permitted (no valid token, or the role may not)\n",
      out);
}

}  // namespace arbiter::cli
