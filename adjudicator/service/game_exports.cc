#include "adjudicator/service/game_exports.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/sgf_export.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/game_reads.h"
#include "adjudicator/tournament/export_table.h"
#include "google/protobuf/util/json_util.h"

namespace arbiter::service {
namespace {

using v1::ExportGameRequest;

absl::StatusOr<std::string> WriteSgf(ledger::Ledger& ledger, GameFolds& folds,
                                     const std::string& id) {
  absl::StatusOr<v1::GameRecord> record = ReadRecord(ledger, folds, id);
  if (!record.ok()) return record.status();
  std::vector<v1::Event> events;
  for (const v1::RecordedEvent& e : record->events()) events.push_back(e.event());
  absl::StatusOr<Rules> rules = RulesOf(events.front().game_created(), record->rules_pin());
  if (!rules.ok()) return rules.status();
  return ExportSgf(*std::move(rules), events, record->rules_pin());
}

absl::StatusOr<std::string> WriteJson(ledger::Ledger& ledger, GameFolds& folds,
                                      const std::string& id) {
  absl::StatusOr<v1::GameRecord> record = ReadRecord(ledger, folds, id);
  if (!record.ok()) return record.status();
  google::protobuf::util::JsonPrintOptions print;
  print.always_print_primitive_fields = true;
  std::string json;
  if (auto s = google::protobuf::util::MessageToJsonString(*record, &json, print); !s.ok()) {
    return absl::InternalError(std::string(s.message()));
  }
  return json + "\n";
}

absl::StatusOr<std::string> WriteBundle(ledger::Ledger& ledger, GameFolds&, const std::string& id) {
  absl::StatusOr<v1::AuditBundle> bundle = ledger.ExportBundle(id);
  if (!bundle.ok()) return bundle.status();
  return bundle->SerializeAsString();
}

constexpr GameExportFormat kFormats[] = {
    {ExportGameRequest::SGF, "sgf", "sgf (rulings as comments)", ".sgf", "application/x-go-sgf",
     false, WriteSgf},
    {ExportGameRequest::JSON, "json", "json", ".json", "application/json", false, WriteJson},
    {ExportGameRequest::BUNDLE, "bundle", "bundle", ".bundle",
     "application/x-protobuf; messageType=arbiter.v1.AuditBundle", true, WriteBundle},
};

}  // namespace

absl::Span<const GameExportFormat> GameExportFormats() { return kFormats; }

const GameExportFormat* FindGameExport(ExportGameRequest::Format format) {
  return tournament::FindExportRow(GameExportFormats(), format);
}

const GameExportFormat* FindGameExport(absl::string_view name) {
  return tournament::FindExportRowByName(GameExportFormats(), name);
}

const std::string& GameExportNames() {
  static const std::string* names = new std::string(tournament::ExportLabels(GameExportFormats()));
  return *names;
}

}  // namespace arbiter::service
