#include "adjudicator/service/console/receipt_route.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/console/http_status.h"
#include "ledger/receipt.h"
#include "proto/names/resource_name.h"

namespace arbiter::service::console {
namespace {

// ReceiptCheckpoint's choice (ledger/receipt.h) through the checkpoint
// index: of the checkpoints covering `position` that have a note, the one
// with the most cosignatures kept, the earliest among equals. Reads the
// cosignature counts once and only the checkpoints it looks at (one,
// unless some predate notes), not every checkpoint.
absl::StatusOr<v1::Checkpoint> ReceiptCheckpointOf(ledger::Ledger& ledger, uint64_t position,
                                                   ledger::CosignatureStore* cosignatures) {
  ledger::CheckpointIndex& index = ledger.checkpoint_index();
  absl::StatusOr<std::vector<uint64_t>> sizes = index.SizesCovering(position);
  if (!sizes.ok()) return sizes.status();
  std::map<uint64_t, int> counts;
  if (cosignatures != nullptr) {
    absl::StatusOr<std::map<uint64_t, int>> kept = cosignatures->Counts();
    if (!kept.ok()) return kept.status();
    counts = *std::move(kept);
  }
  auto count = [&counts](uint64_t size) {
    auto it = counts.find(size);
    return it == counts.end() ? 0 : it->second;
  };
  std::stable_sort(sizes->begin(), sizes->end(),
                   [&](uint64_t a, uint64_t b) { return count(a) > count(b); });
  for (uint64_t size : *sizes) {
    absl::StatusOr<std::optional<v1::Checkpoint>> c = index.OfSize(size);
    if (!c.ok()) return c.status();
    if (c->has_value() && !(*c)->note().empty()) return **std::move(c);
  }
  return absl::FailedPreconditionError(
      absl::StrCat("no signed checkpoint covers position ", position,
                   " yet (a server signs within --sign-within of a write)"));
}

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
  absl::StatusOr<std::vector<v1::LedgerEntry>> entry =
      ledger.log().ReadGame(game_id, revision - 1, 1);
  if (!entry.ok()) return entry.status();
  if (entry->empty()) return absl::InternalError("the ruling's event vanished");
  const uint64_t position = entry->front().position();
  absl::StatusOr<v1::Checkpoint> checkpoint = ReceiptCheckpointOf(ledger, position, cosignatures);
  if (!checkpoint.ok()) return checkpoint.status();
  absl::StatusOr<ledger::InclusionProofResult> proof =
      ledger.proofs().ProveInclusion(position, checkpoint->tree_size());
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
