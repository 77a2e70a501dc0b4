// `arbiter game cancel GAME --reason TEXT`: the chief arbiter cancels a game
// created by mistake (a gameCancelled, DOMAIN.md §3.2).
#ifndef ARBITER_CLI_CLIENT_GAME_CANCEL_H_
#define ARBITER_CLI_CLIENT_GAME_CANCEL_H_

#include "cli/flags.h"

namespace arbiter::cli {

extern const CommandSpec kGameCancel;

// Appends the gameCancelled and prints what the server recorded. Exit 4 for
// a token that is not the chief arbiter's, 2 for a game that is already
// cancelled or without a reason.
int GameCancel(const Args& args);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_CLIENT_GAME_CANCEL_H_
