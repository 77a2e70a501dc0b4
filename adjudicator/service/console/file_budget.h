// The server's open files as one budget (issue 46.5, .github/SECURITY.md
// "Bounds"): every kind of connection it caps fits under the process's
// open-file limit (RLIMIT_NOFILE), with a reserve for its own files, so
// that a client beyond a cap is answered 503 and none makes accept(2) fail
// for want of a descriptor.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FILE_BUDGET_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FILE_BUDGET_H_

#include "absl/status/statusor.h"

namespace arbiter::service::console {

struct FileBudget {
  int limit = 0;        // the open-file limit it is drawn from
  int reserve = 0;      // the server's own: the ledger's files and connections,
                        // listening sockets, epoll sets and eventfds, webhooks
  int grpc = 0;         // gRPC's connections (an allowance: gRPC 1.51 caps none)
  int connections = 0;  // the console's connections being served (GuardedServer)
  int feeds = 0;        // console pages following /api/feed (--http-feeds)
  int viewers = 0;      // the broadcast's viewers (--broadcast; else 0)

  int total() const { return reserve + grpc + connections + feeds + viewers; }
};

// The budget of `limit` open files: an eighth each (at most 256, 1024 and
// 512) for the reserve, gRPC and the console's connections; the rest for
// pages and viewers. Pages get `feeds` (0: not given, then at most 8192, or
// with `broadcast` at most 1024 and an eighth of the rest), the broadcast's
// viewers all that is left. INVALID_ARGUMENT, naming the flag and the limit,
// when `feeds` does not fit, or the limit is under 64.
absl::StatusOr<FileBudget> PlanFiles(int limit, bool broadcast, int feeds);

// This process's open-file limit, its soft limit raised first to the hard
// one (each page and viewer holds a socket).
int RaiseOpenFileLimit();

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FILE_BUDGET_H_
