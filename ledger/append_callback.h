// The completion of an asynchronous append (Ledger::AppendAsync).
#ifndef ARBITER_LEDGER_APPEND_CALLBACK_H_
#define ARBITER_LEDGER_APPEND_CALLBACK_H_

#include <functional>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"
#include "arbiter/v1/rulings.pb.h"

namespace arbiter::ledger {

// What Append would have returned: one entry per event, or why nothing was
// written.
using AppendCallback = std::function<void(absl::StatusOr<std::vector<v1::LedgerEntry>>)>;

// What an append would record, worked out without recording it
// (Ledger::PreviewHereOrQueue).
struct AppendPreview {
  // As Append would return them: positions and revisions as they would be
  // had nothing else been appended first.
  std::vector<v1::LedgerEntry> entries;
  // Every event is recorded already with the same bytes (a retry): the
  // entries are the recorded ones, and `result` is unset.
  bool recorded = false;
  // The game's result after the append; unset while the game goes on.
  std::optional<v1::Result> result;
};
using PreviewCallback = std::function<void(absl::StatusOr<AppendPreview>)>;

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_APPEND_CALLBACK_H_
