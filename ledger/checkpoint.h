// Signed checkpoints: "the first tree_size events have this Merkle root",
// signed with the ledger's Ed25519 key.
#ifndef ARBITER_LEDGER_CHECKPOINT_H_
#define ARBITER_LEDGER_CHECKPOINT_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/hash.h"
#include "ledger/signer.h"

namespace arbiter::ledger {

// A checkpoint of the tree (`tree_size`, `root`), signed; with its C2SP
// note (checkpoint_note.h) when the signer has an origin. The signer's
// error.
absl::StatusOr<v1::Checkpoint> SignCheckpoint(const Signer& signer, uint64_t tree_size,
                                              const Hash& root, absl::Time issued_at,
                                              v1::Checkpoint::Reason reason,
                                              std::vector<std::string> ended_games);

// The bytes a checkpoint's signature covers: the checkpoint with its
// signature emptied, serialized deterministically.
std::string SignedBytes(const v1::Checkpoint& checkpoint);

// OK iff the checkpoint names `public_key_der` and carries its valid
// signature, and its note, if it has one, is valid and, unless `origin` is
// empty, names the log `origin` (VerifyCheckpointNote); DATA_LOSS with the
// reason otherwise.
absl::Status VerifyCheckpoint(const v1::Checkpoint& checkpoint, absl::string_view public_key_der,
                              absl::string_view origin = "");
// The same with the key decoded once, and its id (SHA-256 of its DER): an
// audit's many checkpoints decode the key once, and check each signature
// once.
absl::Status VerifyCheckpoint(const v1::Checkpoint& checkpoint, const PublicKey& key,
                              const Hash& key_id, absl::string_view origin = "");

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_CHECKPOINT_H_
