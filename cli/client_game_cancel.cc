#include "cli/client_game_cancel.h"

#include <cstdio>
#include <string>
#include <utility>

#include "cli/client.h"
#include "cli/client_correction.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kGameCancelFlags[] = {
    {"reason", "TEXT", "why the game is cancelled (required)"},
    {"at", "RFC3339", "when it is cancelled (default: now)"},
    {"request-id", "KEY", "makes the call safely retryable"},
    kJsonFlag,
    kServerFlag,
};

}  // namespace

const CommandSpec kGameCancel = {
    .name = "game cancel",
    .positionals = "GAME",
    .summary = "cancel a game created by mistake (a gameCancelled; chief arbiter)",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kGameCancelFlags,
    .notes =
        "The game stays in the ledger; it leaves the hall and every standing, and the\n"
        "pairing it was attached to awaits a game again. After it only a correction\n"
        "(`arbiter void`) is accepted; voiding the cancellation restores the game.\n"
        "Only a CHIEF_ARBITER token may cancel.\n",
};

int GameCancel(const Args& args) {
  const std::optional<std::string> reason = args.Value("reason");
  if (!reason.has_value() || reason->empty()) {
    return UsageError(kGameCancel, "--reason is required");
  }
  v1::Event e;
  e.mutable_game_cancelled()->set_reason(*reason);
  v1::AppendEventsResponse resp;
  const std::string& game = args.positionals()[0];
  if (std::optional<int> exit = AppendCorrection(kGameCancel, args, game, std::move(e), &resp)) {
    return *exit;
  }
  if (args.Has("json")) {
    std::printf("%s\n", ToJson(resp).c_str());
    return 0;
  }
  for (const v1::RecordedEvent& r : resp.events()) {
    std::printf("%s cancelled at revision %llu: %s\n", GameResource(game).c_str(),
                static_cast<unsigned long long>(r.revision()), reason->c_str());
  }
  return 0;
}

}  // namespace arbiter::cli
