// arbiter: one binary for the service and every client and offline command.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/nearest.h"
#include "cli/version.h"

namespace arbiter::cli {
namespace {

// One row per subcommand; owners add theirs here.
constexpr Command kCommands[] = {
    {"adjudicate", RunAdjudicate, "judge games' events offline and print their rulings"},
    {"import-sgf", RunImportSgf, "turn SGF FF[4] records into event lines"},
    {"rules", RunRules, "look up, diff and hash the rules database (list, show, diff, hash)"},
    {"verify", RunVerify, "audit a game through a server, or a ledger or a bundle offline"},
    {"export", RunExport, "a game as SGF, JSON or a self-contained audit bundle"},
    {"sync", RunSync, "copy a venue's games, with its proofs, into a federation's ledger"},
    {"serve", RunServe, "run the arbiter.v1 gRPC service on an embedded ledger"},
    {"health", RunHealth, "ask a server whether it is serving"},
    {"game", RunGame, "create a game on a server (game create)"},
    {"record", RunRecord, "send event lines to a server, printing each acknowledgement"},
    {"history", RunHistory, "a game's events and ruling history, with the clause texts"},
    {"show", RunShow, "a game now: board, clocks, warnings, pending rulings"},
    {"watch", RunWatch, "follow a game's (or every game's) events as they are recorded"},
    {"decide", RunDecide, "resolve a pending ruling (an arbiterDecision)"},
    {"void", RunVoid, "void a mistaken event with a reason (an eventVoided; chief arbiter)"},
    {"token", RunToken, "bearer tokens of a server: create, revoke, list (roles)"},
    {"state", RunState, "merge the --state folders of an earlier release into the store"},
    {"webhook", RunWebhook, "signed webhooks: add, list, remove, retry, verify a delivery"},
    {"tournament", RunTournament,
     "tournaments: create, import, pair, standings, export (art. 27-28)"},
};

void PrintUsage(FILE* out) {
  std::fprintf(out, "usage: arbiter [--server ADDR] COMMAND [ARGS]\n\ncommands:\n");
  for (const Command& c : kCommands) std::fprintf(out, "  %-12s %s\n", c.name, c.summary);
  std::fprintf(out,
               "\n`arbiter COMMAND --help` for each. --server ADDR before the command is the same\n"
               "as $ARBITER_SERVER for every client command. `arbiter --version` prints the\n"
               "version.\n\n");
  PrintExitCodes(out);
}

// "unknown command 'shw': did you mean show?", else where they are listed;
// a word with a dash is taken for a misspelt flag of the binary itself.
std::string UnknownCommand(absl::string_view typed) {
  std::vector<absl::string_view> names;
  std::string why;
  if (typed.substr(0, 1) == "-") {
    names = {"--version", "--help", "--server"};
    why = absl::StrCat("unknown flag ", typed);
  } else {
    for (const Command& c : kCommands) names.push_back(c.name);
    why = absl::StrCat("unknown command '", typed, "'");
  }
  if (std::optional<std::string> near = Nearest(typed, names)) {
    absl::StrAppend(&why, ": did you mean ", *near, "?");
  } else {
    absl::StrAppend(&why, " (`arbiter --help` lists the commands)");
  }
  return why;
}

}  // namespace
}  // namespace arbiter::cli

int main(int argc, char** argv) {
  using namespace arbiter::cli;
  // A global `--server ADDR` (or --server=ADDR) before the command is the
  // same as ARBITER_SERVER.
  if (argc >= 2 && std::strncmp(argv[1], "--server=", 9) == 0) {
    setenv("ARBITER_SERVER", argv[1] + 9, 1);
    argc -= 1;
    argv += 1;
  } else if (argc >= 2 && std::strcmp(argv[1], "--server") == 0) {
    if (argc < 3) return Complain("", "--server needs a value (ADDR)", kExitBadInput);
    setenv("ARBITER_SERVER", argv[2], 1);
    argc -= 2;
    argv += 2;
  }
  if (argc < 2) {
    return Complain("", "which command? (`arbiter --help` lists them)", kExitBadInput);
  }
  if (std::strcmp(argv[1], "--version") == 0) {
    std::printf("arbiter %s\n", kVersion);
    return kExitOk;
  }
  if (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 ||
      std::strcmp(argv[1], "help") == 0) {
    PrintUsage(stdout);
    return kExitOk;
  }
  for (const Command& c : kCommands) {
    if (std::strcmp(argv[1], c.name) == 0) return c.run(argc - 1, argv + 1);
  }
  return Complain("", UnknownCommand(argv[1]), kExitBadInput);
}
