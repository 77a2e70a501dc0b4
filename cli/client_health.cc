// `arbiter health [--server ADDR] [--json] [--wait SECONDS]`: asks the
// standard grpc.health.v1 service. Exit 0 when SERVING, 1 when the server
// answers but is not serving, 3 when it cannot be reached (after --wait,
// during which it keeps trying: useful right after `arbiter serve &`).
#include <cstdio>
#include <string>

#include "cli/client.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "grpc/health/v1/health.grpc.pb.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kHealthFlags[] = {
    {"wait", "SECONDS", "keep trying to reach the server this long (after `arbiter serve &`)"},
    kJsonFlag,
    kServerFlag,
};
constexpr CommandSpec kHealth = {
    .name = "health",
    .summary = "ask a server whether it is serving (grpc.health.v1)",
    .flags = kHealthFlags,
};

}  // namespace

int RunHealth(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kHealth, argc, argv, &args)) return *exit;
  double wait = 0;
  if (absl::Status s = args.Number("wait", &wait); !s.ok()) return UsageError(kHealth, s.message());
  if (wait < 0) return UsageError(kHealth, "--wait: 0 or more seconds");

  const std::string server = ServerOf(args);
  auto stub = grpc::health::v1::Health::NewStub(OpenChannel(server));
  grpc::ClientContext context;
  SetDeadline(&context, absl::Seconds(wait > 0 ? wait : 5));
  // Waiting for ready keeps retrying the connection until the deadline.
  if (wait > 0) context.set_wait_for_ready(true);
  grpc::health::v1::HealthCheckRequest request;
  grpc::health::v1::HealthCheckResponse response;
  grpc::Status status = stub->Check(&context, request, &response);
  if (!status.ok()) return Fail("health", server, status);
  const bool serving = response.status() == grpc::health::v1::HealthCheckResponse::SERVING;
  if (args.Has("json")) {
    std::printf("%s\n", ToJson(response).c_str());
  } else {
    std::printf(
        "%s: %s\n", server.c_str(),
        grpc::health::v1::HealthCheckResponse::ServingStatus_Name(response.status()).c_str());
  }
  return serving ? kExitOk : kExitNegative;
}

}  // namespace arbiter::cli
