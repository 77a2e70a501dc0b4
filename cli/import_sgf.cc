// `arbiter import-sgf FILE|-... [--game ID]`: SGF FF[4] game records as
// event lines (adjudicator/engine/sgf_events.h), one proto3 JSON Event per
// line, the games one after another: each starts at its gameCreated, which
// is where `arbiter adjudicate` splits a stream into games.
//
// A record that is bad input, an illegal move included, is reported as
// "arbiter import-sgf: FILE: why" naming the place, and none of its lines is
// printed; the other files are still converted, and the exit status is 2.
// A record dated by a partial DT ("1996-08", "1996") is converted, dated to
// the first day of its span, and the report on stderr says so.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "adjudicator/engine/sgf.h"
#include "adjudicator/engine/sgf_events.h"
#include "arbiter/v1/events.pb.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/event_lines.h"
#include "cli/exit_codes.h"
#include "cli/files.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kImportSgfFlags[] = {
    {"game", "ID", "the game id (one FILE only; default: the file's name without its extension)"},
    {"date", "YYYY-MM-DD",
     "the day the games were played, for records whose DT gives none (a record's own DT wins)"},
};
constexpr CommandSpec kImportSgf = {
    .name = "import-sgf",
    .positionals = "FILE|-...",
    .summary = "turn SGF FF[4] records into event lines, one game after another",
    .min_positionals = 1,
    .max_positionals = kAnyNumber,
    .flags = kImportSgfFlags,
    .notes =
        "Main line only; setup stones; passes; BL/WL times. The game id of stdin (-) is\n"
        "\"stdin\". `arbiter import-sgf *.sgf | arbiter adjudicate -` judges every game.\n"
        "A record without a date (DT[YYYY-MM-DD]) is refused unless --date gives the day;\n"
        "one with a partial date (DT[YYYY-MM], DT[YYYY]) is dated to the first day of its\n"
        "span, and stderr says so.\n",
};

// The event lines of the record at `path`, all rendered before any is printed;
// `*note` what the report says of them (a partial DT's day), or empty.
absl::StatusOr<std::string> RecordLines(const std::string& path, const std::string& game_id,
                                        std::optional<absl::CivilDay> date, std::string* note) {
  absl::StatusOr<std::string> text = ReadInput(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<SgfGame> game = ParseSgf(*text);
  if (!game.ok()) return game.status();
  absl::StatusOr<std::vector<v1::Event>> events = SgfToEvents(*game, game_id, date);
  if (!events.ok() && !date.has_value() && !SgfDate(*game).has_value() &&
      SgfToEvents(*game, game_id, absl::CivilDay()).ok()) {
    // The date is all the record lacks: say how to give it.
    return absl::InvalidArgumentError(absl::StrCat(
        events.status().message(), ": give the day it was played with --date YYYY-MM-DD"));
  }
  if (!events.ok()) return events.status();
  *note = SgfDateNote(*game);
  return EventLines(*events);
}

}  // namespace

int RunImportSgf(int argc, char** argv) {
  Args args;
  if (std::optional<int> exit = ParseArgs(kImportSgf, argc, argv, &args)) return *exit;
  const std::vector<std::string>& paths = args.positionals();
  const std::optional<std::string> game_id = args.Value("game");
  if (game_id.has_value() && game_id->empty()) return UsageError(kImportSgf, "--game needs an id");
  if (game_id.has_value() && paths.size() > 1) {
    return UsageError(kImportSgf, "--game names one game: give one FILE");
  }
  if (ReadsStdinTwice(paths)) return UsageError(kImportSgf, "stdin (-) can be read only once");
  std::optional<absl::CivilDay> date;
  if (const std::optional<std::string> text = args.Value("date"); text.has_value()) {
    absl::CivilDay day;
    if (text->size() != 10 || !absl::ParseCivilTime(*text, &day)) {
      return UsageError(kImportSgf, "--date must be a day, YYYY-MM-DD");
    }
    date = day;
  }

  int exit = kExitOk;
  for (const std::string& path : paths) {
    const std::string id = game_id.has_value() ? *game_id
                           : path == "-"       ? "stdin"
                                               : std::filesystem::path(path).stem().string();
    std::string note;
    absl::StatusOr<std::string> lines = RecordLines(path, id, date, &note);
    if (!lines.ok()) {
      exit =
          std::max(exit, Complain("import-sgf", absl::StrCat(path, ": ", lines.status().message()),
                                  ExitCodeOf(lines.status())));
      continue;
    }
    if (std::fwrite(lines->data(), 1, lines->size(), stdout) != lines->size())
      return kExitUnavailable;
    if (!note.empty()) {
      std::fprintf(stderr, "arbiter import-sgf: %s: %s\n", path.c_str(), OneLine(note).c_str());
    }
  }
  return std::fflush(stdout) == 0 ? exit : kExitUnavailable;
}

}  // namespace arbiter::cli
