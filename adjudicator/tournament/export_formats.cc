#include "adjudicator/tournament/export_formats.h"

#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/export_table.h"
#include "adjudicator/tournament/formats.h"
#include "adjudicator/tournament/opengotha.h"
#include "google/protobuf/util/json_util.h"

namespace arbiter::tournament {
namespace {

using v1::ExportTournamentRequest;
using v1::ScoredPairing;

absl::StatusOr<std::string> WriteCsv(const v1::Tournament& t, const v1::StandingsReport& report) {
  return ExportCsv(t, report);
}

absl::StatusOr<std::string> WriteJson(const v1::Tournament&, const v1::StandingsReport& report) {
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = true;
  std::string json;
  if (!google::protobuf::util::MessageToJsonString(report, &json, options).ok()) {
    return absl::InternalError("the report does not print as JSON");
  }
  return json;
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

constexpr TournamentExportFormat kFormats[] = {
    {ExportTournamentRequest::OPENGOTHA_XML, "opengotha", "opengotha", ".xml", "application/xml",
     ExportOpenGotha, OpenGothaAs},
    {ExportTournamentRequest::EGD_H9, "h9", "h9 (EGD)", ".h9", "text/plain; charset=utf-8",
     ExportEgdH9, EgdAs},
    {ExportTournamentRequest::AGA, "aga", "aga", ".aga.txt", "text/plain; charset=utf-8", ExportAga,
     AgaToken},
    {ExportTournamentRequest::CSV, "csv", "csv", ".csv", "text/csv; charset=utf-8", WriteCsv,
     CsvAs},
    {ExportTournamentRequest::JSON, "json", "json", ".json", "application/json", WriteJson,
     nullptr},
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

}  // namespace arbiter::tournament
