// A checkpoint as a C2SP signed note (tlog-checkpoint + signed-note): the
// form of the log's tree head that Go's sumdb/note and tlog, Tessera and
// the witness network read. Checkpoints signed since notes carry one
// (v1::Checkpoint.note); older ones, signed before, carry none, and are
// given one when asked (CheckpointNote): the same origin, size and root,
// signed by the same key, so no event and no root changes.
#ifndef ARBITER_LEDGER_INTERNAL_CHECKPOINT_NOTE_H_
#define ARBITER_LEDGER_INTERNAL_CHECKPOINT_NOTE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/hash.h"
#include "ledger/note_key.h"
#include "ledger/signer.h"
#include "ledger/tlog_checkpoint.h"

namespace arbiter::ledger {

// The note "origin / size / base64 root", signed by `signer` under its
// origin. FAILED_PRECONDITION for a signer with no origin; its error.
absl::StatusOr<std::string> SignCheckpointNote(const Signer& signer, uint64_t tree_size,
                                               const Hash& root);

// `checkpoint`'s note, or for a checkpoint signed before notes, its note
// signed now (Ed25519 is deterministic: the same bytes every time).
// SignCheckpointNote's errors.
absl::StatusOr<std::string> CheckpointNote(const v1::Checkpoint& checkpoint, const Signer& signer);

// Opens a checkpoint note with a published verifier key: the key's
// signature, and an origin that is the key's name. OpenSignedNote's
// errors; INVALID_ARGUMENT for a body that is not a checkpoint's;
// DATA_LOSS for another origin than the key's name.
absl::StatusOr<CheckpointBody> OpenCheckpointNote(absl::string_view note,
                                                  const NoteVerifierKey& key);

// OK when `checkpoint` has no note (signed before notes), or when its note
// is signed by `key` under the note's own origin (and that origin is
// `origin`, unless `origin` is empty) and states the checkpoint's size and
// root. DATA_LOSS with the reason otherwise. The key comes decoded, once
// for an audit's many checkpoints (VerifyCheckpoint is the caller).
absl::Status VerifyCheckpointNote(const v1::Checkpoint& checkpoint, const PublicKey& key,
                                  absl::string_view origin);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_CHECKPOINT_NOTE_H_
