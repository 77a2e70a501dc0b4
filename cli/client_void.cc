// `arbiter void GAME EVENT --reason TEXT [--at RFC3339] [--request-id KEY]
// [--server ADDR] [--json]`: the chief arbiter's correction (DOMAIN.md §3.1).
// Appends an eventVoided citing the event at revision EVENT of the game and
// the reason; the server judges the game again without it and answers with
// the rulings that supersede the ones it caused. Exit 4 for a token that is
// not the chief arbiter's, 2 for an event that cannot be voided.
#include <cstdio>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "adjudicator/engine/report.h"
#include "cli/client.h"
#include "cli/client_correction.h"
#include "cli/commands.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kVoidFlags[] = {
    {"reason", "TEXT", "why the event is voided (required)"},
    {"at", "RFC3339", "when the correction is made (default: now)"},
    {"request-id", "KEY", "makes the call safely retryable"},
    kJsonFlag,
    kServerFlag,
};
constexpr CommandSpec kVoid = {
    .name = "void",
    .positionals = "GAME EVENT",
    .summary = "void a mistaken event (an eventVoided): EVENT is its revision in the game",
    .min_positionals = 2,
    .max_positionals = 2,
    .flags = kVoidFlags,
    .notes =
        "The event stays in the ledger; the game is judged again without it and the\n"
        "rulings it caused are superseded. Revisions are listed by `arbiter history GAME`.\n"
        "Only a CHIEF_ARBITER token may void; gameCreated and corrections cannot be.\n",
};

}  // namespace

int RunVoid(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kVoid, argc, argv, &args)) return *exit;
  const std::optional<std::string> reason = args.Value("reason");
  if (!reason.has_value() || reason->empty()) return UsageError(kVoid, "--reason is required");
  const std::vector<std::string>& positionals = args.positionals();
  uint32_t event = 0;
  if (!absl::SimpleAtoi(positionals[1], &event) || event == 0) {
    return UsageError(kVoid, "EVENT '" + positionals[1] +
                                 "': a revision of the game, as `arbiter history` lists");
  }
  v1::Event e;
  e.mutable_event_voided()->set_event(event);
  e.mutable_event_voided()->set_reason(*reason);
  v1::AppendEventsResponse resp;
  if (std::optional<int> exit =
          AppendCorrection(kVoid, args, positionals[0], std::move(e), &resp)) {
    return *exit;
  }
  if (args.Has("json")) {
    std::printf("%s\n", ToJson(resp).c_str());
    return 0;
  }
  for (const v1::RecordedEvent& r : resp.events()) {
    std::printf("event %u voided at revision %llu\n", event,
                static_cast<unsigned long long>(r.revision()));
    for (const v1::Ruling& ruling : r.rulings()) {
      std::printf("  ruling %s\n", RulingText(ruling).c_str());
    }
  }
  std::printf("result: %s\n", ResultLine(resp.has_result() ? &resp.result() : nullptr).c_str());
  return 0;
}

}  // namespace arbiter::cli
