// A ruling's receipt: a C2SP tlog-proof (c2sp.org/tlog-proof@v1) of the
// event the ruling was given on, verifiable offline against the log's
// verifier key and, if asked, a quorum of witnesses:
//
//   c2sp.org/tlog-proof@v1
//   extra <base64 of the entry: the event's canonical bytes, the leaf the tree hashes>
//   index <the event's leaf index, its ledger position - 1>
//   <the inclusion proof, one base64 hash per line, leaf's sibling first>
//
//   <the checkpoint note: the log's signature, then the witnesses' cosignatures>
//
// The entry rides in the `extra` line, which tlog-proof leaves to the
// application: the reader needs the leaf's bytes to hash it, and a receipt
// that carries them is whole on a phone or a USB stick. It is checked, not
// trusted: its hash is what the proof binds to the signed root.
#ifndef ARBITER_LEDGER_RECEIPT_H_
#define ARBITER_LEDGER_RECEIPT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/cosignature_store.h"
#include "ledger/hash.h"
#include "ledger/log_source.h"
#include "ledger/note_key.h"
#include "ledger/tlog_checkpoint.h"
#include "ledger/witness_policy.h"

namespace arbiter::ledger {

struct Receipt {
  std::string entry;  // the leaf's bytes
  uint64_t index = 0;
  std::vector<Hash> proof;
  std::string checkpoint;  // the note, with every signature line
};

std::string FormatReceipt(const Receipt& receipt);
// INVALID_ARGUMENT, naming the line, unless `text` is a tlog-proof with an
// `extra` line.
absl::StatusOr<Receipt> ParseReceipt(absl::string_view text);

// Of `checkpoints`, the one to prove `position` against: of those that
// cover it and have a note, the one with the most cosignatures kept in
// `store` (null: none are), the earliest among equals. FAILED_PRECONDITION
// when none covers it yet.
absl::StatusOr<v1::Checkpoint> ReceiptCheckpoint(const std::vector<v1::Checkpoint>& checkpoints,
                                                 uint64_t position, CosignatureStore* store);

// The receipt of `entry` proven by `proof` against `checkpoint`, with the
// cosignatures kept for it in `store` (may be null). INVALID_ARGUMENT for
// a checkpoint with no note.
absl::StatusOr<std::string> MakeReceipt(const v1::LedgerEntry& entry,
                                        const v1::Checkpoint& checkpoint,
                                        const std::vector<Hash>& proof, CosignatureStore* store);

// The receipt of the entry at `position` of `log`, against
// ReceiptCheckpoint's choice, its proof from the stored leaf hashes (the
// entry's own hash checked among them). NOT_FOUND for no such position;
// ReceiptCheckpoint's errors; DATA_LOSS when the stored leaves do not make
// the checkpoint's root or hold another hash for the entry.
absl::StatusOr<std::string> ExportReceipt(LogSource& log, CosignatureStore* store,
                                          uint64_t position);

struct VerifiedReceipt {
  CheckpointBody checkpoint;
  uint64_t position = 0;  // 1-based, as the ledger numbers events
  std::string entry;
  std::vector<std::string> witnesses;  // the trusted ones whose cosignature is valid
};

// Checks a receipt with nothing but keys: the checkpoint signed by `log`
// (its origin the key's name), `policy`'s quorum of cosignatures (none
// asked when null), and the entry's leaf hash proven at its index under
// the signed root. INVALID_ARGUMENT for a text that is not a receipt;
// DATA_LOSS with the reason for one that does not verify.
absl::StatusOr<VerifiedReceipt> VerifyReceipt(absl::string_view text, const NoteVerifierKey& log,
                                              const WitnessPolicy* policy);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_RECEIPT_H_
