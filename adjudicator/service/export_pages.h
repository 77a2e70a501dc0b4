// ExportGame's pages: a game's exported file (SGF, JSON or an audit
// bundle) cut into pages of at most kMaxPageBytes (field_bounds.h), so a
// game of any size is exported under gRPC's message limit.
//
// A page token names where the next page begins and which file it is cut
// from (the first 8 bytes of the file's SHA-256): all pages of one export
// come from one file. The file of the latest exports is kept (a few, up to
// kMaxKeptBytes in all), so each page does not make it again; a page whose
// file is no longer kept is cut from the file made anew, and when that
// differs (the game went on, a new checkpoint covers it) the page is
// ABORTED: the client starts again from the first page.
#ifndef ARBITER_ADJUDICATOR_SERVICE_EXPORT_PAGES_H_
#define ARBITER_ADJUDICATOR_SERVICE_EXPORT_PAGES_H_

#include <cstddef>
#include <deque>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "adjudicator/service/game_folds.h"
#include "arbiter/v1/service.pb.h"
#include "ledger/ledger.h"

namespace arbiter::service {

class ExportPages {
 public:
  static constexpr size_t kMaxKept = 4;              // files
  static constexpr size_t kMaxKeptBytes = 64 << 20;  // all of them together

  // The page of game `game_id`'s file in `format` that `page_token` names
  // (empty: the first). INVALID_ARGUMENT for a malformed token or format,
  // ABORTED as above, the read model's and the ledger's errors (NOT_FOUND
  // for an unknown game, FAILED_PRECONDITION for a bundle before any
  // checkpoint).
  absl::StatusOr<v1::ExportGameResponse> Page(ledger::Ledger& ledger, GameFolds& folds,
                                              const std::string& game_id,
                                              v1::ExportGameRequest::Format format,
                                              const std::string& page_token);

 private:
  struct File {
    std::string game_id;
    v1::ExportGameRequest::Format format;
    std::string id;  // hex of the first 8 bytes of the content's SHA-256
    v1::ExportGameResponse whole;
  };

  // The kept file, if any, else null.
  std::shared_ptr<const File> Kept(const std::string& game_id, v1::ExportGameRequest::Format format,
                                   const std::string& file_id);
  void Keep(std::shared_ptr<const File> file);

  absl::Mutex mu_;
  std::deque<std::shared_ptr<const File>> kept_ ABSL_GUARDED_BY(mu_);  // newest first
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_EXPORT_PAGES_H_
