// The command line of every `arbiter` command, parsed one way.
//
// A command declares its flags and positionals once, in a CommandSpec;
// ParseArgs reads argv against it, and `--help` prints a usage generated from
// the same declaration (ending with the exit codes, exit_codes.h). A command
// with subcommands (`rules show`, `token create`) is a CommandGroup of specs.
//
//   constexpr FlagSpec kShowFlags[] = {kJsonFlag, kServerFlag};
//   constexpr CommandSpec kShow = {.name = "show", .positionals = "GAME",
//                                  .summary = "a game now", .min_positionals = 1,
//                                  .max_positionals = 1, .flags = kShowFlags};
//   int RunShow(int argc, char** argv) {
//     Args args;
//     if (std::optional<int> exit = ParseArgs(kShow, argc, argv, &args)) return *exit;
//     ... args.positionals()[0], args.Has("json"), args.Value("server") ...
//
// What the parser accepts:
//   --name VALUE and --name=VALUE for a flag with a value; --name for a switch
//   -h or --help anywhere: the usage on stdout, exit 0
//   "-" is a positional (stdin); after "--" everything is a positional
// What it refuses as bad usage (exit 2, one line "arbiter CMD: why" on
// stderr, complaint.h): an unknown flag (naming the nearest one the command
// declares: "did you mean --json?"), a flag with no value (a following word
// that starts with "--" is not taken as a value: write --name=--VALUE), a
// value given to a switch, a flag given twice that is not repeatable, a
// missing required flag, and too few or too many positionals (with the
// synopsis).
#ifndef ARBITER_CLI_FLAGS_H_
#define ARBITER_CLI_FLAGS_H_

#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace arbiter::cli {

struct FlagSpec {
  absl::string_view name;   // without the dashes: "ruleset"
  absl::string_view value;  // the value's placeholder ("ID"); empty: a switch
  absl::string_view help;   // one line
  bool repeatable = false;  // may be given several times; every value is kept
  bool required = false;    // bad usage when absent
};

inline constexpr int kAnyNumber = -1;

struct CommandSpec {
  absl::string_view name;         // as typed: "adjudicate", "tournament create"
  absl::string_view positionals;  // as shown in the usage: "FILE|-...", "GAME"
  absl::string_view summary;      // what the command does, one line
  int min_positionals = 0;
  int max_positionals = 0;  // kAnyNumber: no limit
  std::span<const FlagSpec> flags;
  absl::string_view notes;  // printed after the flags: defaults, formats, ...
};

// What ParseArgs found.
class Args {
 public:
  // True when a switch or a flag with a value was given.
  bool Has(absl::string_view flag) const;
  // The value of a flag (the last one of a repeatable flag), or nullopt.
  std::optional<std::string> Value(absl::string_view flag) const;
  std::string ValueOr(absl::string_view flag, std::string fallback) const;
  // Every value of a repeatable flag, in order.
  std::vector<std::string> Values(absl::string_view flag) const;
  // Parses a flag's value as a number into `out` (left as it is when the
  // flag is absent). INVALID_ARGUMENT naming the flag when it is not one.
  absl::Status Number(absl::string_view flag, int* out) const;
  absl::Status Number(absl::string_view flag, uint64_t* out) const;
  absl::Status Number(absl::string_view flag, double* out) const;

  const std::vector<std::string>& positionals() const { return positionals_; }

 private:
  friend std::optional<int> ParseArgs(const CommandSpec& spec, int argc, char** argv, Args* args);
  std::vector<std::pair<std::string, std::string>> flags_;  // name, value ("" for a switch)
  std::vector<std::string> positionals_;
};

// Reads argv[1..] (argv[0] names the command) against `spec`. Returns
// nullopt with `*args` filled when the command should go on; otherwise the
// exit status it ends with, having printed what was asked: 0 after the usage
// on stdout (--help), 2 after the one line "arbiter CMD: why" on stderr.
std::optional<int> ParseArgs(const CommandSpec& spec, int argc, char** argv, Args* args);

// The usage generated from `spec`: synopsis, summary, flags, notes, exit
// codes.
void PrintUsage(const CommandSpec& spec, FILE* out);

// For bad usage found after parsing (a value of the wrong form, flags that
// exclude each other): prints the one line "arbiter CMD: why" to stderr;
// returns 2.
int UsageError(const CommandSpec& spec, absl::string_view why);

// Choices are typed in any case: `decide G 3 warning`, `--venue rapid`,
// `--role chief-arbiter`. The spelling such a choice is declared in (an
// enum value, an option id): ASCII upper case, '-' as '_'.
std::string UpperChoice(absl::string_view typed);

// A command whose first argument picks one of several subcommands, each
// with its own spec: `arbiter rules show CLAUSE`.
struct Subcommand {
  const CommandSpec* spec;  // spec->name is "GROUP SUB"
  int (*run)(const Args& args);
};

struct CommandGroup {
  absl::string_view name;  // "rules"
  absl::string_view summary;
  std::span<const Subcommand> subcommands;
};

// Picks the subcommand named by argv[1], parses the rest against its spec
// and runs it. `arbiter GROUP --help` lists every subcommand's usage; a
// missing or unknown subcommand is bad usage (exit 2, one line naming the
// subcommands, or the nearest one).
int RunGroup(const CommandGroup& group, int argc, char** argv);

}  // namespace arbiter::cli

#endif  // ARBITER_CLI_FLAGS_H_
