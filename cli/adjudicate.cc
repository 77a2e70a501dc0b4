// `arbiter adjudicate [--ruleset ID] [--json] FILE|-...` (DOMAIN.md §6):
// judges games' event lines offline and prints each game's ruling history
// and result.
//
// Every input is a stream of games: a game's events start at its
// gameCreated and run to the next gameCreated or the end of the input, so
// `arbiter import-sgf *.sgf | arbiter adjudicate -` judges a collection in
// one process, with each ruleset loaded once (LoadRules caches it). Each
// game's report is printed once its last event is judged: the readable
// report, reports separated by a blank line, or with --json one line per
// game, exactly the object a single game gives.
//
// A bad line is reported as "arbiter adjudicate: FILE: line N: why" on
// stderr, the game it belongs to gets no report, and reading goes on at the
// next gameCreated; an unreadable file is reported and the others are still
// judged. One game has one gameCreated: a second one for a game id already
// seen (in any input of the call) is bad input naming both lines; the game
// still being read with that id gets no report, and the lines after it are
// skipped up to the next gameCreated. Exit 0 when every game was judged, 2
// when any input or game was bad input, 3 when the reports could not be
// written.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <istream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/new_input.h"
#include "adjudicator/engine/report.h"
#include "arbiter/v1/events.pb.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/event_lines.h"
#include "cli/event_text.h"
#include "cli/exit_codes.h"
#include "cli/files.h"
#include "google/protobuf/util/json_util.h"
#include "rulesdb/rules.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kAdjudicateFlags[] = {
    {"ruleset", "ID[@VERSION]",
     "judge under this ruleset instead of each game's own (cn-2002, cn-1988; by default its latest "
     "version)"},
    {"json", "", "one AdjudicationReport per game, one JSON object per line (DOMAIN.md §6)"},
};
constexpr CommandSpec kAdjudicate = {
    .name = "adjudicate",
    .positionals = "FILE|-...",
    .summary = "judge games' event lines offline and print each one's rulings and result",
    .min_positionals = 1,
    .max_positionals = kAnyNumber,
    .flags = kAdjudicateFlags,
    .notes =
        "Each input (\"-\": stdin) may hold several games: a game starts at its gameCreated\n"
        "line, so `arbiter import-sgf *.sgf | arbiter adjudicate -` judges them all. The\n"
        "reports come in input order. A bad line is reported as FILE: line N: why, its game\n"
        "gets no report, and the other games are still judged; the exit status is then 2.\n",
};

// The rules a game is judged under: its own ruleset at its pinned version
// (rulesetVersion, by default the latest), unless --ruleset re-judges it
// under another (ID or ID@VERSION, by default the latest).
absl::StatusOr<Rules> RulesFor(const v1::GameCreated& game, const std::string& ruleset,
                               const std::string& where) {
  if (ruleset.empty()) return LoadRulesFor(game);
  const std::string id = ruleset.substr(0, ruleset.find('@'));
  absl::StatusOr<Rules> rules = LoadRulesSpec(
      game.supplement().empty() ? ruleset : absl::StrCat(ruleset, "+", game.supplement()));
  if (!rules.ok() && !game.supplement().empty() && id != game.ruleset()) {
    // Re-judging under another ruleset: the game's supplement is layered on
    // its own ruleset and may not apply to this one.
    absl::StatusOr<Rules> bare = LoadRulesSpec(ruleset);
    if (bare.ok()) {
      Complain("adjudicate",
               absl::StrCat(where, ": supplement ", game.supplement(), " does not apply to ", id,
                            " (", rules.status().message(), "); judged without it"),
               kExitOk);
      return bare;
    }
  }
  return rules;
}

// Reads the games of one input after another and prints their reports.
class Judge {
 public:
  Judge(std::string ruleset, bool json) : ruleset_(std::move(ruleset)), json_(json) {
    print_.always_print_primitive_fields = true;  // so "pending": false appears
    print_.preserve_proto_field_names = false;    // lowerCamel, as on the wire
  }

  // Judges every game of `in`, named `where` in messages.
  void Read(std::istream& in, const std::string& where);
  // Reports that `where` could not be read.
  void Unreadable(const std::string& where, absl::string_view why) {
    Complain("adjudicate", absl::StrCat(where, ": cannot read it: ", why), kExitBadInput);
    bad_input_ = true;
  }

  int ExitCode() const {
    if (!printed_ok_) return kExitUnavailable;
    return bad_input_ ? kExitBadInput : kExitOk;
  }

 private:
  void Bad(const std::string& where, int line, absl::string_view why) {
    Complain("adjudicate", absl::StrCat(where, ": line ", line, ": ", why), kExitBadInput);
    bad_input_ = true;
    game_.reset();
    skipping_ = true;
  }
  void Start(const v1::Event& created, const std::string& where, int line);
  void Finish();
  // Where the gameCreated of `game_id` was read ("FILE: line N"), or nullptr.
  const std::string* FirstCreated(const std::string& game_id) const {
    auto it = created_.find(game_id);
    return it == created_.end() ? nullptr : &it->second;
  }

