#include "adjudicator/service/console/receipt_route.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/console/http_status.h"
#include "ledger/receipt.h"
#include "proto/names/resource_name.h"

namespace arbiter::service::console {
namespace {

// The receipt of ruling `n` of `game_id`, or the error to answer.
absl::StatusOr<std::string> Receipt(ledger::Ledger& ledger, GameFolds& folds,
                                    ledger::CosignatureStore* cosignatures,
                                    const std::string& game_id, const std::string& number) {
  if (absl::Status s = CheckId("game", game_id); !s.ok()) return s;
  absl::StatusOr<GameView> view = folds.Get(game_id);
  if (!view.ok()) return view.status();
  uint32_t n = 0;
  if (!absl::SimpleAtoi(number, &n) || n == 0 || n > view->game().rulings().size()) {
    return absl::NotFoundError(absl::StrCat("game '", game_id, "' has no ruling ", number));
  }
  const uint32_t revision = view->game().rulings()[n - 1].event();
  absl::StatusOr<std::vector<v1::LedgerEntry>> entry = ledger.ReadGame(game_id, revision - 1, 1);
  if (!entry.ok()) return entry.status();
  if (entry->empty()) return absl::InternalError("the ruling's event vanished");
  const uint64_t position = entry->front().position();
  absl::StatusOr<std::vector<v1::Checkpoint>> checkpoints = ledger.Checkpoints();
  if (!checkpoints.ok()) return checkpoints.status();
  absl::StatusOr<v1::Checkpoint> checkpoint =
      ledger::ReceiptCheckpoint(*checkpoints, position, cosignatures);
  if (!checkpoint.ok()) return checkpoint.status();
  absl::StatusOr<ledger::InclusionProofResult> proof =
      ledger.ProveInclusion(position, checkpoint->tree_size());
  if (!proof.ok()) return proof.status();
  return ledger::MakeReceipt(entry->front(), *checkpoint, proof->path, cosignatures);
}

}  // namespace

std::string ReceiptPath(const std::string& game_id, uint32_t n) {
  return absl::StrCat("/games/", game_id, "/rulings/", n, "/receipt");
}

void RouteReceipts(httplib::Server& http, ledger::Ledger* ledger, GameFolds* folds,
                   ledger::CosignatureStore* cosignatures) {
  http.Get(R"(/games/([^/]+)/rulings/([0-9]+)/receipt)",
           [=](const httplib::Request& req, httplib::Response& res) {
             const std::string game = req.matches[1];
             absl::StatusOr<std::string> receipt =
                 Receipt(*ledger, *folds, cosignatures, game, req.matches[2]);
             if (!receipt.ok()) return SendError(res, receipt.status());
             res.set_header("Content-Disposition",
                            absl::StrCat("attachment; filename=\"", game, "-ruling-",
                                         std::string(req.matches[2]), ".tlog-proof\""));
             res.set_content(*receipt, "text/plain; charset=utf-8");
           });
}

}  // namespace arbiter::service::console
