// The completion of an asynchronous append (Ledger::AppendAsync).
#ifndef ARBITER_LEDGER_APPEND_CALLBACK_H_
#define ARBITER_LEDGER_APPEND_CALLBACK_H_

#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"

namespace arbiter::ledger {

// What Append would have returned: one entry per event, or why nothing was
// written.
using AppendCallback = std::function<void(absl::StatusOr<std::vector<v1::LedgerEntry>>)>;

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_APPEND_CALLBACK_H_
