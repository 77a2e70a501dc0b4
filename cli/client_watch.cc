// `arbiter watch GAME|--all [--after N] [--until-caught-up] [--server ADDR]
// [--json]`: follows a game's events and rulings (or every game's) as they
// are committed. --after resumes after a revision (a game) or a position
// (--all): print the last one seen and pass it back to miss nothing and see
// nothing twice. With --json each message is one line (arbiter.v1.
// WatchResponse: {"event": ...} or {"caughtUp": ...}). --until-caught-up
// stops once everything recorded so far has been shown. Exit 0 when the
// stream ends (server shutdown or caught up), 3 if the server is unreachable.
// A stream the server cuts off because this client fell behind or stalled
// (SECURITY.md) is resumed after the last event printed, said on stderr:
// the output has no gap and no event twice.
#include <cstdio>
#include <string>

#include "absl/strings/match.h"
#include "cli/client.h"
#include "cli/commands.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kWatchFlags[] = {
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
    .flags = kWatchFlags,
    .notes =
        "--json: one arbiter.v1.WatchResponse per line ({\"event\": ...} or {\"caughtUp\": ...}).\n"
        "The stream ends (exit 0) when the server shuts down or, with --until-caught-up,\n"
        "once caught up. Cut off by the server for falling behind or stalling, it\n"
        "resumes after the last event shown (said on stderr): no gap, nothing twice.\n",
};

// The server ended the stream because this client did not keep up (field
// bounds: a live buffer past its limit, RESOURCE_EXHAUSTED naming where to
// resume) or stalled with a write pending (CANCELLED by the server, `serve
// --watch-stall`): the stream is resumed after the last event printed, so
// nothing is missed and nothing shown twice.
bool CutOff(const grpc::Status& status) {
  return (status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED &&
          absl::StrContains(status.error_message(), "watch again with")) ||
         status.error_code() == grpc::StatusCode::CANCELLED;
}

// What the command line asked to watch and how to show it.
struct WatchOptions {
  bool all = false;  // every game's events, by ledger position
  bool until_caught_up = false;
  bool json = false;
  std::string game;  // "games/ID" unless `all`
};

// A stream from just after `after`: a revision of the game, or a ledger
// position with --all.
std::unique_ptr<grpc::ClientReader<v1::WatchResponse>> OpenStream(v1::Arbiter::Stub& stub,
                                                                  grpc::ClientContext& context,
                                                                  const WatchOptions& options,
                                                                  uint64_t after) {
  if (options.all) {
    v1::WatchAllRequest req;
    req.set_after_position(after);
    return stub.WatchAll(&context, req);
  }
  v1::WatchGameRequest req;
  req.set_game(options.game);
  req.set_after_revision(after);
  return stub.WatchGame(&context, req);
}

// One message of the stream as a line of JSON, or for a reader the event
// with its rulings, or the caught-up marker saying whether the watch goes on.
void PrintMessage(const v1::WatchResponse& msg, const WatchOptions& options) {
  if (options.json) {
    std::printf("%s\n", ToJson(msg).c_str());
  } else if (msg.has_caught_up()) {
    // With --until-caught-up this is the last line: nothing follows.
    std::printf("-- caught up at %s %llu%s --\n", options.all ? "position" : "revision",
                static_cast<unsigned long long>(options.all ? msg.caught_up().position()
                                                            : msg.caught_up().revision()),
                options.until_caught_up ? "; stopped (--until-caught-up)" : "; following");
  } else {
    const v1::RecordedEvent& e = msg.event();
    std::printf("%s rev %llu pos %llu %s %s %s\n", e.game().c_str(),
                static_cast<unsigned long long>(e.revision()),
                static_cast<unsigned long long>(e.position()), FormatTime(e.event().at()).c_str(),
                EventKind(e.event()).c_str(), EventDetails(e.event()).c_str());
    for (const v1::Ruling& r : e.rulings()) std::printf("  ruling %s\n", RulingText(r).c_str());
  }
  std::fflush(stdout);
}

// Why a stream that ended with `status` is to be resumed, for the line on
// stderr; null when it is not (the caller fails with the status). A
// connection lost after the stream had delivered (the server may close it
// when it cancels a stalled stream) is resumed too; one that delivered
// nothing is the server being away.
const char* ResumeReason(const grpc::Status& status, bool progressed) {
  const bool lost = status.error_code() == grpc::StatusCode::UNAVAILABLE && progressed;
  if (!CutOff(status) && !lost) return nullptr;
  return status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED ? "this watcher fell behind"
         : lost ? "the connection was lost: this watcher stalled, or the network failed"
                : "this watcher stalled";
}

}  // namespace

int RunWatch(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kWatch, argc, argv, &args)) return *exit;
  uint64_t after = 0;
  if (absl::Status s = args.Number("after", &after); !s.ok())
    return UsageError(kWatch, s.message());
  WatchOptions options{.all = args.Has("all"),
                       .until_caught_up = args.Has("until-caught-up"),
                       .json = args.Has("json")};
  if (args.positionals().size() != (options.all ? 0u : 1u)) {
    return UsageError(kWatch, options.all ? "--all takes no GAME" : "which GAME (or --all)?");
  }
  if (!options.all) options.game = GameResource(args.positionals()[0]);

  const std::string server = ServerOf(args);
  auto stub = Connect(server);
  bool caught_up_shown = false;
  for (;;) {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::WatchResponse>> reader =
        OpenStream(*stub, context, options, after);
    bool stopped = false;  // by us, once caught up
    bool progressed = false;
    v1::WatchResponse msg;
    while (reader->Read(&msg)) {
      progressed = true;
      // A resumed stream's own caught-up marker repeats the first one.
      if (msg.has_caught_up() && caught_up_shown) continue;
      PrintMessage(msg, options);
      if (msg.has_event()) after = options.all ? msg.event().position() : msg.event().revision();
      if (msg.has_caught_up()) caught_up_shown = true;
      if (options.until_caught_up && msg.has_caught_up()) {
        stopped = true;
        context.TryCancel();
        break;
      }
    }
    grpc::Status status = reader->Finish();
    if (status.ok() || stopped) return 0;
    // The server going away after the stream started is the end of the stream.
    if (status.error_code() == grpc::StatusCode::UNAVAILABLE &&
        status.error_message() == "the server is shutting down") {
      return 0;
    }
    const char* why = ResumeReason(status, progressed);
    if (why == nullptr) return Fail("watch", server, status);
    std::fprintf(stderr,
                 "arbiter watch: the server cut the stream off (%s); resumed after %s %llu\n", why,
                 options.all ? "position" : "revision", static_cast<unsigned long long>(after));
  }
}

}  // namespace arbiter::cli
