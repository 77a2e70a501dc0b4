#include "cli/client_correction.h"

#include <utility>

#include "absl/time/clock.h"
#include "adjudicator/engine/proto_time.h"
#include "cli/client.h"

namespace arbiter::cli {

std::optional<int> AppendCorrection(const CommandSpec& spec, const Args& args,
                                    const std::string& game, v1::Event event,
                                    v1::AppendEventsResponse* resp) {
  absl::Time at = absl::Now();
  if (auto v = args.Value("at")) {
    absl::StatusOr<absl::Time> t = ParseRfc3339(*v);
    if (!t.ok()) return UsageError(spec, "--at: " + std::string(t.status().message()));
    at = *t;
  }
  ToProto(at, event.mutable_at());
  if (auto v = args.Value("request-id")) event.set_idempotency_key(*v);
  v1::AppendEventsRequest req;
  req.set_game(GameResource(game));
  *req.add_events() = std::move(event);
  const std::string server = ServerOf(args);
  auto stub = Connect(server);
  grpc::ClientContext context;
  SetDeadline(&context);
  if (grpc::Status s = stub->AppendEvents(&context, req, resp); !s.ok()) {
    return Fail(std::string(spec.name), server, s);
  }
  return std::nullopt;
}

}  // namespace arbiter::cli
