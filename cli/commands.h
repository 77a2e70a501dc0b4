// The subcommands of the single `arbiter` binary. Each parses its own
// command line (flags.h) and returns the process exit status (exit_codes.h).
#ifndef ARBITER_CLI_COMMANDS_H_
#define ARBITER_CLI_COMMANDS_H_

#include "cli/flags.h"

namespace arbiter::cli {

// argv[0] is the subcommand name; flags follow.
using CommandFn = int (*)(int argc, char** argv);

struct Command {
  const char* name;
  CommandFn run;
  const char* summary;
};

int RunAdjudicate(int argc, char** argv);
int RunImportSgf(int argc, char** argv);
int RunRules(int argc, char** argv);
int RunVerify(int argc, char** argv);
int RunExport(int argc, char** argv);
// A venue's games into a federation's ledger (cli/sync.cc).
int RunSync(int argc, char** argv);
// The service and its clients (cli/serve.cc, cli/client_*.cc; see client.h
// for --server, --json and how gRPC status codes map to these exit codes).
int RunServe(int argc, char** argv);
int RunHealth(int argc, char** argv);
int RunGame(int argc, char** argv);
int RunRecord(int argc, char** argv);
int RunHistory(int argc, char** argv);
int RunShow(int argc, char** argv);
int RunWatch(int argc, char** argv);
int RunDecide(int argc, char** argv);
int RunVoid(int argc, char** argv);
int RunToken(int argc, char** argv);    // cli/token.cc
int RunWebhook(int argc, char** argv);  // cli/webhook.cc
// --state folders of an earlier release merged into the store (cli/state.cc).
int RunState(int argc, char** argv);
// `export` and `verify` against a server (cli/client_remote.cc): RunExport /
// RunVerify parse the command line against `spec` and hand over to these
// when neither --db nor --bundle is given.
int RunRemoteExport(const CommandSpec& spec, const Args& args);
int RunRemoteVerify(const CommandSpec& spec, const Args& args);
// Tournaments on a server (cli/tournament*.cc): create, import, pair, standings, export...
int RunTournament(int argc, char** argv);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_COMMANDS_H_