  const std::string ruleset_;
  const bool json_;
  google::protobuf::util::JsonPrintOptions print_;
  std::optional<Adjudicator> game_;  // the game being read, unless it was bad
  std::vector<std::string> kinds_;   // its events' kinds, for the readable report
  // Every game id whose gameCreated was read, and where.
  std::map<std::string, std::string> created_;
  bool skipping_ = false;  // a bad game's lines, up to the next gameCreated
  int reports_ = 0;
  bool bad_input_ = false;
  bool printed_ok_ = true;
};

void Judge::Read(std::istream& in, const std::string& where) {
  game_.reset();
  skipping_ = false;
  bool any_event = false;
  EventLineReader lines(in);
  int number = 0;
  absl::StatusOr<v1::Event> event;
  while (lines.Next(&number, &event)) {
    any_event = true;
    if (!event.ok()) {
      Bad(where, number, event.status().message());
      continue;
    }
    if (event->has_game_created()) {
      if (const std::string* first = FirstCreated(event->game_created().game_id())) {
        // The record holds the game twice: which is the game is unknown,
        // so the copy being read is not reported either.
        if (game_.has_value() && game_->game().game_id() == event->game_created().game_id()) {
          game_.reset();
        }
        Finish();
        Bad(where, number,
            absl::StrCat("a second gameCreated for game \"", event->game_created().game_id(),
                         "\" (its first at ", *first, "); one game has one gameCreated"));
        continue;
      }
      created_.emplace(event->game_created().game_id(), absl::StrCat(where, ": line ", number));
      Finish();
      Start(*event, where, number);
      continue;
    }
    if (skipping_) continue;
    if (!game_.has_value()) {
      Bad(where, number, "the first event must be gameCreated");
      continue;
    }
    if (absl::StatusOr<std::vector<v1::Ruling>> r = game_->Apply(*event); !r.ok()) {
      Bad(where, number, r.status().message());
      continue;
    }
    kinds_.push_back(EventKind(*event));
  }
  if (lines.failed()) Unreadable(where, "reading failed part way");
  if (!any_event) {
    Complain("adjudicate", absl::StrCat(where, ": no events (the first must be gameCreated)"),
             kExitBadInput);
    bad_input_ = true;
  }
  Finish();
}

void Judge::Start(const v1::Event& created, const std::string& where, int line) {
  skipping_ = false;
  kinds_.clear();
  // A game created in this input: held to the checks of a new game, which
  // the fold does not make of a recorded one (new_input.h).
  if (absl::Status s = CheckNewGame(created.game_created()); !s.ok()) {
    return Bad(where, line, s.message());
  }
  absl::StatusOr<Rules> rules = RulesFor(created.game_created(), ruleset_, where);
  if (!rules.ok()) return Bad(where, line, rules.status().message());
  absl::StatusOr<Adjudicator> a = Adjudicator::Create(*std::move(rules));
  if (!a.ok()) return Bad(where, line, a.status().message());
  game_.emplace(*std::move(a));
  if (absl::StatusOr<std::vector<v1::Ruling>> r = game_->Apply(created); !r.ok()) {
    return Bad(where, line, r.status().message());
  }
  kinds_.push_back(EventKind(created));
}

void Judge::Finish() {
  if (!game_.has_value()) return;
  const v1::AdjudicationReport report = BuildReport(*game_);
  game_.reset();
  std::string out;
  if (json_) {
    if (const auto s = google::protobuf::util::MessageToJsonString(report, &out, print_); !s.ok()) {
      Complain("adjudicate", s.ToString(), kExitUnavailable);
      printed_ok_ = false;
      return;
    }
    out += '\n';
  } else {
    out = absl::StrCat(reports_ > 0 ? "\n" : "", RenderText(report, kinds_));
  }
  ++reports_;
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size()) printed_ok_ = false;
}

}  // namespace

int RunAdjudicate(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kAdjudicate, argc, argv, &args)) return *exit;
  if (ReadsStdinTwice(args.positionals())) {
    return UsageError(kAdjudicate, "stdin (-) can be read only once");
  }

  // A ruleset that does not exist is the flag's fault, said once, not each
  // game's.
  const std::string ruleset = args.ValueOr("ruleset", "");
  if (args.Has("ruleset") && ruleset.empty()) {
    // An empty value is a script's unset variable, not "each game's own".
    return UsageError(kAdjudicate, "--ruleset: give a ruleset (cn-2002, cn-1988) or leave it out");
  }
  if (!ruleset.empty()) {
    if (absl::StatusOr<Rules> rules = LoadRulesSpec(ruleset); !rules.ok()) {
      return UsageError(kAdjudicate,
                        absl::StrCat("--ruleset ", ruleset, ": ", rules.status().message()));
    }
  }
  std::ios::sync_with_stdio(false);  // std::cin is read line by line; stdout is C stdio only
  Judge judge(ruleset, args.Has("json"));
  for (const std::string& path : args.positionals()) {
    if (path == "-") {
      judge.Read(std::cin, "stdin");
      continue;
    }
    std::ifstream file;
    if (std::optional<std::string> why = OpenToRead(path, &file)) {
      judge.Unreadable(path, *why);
      continue;
    }
    judge.Read(file, path);
  }
  if (std::fflush(stdout) != 0) return kExitUnavailable;
  return judge.ExitCode();
}

}  // namespace arbiter::cli
