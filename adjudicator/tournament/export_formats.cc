#include "adjudicator/tournament/export_formats.h"

#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/export_table.h"
#include "adjudicator/tournament/formats.h"
#include "adjudicator/tournament/opengotha.h"
#include "adjudicator/tournament/scoring.h"
#include "google/protobuf/util/json_util.h"

namespace arbiter::tournament {
namespace {

using v1::ExportTournamentRequest;
using v1::ScoredBye;
using v1::ScoredPairing;

absl::StatusOr<std::string> WriteOpenGotha(const v1::Tournament& t,
                                           const v1::StandingsReport& report,
                                           const ExportOptions&) {
  return ExportOpenGotha(t, report);
}
absl::StatusOr<std::string> WriteEgd(const v1::Tournament& t, const v1::StandingsReport& report,
                                     const ExportOptions& options) {
  return ExportEgdH9(t, report, options.title, options.place);
}
absl::StatusOr<std::string> WriteAga(const v1::Tournament& t, const v1::StandingsReport& report,
                                     const ExportOptions& options) {
  return ExportAga(t, report, options.title, options.place);
}
absl::StatusOr<std::string> WriteCsv(const v1::Tournament& t, const v1::StandingsReport& report,
                                     const ExportOptions& options) {
  return ExportCsv(t, report, options.for_spreadsheet);
}

// The report with the rounds' byes (ScoredByes), which the standings fold
// into the points and the JSON lists so a reader can reconcile them.
absl::StatusOr<std::string> WriteJson(const v1::Tournament& t, const v1::StandingsReport& report,
                                      const ExportOptions&) {
  const std::vector<ScoredBye> byes = ScoredByes(t);
  if (byes.empty()) return ReportJson(report);
  v1::StandingsReport with = report;
  for (const ScoredBye& b : byes) *with.add_byes() = b;
  return ReportJson(with);
}

std::string OpenGothaAs(const ScoredPairing& p) {
  return p.round() == 0 ? "left out (never paired)" : OpenGothaResult(p);
}
std::string EgdAs(const ScoredPairing& p) {
  return p.round() == 0
             ? "left out (never paired)"
             : absl::StrCat("black ", EgdToken(p, p.black()), ", white ", EgdToken(p, p.white()));
}
std::string CsvAs(const ScoredPairing& p) {
  return absl::StrCat("points ", p.black_points(), "-", p.white_points());
}

std::string OpenGothaByeAs(const v1::Tournament&, const ScoredBye& b) {
  return b.not_credited().empty() ? "<ByePlayer>" : "nothing (no <ByePlayer>)";
}
std::string EgdByeAs(const v1::Tournament& t, const ScoredBye& b) {
  return b.not_credited().empty() ? EgdByeToken(t) : "0- (a free round)";
}
std::string AgaByeAs(const v1::Tournament&, const ScoredBye&) {
  return "nothing (the AGA results file lists games only)";
}
std::string CsvByeAs(const v1::Tournament&, const ScoredBye& b) {
  return b.not_credited().empty() ? "bye (in the round's column)"
                                  : "an empty cell (in the round's column)";
}
std::string JsonByeAs(const v1::Tournament&, const ScoredBye&) { return "as in the report"; }

constexpr TournamentExportFormat kFormats[] = {
    {ExportTournamentRequest::OPENGOTHA_XML, "opengotha", "opengotha", ".xml", "application/xml",
     WriteOpenGotha, OpenGothaAs, OpenGothaByeAs},
    {ExportTournamentRequest::EGD_H9, "h9", "h9 (EGD)", ".h9", "text/plain; charset=utf-8",
     WriteEgd, EgdAs, EgdByeAs, /*takes_title=*/true},
    {ExportTournamentRequest::AGA, "aga", "aga", ".aga.txt", "text/plain; charset=utf-8", WriteAga,
     AgaToken, AgaByeAs, /*takes_title=*/true},
    {ExportTournamentRequest::CSV, "csv", "csv", ".csv", "text/csv; charset=utf-8", WriteCsv, CsvAs,
     CsvByeAs, /*takes_title=*/false, /*takes_for_spreadsheet=*/true},
    {ExportTournamentRequest::JSON, "json", "json", ".json", "application/json", WriteJson, nullptr,
     JsonByeAs},
};

}  // namespace

absl::Span<const TournamentExportFormat> TournamentExportFormats() { return kFormats; }

const TournamentExportFormat* FindTournamentExport(ExportTournamentRequest::Format format) {
  return FindExportRow(TournamentExportFormats(), format);
}

const TournamentExportFormat* FindTournamentExport(absl::string_view name) {
  return FindExportRowByName(TournamentExportFormats(), name);
}

const std::string& TournamentExportNames() {
  static const std::string* names = new std::string(ExportLabels(TournamentExportFormats()));
  return *names;
}

absl::Status CheckExportOptions(const TournamentExportFormat& format,
                                const ExportOptions& options) {
  if (!options.title.empty()) {
    if (!format.takes_title) {
      return absl::InvalidArgumentError(absl::StrCat(
          "title: only the h9 (EGD) and aga exports take a title in place of the tournament's; ",
          format.label, " writes the tournament's own"));
    }
    if (absl::Status s = CheckExportTitle(format.format, options.title); !s.ok()) return s;
  }
  if (!options.place.empty()) {
    if (!format.takes_title) {
      return absl::InvalidArgumentError(absl::StrCat(
          "place: only the h9 (EGD) and aga exports take a place for the file instead of the "
          "tournament's location; ",
          format.label, " writes the tournament's own"));
    }
    if (absl::Status s = CheckExportPlace(format.format, options.place); !s.ok()) return s;
  }
  if (options.for_spreadsheet && !format.takes_for_spreadsheet) {
    return absl::InvalidArgumentError(absl::StrCat(
        "for_spreadsheet: only the csv export has a spreadsheet flavour, not ", format.label));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReportJson(const v1::StandingsReport& report) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  std::string json;
  if (!google::protobuf::util::MessageToJsonString(report, &json, options).ok()) {
    return absl::InternalError("the report does not print as JSON");
  }
  return json;
}

}  // namespace arbiter::tournament
