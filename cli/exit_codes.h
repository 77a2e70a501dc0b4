// The exit status of every `arbiter` command, and the one mapping from a
// failed call's status to it.
//
//   0  success
//   1  a negative answer: verify found tampering, health is not serving,
//      standings with errors (a recorded game that is not its pairing's)
//   2  bad input or usage, including a value the server refuses as too large
//   3  the server or the storage is unavailable or failed
//   4  not permitted: no valid token, or the token's role may not do this
#ifndef ARBITER_CLI_EXIT_CODES_H_
#define ARBITER_CLI_EXIT_CODES_H_

#include <cstdio>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace arbiter::cli {

enum ExitCode : int {
  kExitOk = 0,
  kExitNegative = 1,
  kExitBadInput = 2,
  kExitUnavailable = 3,
  kExitNotPermitted = 4,
};

// The exit status for a call or an operation that ended with `status`:
//   2  INVALID_ARGUMENT, NOT_FOUND, ALREADY_EXISTS, FAILED_PRECONDITION,
//      ABORTED, OUT_OF_RANGE, and RESOURCE_EXHAUSTED about a message's size
//   3  UNAVAILABLE, DEADLINE_EXCEEDED, INTERNAL, UNKNOWN, DATA_LOSS, ...,
//      and any other RESOURCE_EXHAUSTED (a rate limit, the watch-stream cap,
//      a full disk)
//   4  UNAUTHENTICATED, PERMISSION_DENIED
// 0 for OK. A negative answer (1) is never a failed status: the commands
// that give one decide it from the answer itself.
int ExitCodeOf(const grpc::Status& status);
int ExitCodeOf(const absl::Status& status);

// RESOURCE_EXHAUSTED from gRPC itself for a message over its size limit
// (bad input: sending it again fails again), as opposed to the server's
// rate limits, which a retry later can pass.
bool IsMessageTooLarge(const grpc::Status& status);

// The table above as the lines `--help` ends with ("exit status:" and one
// line per code), so every command's usage and `arbiter --help` say the same.
void PrintExitCodes(FILE* out);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_EXIT_CODES_H_
