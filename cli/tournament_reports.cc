// `arbiter tournament show|standings|export`: what a tournament is now.
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "adjudicator/tournament/export_formats.h"
#include "adjudicator/tournament/standings_columns.h"
#include "adjudicator/tournament/utf8.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/files.h"
#include "cli/tournament.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kTournamentShowFlags[] = {kJsonFlag, kServerFlag};
const FlagSpec kTournamentExportFlags[] = {
    {"format", "FORMAT", tournament::TournamentExportNames(), false, true},
    {"out", "FILE", "write to FILE (default stdout)"},
    {"sidecar", "FILE", "the reasons the format cannot carry (default FILE.reasons.json)"},
    {"title", "TITLE",
     "h9 and aga: the title the file gives in place of a tournament title that is not ASCII, "
     "in printable ASCII (its romanized or English name); no ']' (h9) or ',' (aga)"},
    {"place", "PLACE",
     "h9 and aga: the place the file gives in place of a tournament location that is not ASCII "
     "(北京 as Beijing), in printable ASCII; no ']' (h9)"},
    {"for-spreadsheet", "",
     "csv: for Excel and other spreadsheets: a UTF-8 byte-order mark first, and a cell that "
     "begins with = + - @ (a formula) written after a single quote"},
    kJsonFlag,
    kServerFlag,
};

// The name column, 20 terminal columns wide whatever the script: 李伟
// takes four, as wide as "Li W".
std::string Name(const v1::Standing& s) { return tournament::PadToWidth(s.name(), 20); }

// A header naming each criterion of the event's system, the table, then a
// legend saying what each counts (standings_columns.h).
void PrintStandings(const v1::StandingsReport& r) {
  const int boards = r.standings().empty() ? 0 : r.standings(0).board_by_board_size();
  const std::vector<tournament::StandingsColumn> columns =
      tournament::StandingsColumns(r.settings(), boards);
  std::printf("%s  %s  (%d rounds)\n", r.tournament().c_str(), r.title().c_str(), r.rounds());
  std::string head = absl::StrCat("rank  ", tournament::PadToWidth("name", 20));
  for (const tournament::StandingsColumn& c : columns) {
    absl::StrAppend(&head, "  ", absl::StrFormat("%6s", c.short_name));
  }
  std::printf("%s\n", head.c_str());
  for (const v1::Standing& s : r.standings()) {
    std::string line =
        absl::StrFormat("%4s  %s", s.rank() == 0 ? "-" : absl::StrCat(s.rank()), Name(s));
    for (const tournament::StandingsColumn& c : columns) {
      absl::StrAppend(&line, "  ", absl::StrFormat("%6s", tournament::ColumnValue(c, s)));
    }
    if (s.withdrawn()) absl::StrAppend(&line, "  withdrawn");
    if (!s.decided_by().empty())
      absl::StrAppend(&line, "  (by ", tournament::DecidedByWords(s.decided_by()), ")");
    std::printf("%s\n", line.c_str());
  }
  std::printf("\n");
  for (const tournament::StandingsColumn& c : columns) {
    std::printf("  %-6s %s  %s\n", c.short_name.c_str(), c.zh.c_str(), c.en.c_str());
  }
  if (std::string counted = tournament::CountedRoundsWords(r, false); !counted.empty()) {
    std::printf("  %s  (%s)\n", counted.c_str(), tournament::CountedRoundsWords(r, true).c_str());
  }
  for (const v1::ScoredPairing& p : r.pairings()) {
    if (p.note().empty() || p.status() == v1::ScoredPairing::DECIDED) continue;
    std::printf("  note: round %d board %d %s-%s: %s\n", p.round(), p.board(), p.black().c_str(),
                p.white().c_str(), p.note().c_str());
  }
}

// --title, --place and --for-spreadsheet, refused before anything is asked
// or written (the server refuses the same): the usage error's exit code, or
// nullopt with `options` set.
std::optional<int> ExportOptionsOf(const CommandSpec& spec, const Args& args,
                                   const tournament::TournamentExportFormat& format,
                                   tournament::ExportOptions* options) {
  options->title = args.ValueOr("title", "");
  options->place = args.ValueOr("place", "");
  options->for_spreadsheet = args.Has("for-spreadsheet");
  if (args.Has("title") && options->title.empty()) {
    return UsageError(spec, "--title: give a title (printable ASCII)");
  }
  if (args.Has("place") && options->place.empty()) {
    return UsageError(spec, "--place: give a place (printable ASCII)");
  }
  tournament::ExportOptions title, place, for_spreadsheet;
  title.title = options->title;
  place.place = options->place;
  for_spreadsheet.for_spreadsheet = options->for_spreadsheet;
  for (const auto& [flag, one] : {std::pair{"--title", title}, std::pair{"--place", place},
                                  std::pair{"--for-spreadsheet", for_spreadsheet}}) {
    if (absl::Status s = tournament::CheckExportOptions(format, one); !s.ok()) {
      return UsageError(spec,
                        absl::StrCat(flag, " with --format ", format.name, ": ", s.message()));
    }
  }
  return std::nullopt;
}

int CannotWrite(const absl::Status& status) {
  return Complain("tournament export", status.message(), ExitCodeOf(status));
}

}  // namespace

