// `arbiter health [--server ADDR] [--json] [--wait SECONDS]`: asks the
// standard grpc.health.v1 service. Exit 0 when SERVING, 1 when the server
// answers but is not serving, 3 when it cannot be reached (after --wait,
// during which it keeps trying: useful right after `arbiter serve &`).
#include <cstdio>
#include <string>

#include "absl/strings/numbers.h"
#include "cli/client.h"
#include "cli/commands.h"
#include "grpc/health/v1/health.grpc.pb.h"

namespace arbiter::cli {

int RunHealth(int argc, char** argv) {
  constexpr char kUsage[] = "usage: arbiter health [--server ADDR] [--json] [--wait SECONDS]\n";
  ClientArgs args;
  std::string error;
  if (!args.Parse(argc, argv, &error)) return Usage(kUsage);
  bool missing = false;
  double wait = 0;
  if (std::optional<std::string> w = args.Take("--wait", &missing); w.has_value()) {
    if (!absl::SimpleAtod(*w, &wait) || wait < 0) return Usage(kUsage);
  }
  if (missing || !args.rest().empty()) return Usage(kUsage);

  auto stub = grpc::health::v1::Health::NewStub(OpenChannel(args.server()));
  grpc::ClientContext context;
  SetDeadline(&context, absl::Seconds(wait > 0 ? wait : 5));
  // Waiting for ready keeps retrying the connection until the deadline.
  if (wait > 0) context.set_wait_for_ready(true);
  grpc::health::v1::HealthCheckRequest request;
  grpc::health::v1::HealthCheckResponse response;
  grpc::Status status = stub->Check(&context, request, &response);
  if (!status.ok()) return Fail("health", args.server(), status);
  const bool serving = response.status() == grpc::health::v1::HealthCheckResponse::SERVING;
  if (args.json()) {
    std::printf("%s\n", ToJson(response).c_str());
  } else {
    std::printf("%s: %s\n", args.server().c_str(),
                grpc::health::v1::HealthCheckResponse::ServingStatus_Name(response.status()).c_str());
  }
  return serving ? 0 : 1;
}

}  // namespace arbiter::cli
