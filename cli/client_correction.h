// What the chief arbiter's record procedures (`arbiter void`, `arbiter game
// cancel`) share: one event, stamped and appended to one game.
#ifndef ARBITER_CLI_CLIENT_CORRECTION_H_
#define ARBITER_CLI_CLIENT_CORRECTION_H_

#include <optional>
#include <string>

#include "arbiter/v1/service.pb.h"
#include "cli/flags.h"

namespace arbiter::cli {

// Stamps `event` with --at (default: now) and --request-id, appends it to
// GAME on the server (--server) and fills `resp`. Nullopt on success, else
// the exit status, the reason already printed: bad usage (--at) 2, the
// server's refusal by its code (client.h).
std::optional<int> AppendCorrection(const CommandSpec& spec, const Args& args,
                                    const std::string& game, v1::Event event,
                                    v1::AppendEventsResponse* resp);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_CLIENT_CORRECTION_H_
