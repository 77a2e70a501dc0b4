#include "adjudicator/service/console/file_budget.h"

#include <sys/resource.h>

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/console/http_limits.h"

namespace arbiter::service::console {
namespace {

constexpr int kMaxReserve = 256;
constexpr int kMaxGrpc = 1024;
constexpr int kDefaultFeeds = 8192;
constexpr int kDefaultFeedsBesideBroadcast = 1024;
// Below this the server's own files (a dozen threads' eventfds and epoll
// sets, the ledger, gRPC's sockets) may not fit an eighth.
constexpr int kLeastLimit = 64;

}  // namespace

absl::StatusOr<FileBudget> PlanFiles(int limit, bool broadcast, int feeds) {
  FileBudget b;
  b.limit = limit;
  b.reserve = std::min(kMaxReserve, limit / 8);
  b.grpc = std::min(kMaxGrpc, limit / 8);
  b.connections = std::min(kMaxConnections, limit / 8);
  const int rest = limit - b.reserve - b.grpc - b.connections;
  const int least = broadcast ? 2 : 1;
  if (limit < kLeastLimit || rest < least) {
    return absl::InvalidArgumentError(absl::StrCat("the open-file limit (ulimit -n) is ", limit,
                                                   ": too low to serve the console (at least ",
                                                   kLeastLimit, ")"));
  }
  if (feeds > rest - (least - 1)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--http-feeds ", feeds, ": the open-file limit (ulimit -n) ", limit, " leaves ",
        rest - (least - 1), " for the console's pages", broadcast ? " and one viewer" : "",
        " (the rest: the server's own files, gRPC and the console's connections)"));
  }
  if (feeds > 0) {
    b.feeds = feeds;
  } else if (broadcast) {
    b.feeds = std::max(1, std::min(kDefaultFeedsBesideBroadcast, rest / 8));
  } else {
    b.feeds = std::min(kDefaultFeeds, rest);
  }
  b.viewers = broadcast ? rest - b.feeds : 0;
  return b;
}

int RaiseOpenFileLimit() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) != 0) return 1024;
  if (r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &r) != 0) getrlimit(RLIMIT_NOFILE, &r);
  }
  const rlim_t most = std::numeric_limits<int>::max();
  return static_cast<int>(r.rlim_cur == RLIM_INFINITY ? most : std::min(r.rlim_cur, most));
}

}  // namespace arbiter::service::console
