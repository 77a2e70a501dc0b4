// A game created by mistake (DOMAIN.md §3.2): the chief arbiter cancels it
// with `gameCancelled {reason}`. Like a correction it is a procedure of the
// record, not an article: no sanctioning governs it, it issues no ruling and
// it sanctions nobody. The game stays in the ledger as recorded; the hall and
// the standings leave it out, and after it only a correction is accepted (so
// voiding the `gameCancelled` itself restores the game).
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"

namespace arbiter {

const std::string& Adjudicator::cancel_reason() const {
  static const std::string* const kNone = new std::string();
  return cancelled_.has_value() ? *cancelled_ : *kNone;
}

absl::Status Adjudicator::OnGameCancelled(const v1::GameCancelled& c) {
  if (c.reason().empty()) return absl::InvalidArgumentError("gameCancelled: a reason is required");
  // Whatever was ruled stays in the history; the clocks stop where they are.
  clocks_.Stop(at_);
  cancelled_ = c.reason();
  return absl::OkStatus();
}

}  // namespace arbiter