const CommandSpec kTournamentShow = {
    .name = "tournament show",
    .positionals = "TOURNAMENT",
    .summary = "a tournament: settings, entrants, rounds, withdrawals",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kTournamentShowFlags,
};
const CommandSpec kTournamentStandings = {
    .name = "tournament standings",
    .positionals = "TOURNAMENT",
    .summary =
        "the standings from the adjudicated games, ranked per articles 27-28; each tie "
        "broken says by what, in the text's words too (by A 胜者小分, by board 1 第1台...); exit 1 "
        "when a recorded game is not "
        "its pairing's (listed on stderr)",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kTournamentShowFlags,
};
const CommandSpec kTournamentExport = {
    .name = "tournament export",
    .positionals = "TOURNAMENT",
    .summary = "the tournament in another program's format, and the reasons it cannot carry",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kTournamentExportFlags,
    .notes =
        "h9 and aga are ASCII: a tournament whose title or location is not (全国围棋个人赛, "
        "北京) is exported with --title \"National Individual Championship\" --place "
        "\"Beijing\". csv is RFC 4180, UTF-8 without a byte-order mark, unless "
        "--for-spreadsheet. arbiter verify --export checks every variant, taking the title and "
        "place from the file (they are the exporter's word, not the log's).",
};

int TournamentShow(const Args& args) {
  v1::GetTournamentRequest req;
  req.set_name(TournamentName(args));
  return CallAndPrint(kTournamentShow, args, &v1::TournamentService::Stub::GetTournament, req);
}

int TournamentStandings(const Args& args) {
  const CommandSpec& spec = kTournamentStandings;
  v1::GetStandingsRequest req;
  req.set_tournament(TournamentName(args));
  // In pages of at most 1 MiB, merged in order (tournament.proto).
  v1::StandingsReport report;
  const std::string server = ServerOf(args);
  auto stub = v1::TournamentService::NewStub(OpenChannel(server));
  const grpc::Status status =
      CallPages<v1::TournamentService::Stub, v1::GetStandingsRequest, v1::StandingsReport>(
          *stub, &v1::TournamentService::Stub::GetStandings, req, [&] { report.Clear(); },
          [&](v1::StandingsReport& page) { report.MergeFrom(page); });
  if (!status.ok()) return Fail(std::string(spec.name), server, status);
  report.clear_next_page_token();
  report.clear_total_bytes();
  if (args.Has("json")) {
    std::printf("%s\n", ToJson(report).c_str());
  } else {
    PrintStandings(report);
  }
  // Standings that are not complete and right (a recorded game that is not
  // its pairing's) are a negative answer, each error said on stderr.
  for (const std::string& e : report.errors()) {
    std::fprintf(stderr, "arbiter tournament standings: error: %s\n", e.c_str());
  }
  return report.errors().empty() ? kExitOk : kExitNegative;
}

int TournamentExport(const Args& args) {
  const CommandSpec& spec = kTournamentExport;
  const tournament::TournamentExportFormat* format =
      tournament::FindTournamentExport(*args.Value("format"));
  if (format == nullptr) {
    return UsageError(spec, absl::StrCat("--format '", *args.Value("format"),
                                         "': ", tournament::TournamentExportNames()));
  }
  tournament::ExportOptions options;
  if (std::optional<int> bad = ExportOptionsOf(spec, args, *format, &options)) return *bad;
  std::optional<std::string> out = args.Value("out");
  std::optional<std::string> sidecar = args.Value("sidecar");
  v1::ExportTournamentRequest req;
  req.set_format(format->format);
  req.set_tournament(TournamentName(args));
  req.set_title(options.title);
  req.set_place(options.place);
  req.set_for_spreadsheet(options.for_spreadsheet);
  // In pages of at most 1 MiB: the file's and the sidecar's bytes
  // concatenated, the sidecar's entries merged (tournament.proto).
  v1::ExportTournamentResponse resp;
  const std::string server = ServerOf(args);
  auto stub = v1::TournamentService::NewStub(OpenChannel(server));
  const grpc::Status status = CallPages<v1::TournamentService::Stub, v1::ExportTournamentRequest,
                                        v1::ExportTournamentResponse>(
      *stub, &v1::TournamentService::Stub::ExportTournament, req, [&] { resp.Clear(); },
      [&](v1::ExportTournamentResponse& page) {
        resp.mutable_content()->append(page.content());
        resp.mutable_sidecar_json()->append(page.sidecar_json());
        page.clear_content();
        page.clear_sidecar_json();
        resp.MergeFrom(page);
      });
  if (!status.ok()) return Fail(std::string(spec.name), server, status);
  resp.clear_next_page_token();
  resp.clear_total_bytes();
  if (!sidecar && out) sidecar = *out + ".reasons.json";
  if (sidecar) {
    if (absl::Status s = WriteFileAtomically(*sidecar, resp.sidecar_json()); !s.ok()) {
      return CannotWrite(s);
    }
  }
  if (out) {
    if (absl::Status s = WriteFileAtomically(*out, resp.content()); !s.ok()) return CannotWrite(s);
  }
  if (args.Has("json")) {
    std::printf("%s\n", ToJson(resp).c_str());
  } else if (!out) {
    std::fwrite(resp.content().data(), 1, resp.content().size(), stdout);
  } else {
    std::printf("wrote %s and %s (%d reasons)\n", out->c_str(), sidecar->c_str(),
                resp.sidecar().entries_size());
  }
  return 0;
}

}  // namespace arbiter::cli
