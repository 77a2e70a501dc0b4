// `arbiter decide GAME RULING CHOICE [--note TEXT] [--at RFC3339]
// [--request-id KEY] [--expected-revision N] [--server ADDR] [--json]`:
// resolves a pending ruling (appends an arbiterDecision). The choice is one
// of the ruling's option ids, as `arbiter show` lists them. Exit 2 when the
// ruling is not pending or the choice is not allowed.
#include <cstdio>
#include <string>

#include "absl/strings/numbers.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/report.h"
#include "cli/client.h"
#include "cli/commands.h"

namespace arbiter::cli {

int RunDecide(int argc, char** argv) {
  constexpr char kUsage[] =
      "usage: arbiter decide GAME RULING CHOICE [--note TEXT] [--at RFC3339] [--request-id KEY]\n"
      "         [--expected-revision N] [--server ADDR] [--json]\n";
  ClientArgs args;
  std::string error;
  if (!args.Parse(argc, argv, &error)) return Usage(kUsage);
  bool missing = false;
  v1::DecideRequest req;
  if (auto v = args.Take("--note", &missing)) req.set_note(*v);
  if (auto v = args.Take("--request-id", &missing)) req.set_request_id(*v);
  if (auto v = args.Take("--at", &missing)) {
    absl::StatusOr<absl::Time> t = ParseRfc3339(*v);
    if (!t.ok()) {
      std::fprintf(stderr, "arbiter decide: --at: %s\n", std::string(t.status().message()).c_str());
      return 2;
    }
    ToProto(*t, req.mutable_at());
  }
  if (auto v = args.Take("--expected-revision", &missing)) {
    uint64_t rev = 0;
    if (!absl::SimpleAtoi(*v, &rev)) return Usage(kUsage);
    req.set_expected_revision(rev);
  }
  uint32_t ruling = 0;
  if (missing || args.rest().size() != 3 || !absl::SimpleAtoi(args.rest()[1], &ruling)) {
    return Usage(kUsage);
  }
  req.set_game(GameResource(args.rest()[0]));
  req.set_ruling(ruling);
  req.set_choice(args.rest()[2]);

  auto stub = Connect(args.server());
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::AppendEventsResponse resp;
  if (grpc::Status s = stub->Decide(&context, req, &resp); !s.ok()) {
    return Fail("decide", args.server(), s);
  }
  if (args.json()) {
    std::printf("%s\n", ToJson(resp).c_str());
    return 0;
  }
  for (const v1::RecordedEvent& e : resp.events()) {
    std::printf("decision recorded at revision %llu\n", static_cast<unsigned long long>(e.revision()));
    for (const v1::Ruling& r : e.rulings()) std::printf("  ruling %s\n", RulingText(r).c_str());
  }
  std::printf("result: %s\n", ResultLine(resp.has_result() ? &resp.result() : nullptr).c_str());
  return 0;
}

}  // namespace arbiter::cli
