#include "cli/flags.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/nearest.h"

namespace arbiter::cli {
namespace {

const FlagSpec* FindFlag(const CommandSpec& spec, absl::string_view name) {
  for (const FlagSpec& f : spec.flags) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool IsHelp(absl::string_view arg) { return arg == "--help" || arg == "-h"; }

// "--name VALUE" or "--name".
std::string FlagText(const FlagSpec& f) {
  std::string out = absl::StrCat("--", f.name);
  if (!f.value.empty()) absl::StrAppend(&out, " ", f.value);
  return out;
}

// "arbiter show GAME [flags]", required flags before the positionals.
std::string Synopsis(const CommandSpec& spec) {
  std::string out = absl::StrCat("arbiter ", spec.name);
  bool optional = false;
  for (const FlagSpec& f : spec.flags) {
    if (f.required) {
      absl::StrAppend(&out, " ", FlagText(f), f.repeatable ? "..." : "");
    } else {
      optional = true;
    }
  }
  if (!spec.positionals.empty()) absl::StrAppend(&out, " ", spec.positionals);
  if (optional) absl::StrAppend(&out, " [flags]");
  return out;
}

std::string PositionalCount(const CommandSpec& spec) {
  if (spec.max_positionals == 0) return "no arguments";
  if (spec.min_positionals == spec.max_positionals) {
    return absl::StrCat(spec.min_positionals, " argument", spec.min_positionals == 1 ? "" : "s");
  }
  if (spec.max_positionals == kAnyNumber) {
    return absl::StrCat("at least ", spec.min_positionals, " argument",
                        spec.min_positionals == 1 ? "" : "s");
  }
  return absl::StrCat(spec.min_positionals, " to ", spec.max_positionals, " arguments");
}

// "unknown flag --jsn: did you mean --json?", naming the nearest flag the
// command declares (nearest.h), else where the flags are listed.
std::string UnknownFlag(const CommandSpec& spec, absl::string_view typed) {
  std::vector<absl::string_view> names;
  for (const FlagSpec& f : spec.flags) names.push_back(f.name);
  names.push_back("help");
  absl::string_view bare = typed.substr(0, typed.find('='));
  bare.remove_prefix(std::min(bare.find_first_not_of('-'), bare.size()));
  if (std::optional<std::string> near = Nearest(bare, names)) {
    return absl::StrCat("unknown flag ", typed, ": did you mean --", *near, "?");
  }
  return absl::StrCat("unknown flag ", typed, " (`arbiter ", spec.name,
                      " --help` lists its flags)");
}

}  // namespace

bool Args::Has(absl::string_view flag) const {
  return std::any_of(flags_.begin(), flags_.end(), [&](const auto& f) { return f.first == flag; });
}

std::optional<std::string> Args::Value(absl::string_view flag) const {
  std::optional<std::string> out;
  for (const auto& [name, value] : flags_) {
    if (name == flag) out = value;
  }
  return out;
}

std::string Args::ValueOr(absl::string_view flag, std::string fallback) const {
  std::optional<std::string> v = Value(flag);
  return v.has_value() ? *std::move(v) : std::move(fallback);
}

std::vector<std::string> Args::Values(absl::string_view flag) const {
  std::vector<std::string> out;
  for (const auto& [name, value] : flags_) {
    if (name == flag) out.push_back(value);
  }
  return out;
}

namespace {

template <typename T>
absl::Status ParseNumber(const Args& args, absl::string_view flag, T* out, const char* what,
                         bool (*parse)(absl::string_view, T*)) {
  std::optional<std::string> v = args.Value(flag);
  if (!v.has_value()) return absl::OkStatus();
  T n{};
  if (!parse(*v, &n)) {
    return absl::InvalidArgumentError(absl::StrCat("--", flag, " '", *v, "': ", what));
  }
  *out = n;
  return absl::OkStatus();
}

bool Int(absl::string_view s, int* n) { return absl::SimpleAtoi(s, n); }
bool Uint(absl::string_view s, uint64_t* n) { return absl::SimpleAtoi(s, n); }
bool Real(absl::string_view s, double* n) { return absl::SimpleAtod(s, n); }

// What the command line lacks or has too many of, read whole: the first
// required flag left out, else too few or too many positionals (the last
// one named when too many, as the likeliest slip). Empty when nothing.
std::string MissingOrExtraArguments(const CommandSpec& spec, const Args& args) {
  for (const FlagSpec& f : spec.flags) {
    if (f.required && !args.Has(f.name)) return absl::StrCat("missing ", FlagText(f));
  }
  const int n = static_cast<int>(args.positionals().size());
  if (n >= spec.min_positionals &&
      (spec.max_positionals == kAnyNumber || n <= spec.max_positionals)) {
    return "";
  }
  return absl::StrCat("expects ", PositionalCount(spec),
                      spec.positionals.empty() ? "" : absl::StrCat(" (", spec.positionals, ")"),
                      ", got ", n,
                      n > 0 && n > spec.max_positionals && spec.max_positionals != kAnyNumber
                          ? absl::StrCat(": '", args.positionals().back(), "'")
                          : "",
                      " (usage: ", Synopsis(spec), ")");
}

}  // namespace

absl::Status Args::Number(absl::string_view flag, int* out) const {
  return ParseNumber(*this, flag, out, "a whole number", Int);
}

absl::Status Args::Number(absl::string_view flag, uint64_t* out) const {
  return ParseNumber(*this, flag, out, "a whole number, 0 or more", Uint);
}

absl::Status Args::Number(absl::string_view flag, double* out) const {
  return ParseNumber(*this, flag, out, "a number", Real);
}

std::optional<int> ParseArgs(const CommandSpec& spec, int argc, char** argv, Args* args) {
  *args = Args();
  // The first problem is kept while reading on, so that --help after it
  // still answers with the usage.
  std::string error;
  auto refuse = [&](std::string why) {
    if (error.empty()) error = std::move(why);
  };
  bool only_positionals = false;
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    if (only_positionals || arg == "-" || arg.empty() || arg[0] != '-') {
      args->positionals_.emplace_back(arg);
      continue;
    }
    if (IsHelp(arg)) {
      PrintUsage(spec, stdout);
      return kExitOk;
    }
    if (arg == "--") {
      only_positionals = true;
      continue;
    }
    if (arg.substr(0, 2) != "--") {
      refuse(UnknownFlag(spec, arg));
      continue;
    }
    const size_t eq = arg.find('=');
    const absl::string_view name = arg.substr(2, eq == absl::string_view::npos ? eq : eq - 2);
    const FlagSpec* flag = FindFlag(spec, name);
    if (flag == nullptr) {
      refuse(UnknownFlag(spec, absl::StrCat("--", name)));
      continue;
    }
    std::string value;
    if (flag->value.empty()) {
      if (eq != absl::string_view::npos) refuse(absl::StrCat("--", name, " takes no value"));
    } else if (eq != absl::string_view::npos) {
      value = std::string(arg.substr(eq + 1));
    } else if (i + 1 < argc && absl::string_view(argv[i + 1]).substr(0, 2) != "--") {
      value = argv[++i];
    } else {
      refuse(absl::StrCat("--", name, " needs a value (", flag->value, ")"));
      continue;
    }
    if (!flag->repeatable && args->Has(name)) {
      refuse(absl::StrCat("--", name, " is given twice"));
      continue;
    }
    args->flags_.emplace_back(std::string(name), std::move(value));
  }
  if (std::string missing = MissingOrExtraArguments(spec, *args); !missing.empty()) refuse(missing);
  if (!error.empty()) return UsageError(spec, error);
  return std::nullopt;
}

void PrintUsage(const CommandSpec& spec, FILE* out) {
  std::fprintf(out, "usage: %s\n%.*s\n", Synopsis(spec).c_str(),
               static_cast<int>(spec.summary.size()), spec.summary.data());
  if (!spec.flags.empty()) std::fputs("\nflags:\n", out);
  for (const FlagSpec& f : spec.flags) {
    const std::string text = FlagText(f) + (f.repeatable ? "..." : "");
    if (text.size() <= 24) {
      std::fprintf(out, "  %-24s  %.*s\n", text.c_str(), static_cast<int>(f.help.size()),
                   f.help.data());
    } else {
      std::fprintf(out, "  %s\n  %-24s  %.*s\n", text.c_str(), "", static_cast<int>(f.help.size()),
                   f.help.data());
    }
  }
  if (!spec.notes.empty()) {
    std::fprintf(out, "\n%.*s", static_cast<int>(spec.notes.size()), spec.notes.data());
    if (spec.notes.back() != '\n') std::fputc('\n', out);
  }
  std::fputc('\n', out);
  PrintExitCodes(out);
}

int UsageError(const CommandSpec& spec, absl::string_view why) {
  return Complain(spec.name, why, kExitBadInput);
}

std::string UpperChoice(absl::string_view typed) {
  std::string out = absl::AsciiStrToUpper(typed);
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

namespace {

void PrintGroupUsage(const CommandGroup& group, FILE* out) {
  std::fprintf(out, "usage: arbiter %.*s SUBCOMMAND [ARGS]\n%.*s\n\nsubcommands:\n",
               static_cast<int>(group.name.size()), group.name.data(),
               static_cast<int>(group.summary.size()), group.summary.data());
  for (const Subcommand& s : group.subcommands) {
    std::fprintf(out, "  %s\n      %.*s\n", Synopsis(*s.spec).c_str(),
                 static_cast<int>(s.spec->summary.size()), s.spec->summary.data());
  }
  std::fprintf(out, "\n`arbiter %.*s SUBCOMMAND --help` lists its flags.\n\n",
               static_cast<int>(group.name.size()), group.name.data());
  PrintExitCodes(out);
}

}  // namespace

int RunGroup(const CommandGroup& group, int argc, char** argv) {
  if (argc >= 2 && IsHelp(argv[1])) {
    PrintGroupUsage(group, stdout);
    return kExitOk;
  }
  std::vector<absl::string_view> names;
  for (const Subcommand& s : group.subcommands) {
    names.push_back(s.spec->name.substr(s.spec->name.rfind(' ') + 1));
  }
  std::string why = absl::StrCat("which subcommand? ", absl::StrJoin(names, ", "), " (`arbiter ",
                                 group.name, " --help`)");
  if (argc >= 2) {
    const absl::string_view wanted = argv[1];
    for (const Subcommand& s : group.subcommands) {
      const absl::string_view name = s.spec->name.substr(s.spec->name.rfind(' ') + 1);
      if (name != wanted) continue;
      Args args;
      if (std::optional<int> exit = ParseArgs(*s.spec, argc - 1, argv + 1, &args)) return *exit;
      return s.run(args);
    }
    why = absl::StrCat("unknown subcommand '", wanted, "'");
    if (std::optional<std::string> near = Nearest(wanted, names)) {
      absl::StrAppend(&why, ": did you mean ", *near, "?");
    } else {
      absl::StrAppend(&why, " (", absl::StrJoin(names, ", "), ")");
    }
  }
  return Complain(group.name, why, kExitBadInput);
}

}  // namespace arbiter::cli
