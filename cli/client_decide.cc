// `arbiter decide GAME RULING CHOICE [--note TEXT] [--at RFC3339]
// [--request-id KEY] [--expected-revision N] [--server ADDR] [--json]`:
// resolves a pending ruling (appends an arbiterDecision). The choice is one
// of the ruling's option ids, as `arbiter show` lists them, in any case
// (`warning` is WARNING): a choice that is not already the id itself is
// matched against the pending ruling's options, read first. Exit 2 when the
// ruling is not pending or the choice is not allowed.
#include <cstdio>
#include <string>

#include "absl/strings/numbers.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/report.h"
#include "cli/client.h"
#include "cli/commands.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kDecideFlags[] = {
    {"note", "TEXT", "why, recorded with the decision"},
    {"at", "RFC3339", "when the arbiter decided (default: now)"},
    {"request-id", "KEY", "makes the call safely retryable"},
    {"expected-revision", "N", "refuse (ABORTED) unless the game is at revision N"},
    kJsonFlag,
    kServerFlag,
};
constexpr CommandSpec kDecide = {
    .name = "decide",
    .positionals = "GAME RULING CHOICE",
    .summary = "resolve a pending ruling (an arbiterDecision); CHOICE is one of its options",
    .min_positionals = 3,
    .max_positionals = 3,
    .flags = kDecideFlags,
    .notes = "The options of a pending ruling are listed by `arbiter show GAME`.\n",
};

// The option of pending ruling `ruling` that `typed` names in another case
// (or with '-' for '_'), else `typed` as it is: the server then says what
// the options are, or that the ruling is not pending.
std::string OptionId(v1::Arbiter::Stub& stub, const std::string& game, uint32_t ruling,
                     const std::string& typed) {
  v1::GetGameRequest req;
  req.set_name(game);
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::Game state;
  if (!stub.GetGame(&context, req, &state).ok()) return typed;
  for (const v1::Ruling& r : state.pending_rulings()) {
    if (r.number() != ruling) continue;
    for (const v1::RulingOption& o : r.options()) {
      if (o.id() == typed) return typed;
    }
    for (const v1::RulingOption& o : r.options()) {
      if (UpperChoice(o.id()) == UpperChoice(typed)) return o.id();
    }
  }
  return typed;
}

}  // namespace

int RunDecide(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kDecide, argc, argv, &args)) return *exit;
  v1::DecideRequest req;
  if (auto v = args.Value("note")) req.set_note(*v);
  if (auto v = args.Value("request-id")) req.set_request_id(*v);
  if (auto v = args.Value("at")) {
    absl::StatusOr<absl::Time> t = ParseRfc3339(*v);
    if (!t.ok()) return UsageError(kDecide, "--at: " + std::string(t.status().message()));
    ToProto(*t, req.mutable_at());
  }
  if (args.Has("expected-revision")) {
    uint64_t revision = 0;
    if (absl::Status s = args.Number("expected-revision", &revision); !s.ok()) {
      return UsageError(kDecide, s.message());
    }
    req.set_expected_revision(revision);
  }
  const std::vector<std::string>& positionals = args.positionals();
  uint32_t ruling = 0;
  if (!absl::SimpleAtoi(positionals[1], &ruling)) {
    return UsageError(kDecide,
                      "RULING '" + positionals[1] + "': a ruling number, as `arbiter show` lists");
  }
  req.set_game(GameResource(positionals[0]));
  req.set_ruling(ruling);

  const std::string server = ServerOf(args);
  auto stub = Connect(server);
  // Option ids are upper case in the rules data; one typed so needs no look-up.
  const std::string& choice = positionals[2];
  req.set_choice(choice == UpperChoice(choice) ? choice
                                               : OptionId(*stub, req.game(), ruling, choice));
  grpc::ClientContext context;
  SetDeadline(&context);
  v1::AppendEventsResponse resp;
  if (grpc::Status s = stub->Decide(&context, req, &resp); !s.ok()) {
    return Fail("decide", server, s);
  }
  if (args.Has("json")) {
    std::printf("%s\n", ToJson(resp).c_str());
    return 0;
  }
  for (const v1::RecordedEvent& e : resp.events()) {
    std::printf("decision recorded at revision %llu\n",
                static_cast<unsigned long long>(e.revision()));
    for (const v1::Ruling& r : e.rulings()) std::printf("  ruling %s\n", RulingText(r).c_str());
  }
  std::printf("result: %s\n", ResultLine(resp.has_result() ? &resp.result() : nullptr).c_str());
  return 0;
}

}  // namespace arbiter::cli
