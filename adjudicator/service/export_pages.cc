#include "adjudicator/service/export_pages.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/sgf_export.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "adjudicator/service/field_bounds.h"
#include "adjudicator/service/game_reads.h"
#include "google/protobuf/util/json_util.h"

namespace arbiter::service {
namespace {

// The whole exported file of a game, in memory: SGF, JSON or a bundle.
absl::StatusOr<v1::ExportGameResponse> ExportFile(ledger::Ledger& ledger, GameFolds& folds,
                                                  const std::string& id,
                                                  v1::ExportGameRequest::Format format) {
  v1::ExportGameResponse out;
  switch (format) {
    case v1::ExportGameRequest::SGF:
    case v1::ExportGameRequest::JSON: {
      absl::StatusOr<v1::GameRecord> record = ReadRecord(ledger, folds, id);
      if (!record.ok()) return record.status();
      if (format == v1::ExportGameRequest::JSON) {
        google::protobuf::util::JsonPrintOptions print;
        print.always_print_primitive_fields = true;
        std::string json;
        if (auto s = google::protobuf::util::MessageToJsonString(*record, &json, print); !s.ok()) {
          return absl::InternalError(std::string(s.message()));
        }
        out.set_content_type("application/json");
        out.set_content(json + "\n");
        out.set_filename(absl::StrCat(id, ".json"));
        return out;
      }
      std::vector<v1::Event> events;
      for (const v1::RecordedEvent& e : record->events()) events.push_back(e.event());
      absl::StatusOr<Rules> rules = RulesOf(events.front().game_created(), record->rules_pin());
      if (!rules.ok()) return rules.status();
      absl::StatusOr<std::string> sgf = ExportSgf(*std::move(rules), events, record->rules_pin());
      if (!sgf.ok()) return sgf.status();
      out.set_content_type("application/x-go-sgf");
      out.set_content(*std::move(sgf));
      out.set_filename(absl::StrCat(id, ".sgf"));
      return out;
    }
    case v1::ExportGameRequest::BUNDLE: {
      absl::StatusOr<v1::AuditBundle> bundle = ledger.ExportBundle(id);
      if (!bundle.ok()) return bundle.status();
      out.set_content_type("application/x-protobuf; messageType=arbiter.v1.AuditBundle");
      out.set_content(bundle->SerializeAsString());
      out.set_filename(absl::StrCat(id, ".bundle"));
      return out;
    }
    default:
      return absl::InvalidArgumentError("format: SGF, JSON or BUNDLE");
  }
}

}  // namespace

absl::StatusOr<v1::ExportGameResponse> ExportPages::Page(ledger::Ledger& ledger, GameFolds& folds,
                                                         const std::string& game_id,
                                                         v1::ExportGameRequest::Format format,
                                                         const std::string& page_token) {
  auto make = [&]() -> absl::StatusOr<AnswerPageList> {
    absl::StatusOr<v1::ExportGameResponse> whole = ExportFile(ledger, folds, game_id, format);
    if (!whole.ok()) return whole.status();
    v1::ExportGameResponse header;
    header.set_content_type(whole->content_type());
    header.set_filename(whole->filename());
    header.set_total_bytes(whole->content().size());
    PageCutter<v1::ExportGameResponse> cutter(header, header);
    cutter.AddBytes(whole->content(),
                    [](v1::ExportGameResponse* page) { return page->mutable_content(); });
    return cutter.Done();
  };
  std::string next;
  absl::StatusOr<std::string> page =
      pages_.Page(absl::StrCat(game_id, " ", v1::ExportGameRequest::Format_Name(format)),
                  page_token, make, &next);
  if (!page.ok()) return page.status();
  v1::ExportGameResponse out;
  if (!out.ParseFromString(*page)) return absl::InternalError("a kept page does not parse");
  out.set_next_page_token(next);
  return out;
}

}  // namespace arbiter::service
