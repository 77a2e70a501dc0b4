// The body of a C2SP tlog-checkpoint (tlog-checkpoint.md), the text of the
// signed note a log publishes:
//
//   <origin>\n<tree size, decimal>\n<base64 root hash>\n[extension lines]
//
// The origin names the log (and is the name of the key that signs it).
#ifndef ARBITER_LEDGER_TLOG_CHECKPOINT_H_
#define ARBITER_LEDGER_TLOG_CHECKPOINT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ledger/hash.h"

namespace arbiter::ledger {

struct CheckpointBody {
  std::string origin;
  uint64_t tree_size = 0;
  Hash root{};
  std::vector<std::string> extensions;  // each non-empty, without its newline
};

// The note text. INVALID_ARGUMENT for an empty origin, or an origin or
// extension line that is empty or holds a newline.
absl::StatusOr<std::string> FormatCheckpointBody(const CheckpointBody& body);

// INVALID_ARGUMENT, with the line at fault, unless `text` is a checkpoint
// body: a non-empty origin, a decimal size with no sign or leading zero,
// the standard base64 of 32 bytes, then non-empty extension lines, each
// line ending in a newline.
absl::StatusOr<CheckpointBody> ParseCheckpointBody(absl::string_view text);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_TLOG_CHECKPOINT_H_
