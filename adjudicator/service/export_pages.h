// ExportGame's pages: a game's exported file (SGF, JSON or an audit
// bundle) cut into pages of at most kMaxPageBytes (field_bounds.h), so a
// game of any size is exported under gRPC's message limit.
//
// The pages are cut and kept by AnswerPages (answer_pages.h): a page token
// names the file it is cut from, and a page of a file that has changed
// since (the game went on, a new checkpoint covers it) is ABORTED.
#ifndef ARBITER_ADJUDICATOR_SERVICE_EXPORT_PAGES_H_
#define ARBITER_ADJUDICATOR_SERVICE_EXPORT_PAGES_H_

#include <string>

#include "absl/status/statusor.h"
#include "adjudicator/service/answer_pages.h"
#include "adjudicator/service/game_folds.h"
#include "arbiter/v1/service.pb.h"
#include "ledger/ledger.h"

namespace arbiter::service {

class ExportPages {
 public:
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
  AnswerPages pages_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_EXPORT_PAGES_H_
