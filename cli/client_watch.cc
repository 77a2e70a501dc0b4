// `arbiter watch GAME|--all [--after N] [--until-caught-up] [--server ADDR]
// [--json]`: follows a game's events and rulings (or every game's) as they
// are committed. --after resumes after a revision (a game) or a position
// (--all): print the last one seen and pass it back to miss nothing and see
// nothing twice. With --json each message is one line (arbiter.v1.
// WatchResponse: {"event": ...} or {"caughtUp": ...}). --until-caught-up
// stops once everything recorded so far has been shown. Exit 0 when the
// stream ends (server shutdown or caught up), 3 if the server is unreachable.
#include <cstdio>
#include <string>

#include "cli/client.h"
#include "cli/commands.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kFlags[] = {
    {"all", "", "every game's events, in ledger order, instead of one game's"},
    {"after", "N", "resume after revision N (a game) or position N (--all)"},
    {"until-caught-up", "", "stop once everything recorded so far is shown"},
    kJsonFlag,
    kServerFlag,
};
constexpr CommandSpec kWatch = {
    .name = "watch",
    .positionals = "GAME",
    .summary =
        "follow a game's (or with --all every game's) events and rulings as they are recorded",
    .min_positionals = 0,
    .max_positionals = 1,
    .flags = kFlags,
    .notes =
        "--json: one arbiter.v1.WatchResponse per line ({\"event\": ...} or {\"caughtUp\": ...}).\n"
        "The stream ends (exit 0) when the server shuts down or, with --until-caught-up,\n"
        "once caught up.\n",
};

}  // namespace

int RunWatch(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kWatch, argc, argv, &args)) return *exit;
  uint64_t after = 0;
  if (absl::Status s = args.Number("after", &after); !s.ok())
    return UsageError(kWatch, s.message());
  const bool all = args.Has("all");
  const bool until_caught_up = args.Has("until-caught-up");
  if (args.positionals().size() != (all ? 0u : 1u)) {
    return UsageError(kWatch, all ? "--all takes no GAME" : "which GAME (or --all)?");
  }

  const std::string server = ServerOf(args);
  auto stub = Connect(server);
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReader<v1::WatchResponse>> reader;
  if (all) {
    v1::WatchAllRequest req;
    req.set_after_position(after);
    reader = stub->WatchAll(&context, req);
  } else {
    v1::WatchGameRequest req;
    req.set_game(GameResource(args.positionals()[0]));
    req.set_after_revision(after);
    reader = stub->WatchGame(&context, req);
  }
  v1::WatchResponse msg;
  while (reader->Read(&msg)) {
    if (args.Has("json")) {
      std::printf("%s\n", ToJson(msg).c_str());
    } else if (msg.has_caught_up()) {
      std::printf("-- caught up at %s %llu; following --\n", all ? "position" : "revision",
                  static_cast<unsigned long long>(all ? msg.caught_up().position()
                                                      : msg.caught_up().revision()));
    } else {
      const v1::RecordedEvent& e = msg.event();
      std::printf("%s rev %llu pos %llu %s %s %s\n", e.game().c_str(),
                  static_cast<unsigned long long>(e.revision()),
                  static_cast<unsigned long long>(e.position()), FormatTime(e.event().at()).c_str(),
                  EventKind(e.event()).c_str(), EventDetails(e.event()).c_str());
      for (const v1::Ruling& r : e.rulings()) std::printf("  ruling %s\n", RulingText(r).c_str());
    }
    std::fflush(stdout);
    if (until_caught_up && msg.has_caught_up()) {
      context.TryCancel();
      break;
    }
  }
  grpc::Status status = reader->Finish();
  if (status.ok() || status.error_code() == grpc::StatusCode::CANCELLED) return 0;
  // The server going away after the stream started is the end of the stream.
  if (status.error_code() == grpc::StatusCode::UNAVAILABLE &&
      status.error_message() == "the server is shutting down") {
    return 0;
  }
  return Fail("watch", server, status);
}

}  // namespace arbiter::cli
