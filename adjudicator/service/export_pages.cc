#include "adjudicator/service/export_pages.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "adjudicator/service/field_bounds.h"
#include "adjudicator/service/game_exports.h"

namespace arbiter::service {
namespace {

// The whole exported file of a game, in memory, as its format's row writes it.
absl::StatusOr<v1::ExportGameResponse> ExportFile(ledger::Ledger& ledger, GameFolds& folds,
                                                  const std::string& id,
                                                  v1::ExportGameRequest::Format format) {
  const GameExportFormat* f = FindGameExport(format);
  if (f == nullptr) return absl::InvalidArgumentError(absl::StrCat("format: ", GameExportNames()));
  absl::StatusOr<std::string> content = f->write(ledger, folds, id);
  if (!content.ok()) return content.status();
  v1::ExportGameResponse out;
  out.set_content_type(std::string(f->content_type));
  out.set_content(*std::move(content));
  // A tournament's stream "tournaments/T": "tournaments-T.bundle".
  out.set_filename(absl::StrCat(absl::StrReplaceAll(id, {{"/", "-"}}), f->extension));
  return out;
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
