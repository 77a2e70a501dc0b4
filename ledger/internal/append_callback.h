// The completions of a queued append (AppendQueue; Ledger::Append hands
// its caller an Appended, append_request.h).
#ifndef ARBITER_LEDGER_INTERNAL_APPEND_CALLBACK_H_
#define ARBITER_LEDGER_INTERNAL_APPEND_CALLBACK_H_

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"
#include "arbiter/v1/rulings.pb.h"
#include "ledger/judge.h"

namespace arbiter::ledger {

// What a committed append hands its caller with the commit
// (Ledger::Append): its entries, rulings included, and the
// game's fold as that commit left it, so the caller answers from it
// without looking the game up again.
struct Committed {
  std::vector<v1::LedgerEntry> entries;
  // The game at the entries' last revision; nullptr for a retry answered
  // with entries recorded earlier (no new fold was made).
  std::shared_ptr<const GameJudge> fold;
};
using CommitCallback = std::function<void(absl::StatusOr<Committed>)>;

// What an append would record, worked out without recording it
// (a preview, Ledger::Append).
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

#endif  // ARBITER_LEDGER_INTERNAL_APPEND_CALLBACK_H_
