// The tournament export formats, one row each: everything the server, the
// sidecar and the CLI say about a format comes from its row here (its
// --format name, the file's extension and content type, its writer, how it
// writes one pairing), so a new format is its writer plus one row. The
// recipe is in this folder's README ("A new export format"). Pure.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_EXPORT_FORMATS_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_EXPORT_FORMATS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "arbiter/v1/tournament.pb.h"

namespace arbiter::tournament {

// What `tournament export` may ask of a format beyond its defaults
// (ExportTournamentRequest's `title`, `place` and `for_spreadsheet`).
struct ExportOptions {
  // EGD .h9 and AGA: the title written in place of the tournament's (one
  // that is not ASCII); empty: the tournament's own.
  std::string title;
  // EGD .h9 and AGA: the place written in place of the tournament's
  // location (one that is not ASCII); empty: the tournament's own.
  std::string place;
  // CSV: for a spreadsheet (a byte-order mark, formula-leading cells quoted).
  bool for_spreadsheet = false;
};

struct TournamentExportFormat {
  v1::ExportTournamentRequest::Format format;
  absl::string_view name;          // as `arbiter tournament export --format` takes it: "h9"
  absl::string_view label;         // in messages and help: "h9 (EGD)"
  absl::string_view extension;     // of the served file: ".h9"
  absl::string_view content_type;  // of the served file
  // The file's text; FAILED_PRECONDITION (naming the player or setting)
  // for what the format cannot hold.
  absl::StatusOr<std::string> (*write)(const v1::Tournament& t, const v1::StandingsReport& report,
                                       const ExportOptions& options);
  // How the file writes one pairing, for the sidecar's exportedAs (sidecar.h);
  // nullptr: "as in the report" (the format carries the report whole).
  std::string (*exported_as)(const v1::ScoredPairing& p);
  // How the file writes one bye, likewise.
  std::string (*bye_exported_as)(const v1::Tournament& t, const v1::ScoredBye& b);
  // Which options the format takes: a title and a place, the spreadsheet
  // flavour.
  bool takes_title = false;
  bool takes_for_spreadsheet = false;
};

// INVALID_ARGUMENT, naming the option, for an option `format` does not take
// or a title or place the format cannot hold (CheckExportTitle,
// CheckExportPlace, formats.h).
absl::Status CheckExportOptions(const TournamentExportFormat& format, const ExportOptions& options);

// The JSON export's text of a report (proto3 JSON, indented): the writer's
// own printing, so `verify --export` can print a report as the JSON export
// of a release before did.
absl::StatusOr<std::string> ReportJson(const v1::StandingsReport& report);

// Every format, in the order help text lists them.
absl::Span<const TournamentExportFormat> TournamentExportFormats();

// The row of `format`, or of the --format `name` (ASCII case ignored);
// nullptr when there is none.
const TournamentExportFormat* FindTournamentExport(v1::ExportTournamentRequest::Format format);
const TournamentExportFormat* FindTournamentExport(absl::string_view name);

// The labels as a list for help and errors: "opengotha, h9 (EGD), aga, csv or json".
const std::string& TournamentExportNames();

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_EXPORT_FORMATS_H_
