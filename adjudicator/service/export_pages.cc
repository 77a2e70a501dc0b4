#include "adjudicator/service/export_pages.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/sgf_export.h"
#include "adjudicator/service/adjudicator_judge.h"
#include "adjudicator/service/field_bounds.h"
#include "adjudicator/service/game_reads.h"
#include "google/protobuf/util/json_util.h"
#include "proto/canonical/sha256.h"

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

// An export's page token: where the next page begins and which file it is
// cut from (the first 8 bytes of the file's SHA-256, in hex), so the pages
// of one export come from one file.
std::string ExportToken(size_t offset, const std::string& file_id) {
  return absl::StrCat("x", offset, ".", file_id);
}

absl::Status ParseExportToken(const std::string& token, size_t* offset, std::string* file_id) {
  const size_t dot = token.find('.');
  if (token.size() < 2 || token[0] != 'x' || dot == std::string::npos ||
      !absl::SimpleAtoi(absl::string_view(token).substr(1, dot - 1), offset)) {
    return absl::InvalidArgumentError(
        absl::StrCat("page_token: ", QuotedPrefix(token), " is not a token of an export"));
  }
  *file_id = token.substr(dot + 1);
  return absl::OkStatus();
}

std::string FileId(const std::string& content) {
  const Sha256Digest digest = Sha256(content);
  return ToHex(AsBytes(digest).substr(0, 8));
}

}  // namespace

absl::StatusOr<v1::ExportGameResponse> ExportPages::Page(ledger::Ledger& ledger, GameFolds& folds,
                                                         const std::string& game_id,
                                                         v1::ExportGameRequest::Format format,
                                                         const std::string& page_token) {
  size_t offset = 0;
  std::string want;
  std::shared_ptr<const File> file;
  if (!page_token.empty()) {
    if (absl::Status s = ParseExportToken(page_token, &offset, &want); !s.ok()) return s;
    file = Kept(game_id, format, want);
  }
  if (file == nullptr) {
    absl::StatusOr<v1::ExportGameResponse> whole = ExportFile(ledger, folds, game_id, format);
    if (!whole.ok()) return whole.status();
    auto made = std::make_shared<File>();
    made->game_id = game_id;
    made->format = format;
    made->id = FileId(whole->content());
    made->whole = *std::move(whole);
    file = made;
    Keep(file);
  }
  const std::string& content = file->whole.content();
  if (!page_token.empty() && (file->id != want || offset > content.size())) {
    return absl::AbortedError(
        absl::StrCat(game_id,
                     ": the export changed since its first page (the game went on, or a new "
                     "checkpoint covers it); export again from the first page"));
  }
  const size_t size = std::min(kMaxPageBytes, content.size() - offset);
  v1::ExportGameResponse page;
  page.set_content_type(file->whole.content_type());
  page.set_filename(file->whole.filename());
  page.set_total_bytes(content.size());
  page.set_content(content.substr(offset, size));
  if (offset + size < content.size()) {
    page.set_next_page_token(ExportToken(offset + size, file->id));
  }
  return page;
}

std::shared_ptr<const ExportPages::File> ExportPages::Kept(const std::string& game_id,
                                                           v1::ExportGameRequest::Format format,
                                                           const std::string& file_id) {
  absl::MutexLock lock(&mu_);
  for (const std::shared_ptr<const File>& f : kept_) {
    if (f->game_id == game_id && f->format == format && f->id == file_id) return f;
  }
  return nullptr;
}

void ExportPages::Keep(std::shared_ptr<const File> file) {
  // A file of one page is never asked for again.
  if (file->whole.content().size() <= kMaxPageBytes ||
      file->whole.content().size() > kMaxKeptBytes) {
    return;
  }
  absl::MutexLock lock(&mu_);
  kept_.push_front(std::move(file));
  size_t bytes = 0;
  for (size_t i = 0; i < kept_.size(); ++i) {
    bytes += kept_[i]->whole.content().size();
    if (i >= kMaxKept || bytes > kMaxKeptBytes) {
      kept_.resize(i);
      break;
    }
  }
}

}  // namespace arbiter::service
