// arbiter: one binary for the service and every client and offline command.
#include <cstdio>
#include <cstring>
#include <iterator>

#include "cli/commands.h"

namespace arbiter::cli {
namespace {

// One row per subcommand; owners add theirs here.
constexpr Command kCommands[] = {
    {"adjudicate", RunAdjudicate, "judge one game's events offline and print its rulings"},
    {"import-sgf", RunImportSgf, "turn an SGF FF[4] record into event lines"},
    {"rules", RunRules, "look up, diff and hash the rules database (list, show, diff, hash)"},
    {"verify", RunVerify, "audit a ledger database or an audit bundle, offline"},
    {"export", RunExport, "write one game's self-contained audit bundle"},
};

void PrintUsage(FILE* out) {
  std::fprintf(out, "usage: arbiter COMMAND [ARGS]\n\ncommands:\n");
  for (const Command& c : kCommands) std::fprintf(out, "  %-12s %s\n", c.name, c.summary);
}

}  // namespace
}  // namespace arbiter::cli

int main(int argc, char** argv) {
  using namespace arbiter::cli;
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "help") == 0) {
    PrintUsage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  for (const Command& c : kCommands) {
    if (std::strcmp(argv[1], c.name) == 0) return c.run(argc - 1, argv + 1);
  }
  std::fprintf(stderr, "arbiter: unknown command '%s'\n", argv[1]);
  PrintUsage(stderr);
  return 2;
}
