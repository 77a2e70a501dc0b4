// The subcommands of the single `arbiter` binary. Each returns the process
// exit status: 0 success, 1 a negative answer (e.g. verify found tampering),
// 2 bad input or usage, 3 an unavailable server or storage.
#ifndef ARBITER_CLI_COMMANDS_H_
#define ARBITER_CLI_COMMANDS_H_

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

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_COMMANDS_H_
