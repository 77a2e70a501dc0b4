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

#include "absl/strings/numbers.h"
#include "cli/client.h"
#include "cli/commands.h"

namespace arbiter::cli {

int RunWatch(int argc, char** argv) {
  constexpr char kUsage[] =
      "usage: arbiter watch GAME|--all [--after N] [--until-caught-up] [--server ADDR] [--json]\n";
  ClientArgs args;
  std::string error;
  if (!args.Parse(argc, argv, &error)) return Usage(kUsage);
  bool missing = false;
  uint64_t after = 0;
  if (auto v = args.Take("--after", &missing)) {
    if (!absl::SimpleAtoi(*v, &after)) return Usage(kUsage);
  }
  const bool all = args.TakeSwitch("--all");
  const bool until_caught_up = args.TakeSwitch("--until-caught-up");
  if (missing || args.rest().size() != (all ? 0u : 1u)) return Usage(kUsage);

  auto stub = Connect(args.server());
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReader<v1::WatchResponse>> reader;
  if (all) {
    v1::WatchAllRequest req;
    req.set_after_position(after);
    reader = stub->WatchAll(&context, req);
  } else {
    v1::WatchGameRequest req;
    req.set_game(GameResource(args.rest()[0]));
    req.set_after_revision(after);
    reader = stub->WatchGame(&context, req);
  }
  v1::WatchResponse msg;
  while (reader->Read(&msg)) {
    if (args.json()) {
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
  return Fail("watch", args.server(), status);
}

}  // namespace arbiter::cli
