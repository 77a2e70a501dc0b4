// C2SP signed notes (signed-note.md; Go's golang.org/x/mod/sumdb/note):
// a UTF-8 text ending in a newline, a blank line, then one line per
// signature, "— <key name> <base64(key id (4 bytes, big-endian) || signature)>".
// The signatures sign the text exactly, its final newline included.
#ifndef ARBITER_LEDGER_SIGNED_NOTE_H_
#define ARBITER_LEDGER_SIGNED_NOTE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ledger/note_key.h"
#include "ledger/signer.h"

namespace arbiter::ledger {

// One signature line. `signature` is what follows the key id: 64 bytes for
// Ed25519; other types (a tlog-cosignature's timestamp and signature) are
// kept as they come, for their own verifier.
struct NoteSignature {
  std::string name;
  uint32_t key_id = 0;
  std::string signature;
};

struct SignedNote {
  std::string text;  // ends in "\n"
  std::vector<NoteSignature> signatures;
};

// The note's bytes: text, "\n", and the signature lines.
// INVALID_ARGUMENT if the text is not a note's (see ParseSignedNote) or a
// signature's name is invalid.
absl::StatusOr<std::string> FormatSignedNote(const SignedNote& note);

// Splits a note into its text and signature lines, checking nothing of the
// signatures but their form. INVALID_ARGUMENT, with the reason, for a note
// that is not valid UTF-8, holds a control character other than newline,
// has no blank line before its signatures, no signature, more than 100, or
// a malformed signature line.
absl::StatusOr<SignedNote> ParseSignedNote(absl::string_view note);

// The Ed25519 signature line of `signer` (named `name`) over `text`.
// INVALID_ARGUMENT for a text that is not a note's text (not ending in a
// newline, a control character, invalid UTF-8) or an invalid name; the
// signer's error.
absl::StatusOr<NoteSignature> SignNoteText(absl::string_view text, const Signer& signer,
                                           absl::string_view name);

// Parses `note` and checks that it carries a valid signature by `key`
// (matched by name and key id; the other signatures are left for their
// verifiers). INVALID_ARGUMENT for a malformed note; NOT_FOUND when no
// signature line names the key; DATA_LOSS when one does and does not verify.
absl::StatusOr<SignedNote> OpenSignedNote(absl::string_view note, const NoteVerifierKey& key);

// OpenSignedNote's check on a note already parsed, with `decoded`, the
// key's public key decoded once by a caller that checks many notes (an
// audit: decoding a key costs about what verifying a signature does).
// `decoded` must be `key`'s. NOT_FOUND and DATA_LOSS as OpenSignedNote.
absl::Status VerifyNoteSignature(const SignedNote& note, const NoteVerifierKey& key,
                                 const PublicKey& decoded);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SIGNED_NOTE_H_
