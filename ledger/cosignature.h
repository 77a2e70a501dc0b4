// tlog-cosignature/v1 with Ed25519 (C2SP tlog-cosignature): a witness's
// timestamped statement that a checkpoint is the largest consistent tree it
// has seen of the log its origin names. The signature line is a signed
// note's ("— NAME base64(key id || timestamp || signature)"); the signed
// message is "cosignature/v1\ntime T\n" followed by the checkpoint's body.
// Key ids are the first 4 bytes of SHA-256(NAME || "\n" || 0x04 || key),
// so a log's own key (type 0x01) never passes for a witness's.
#ifndef ARBITER_LEDGER_COSIGNATURE_H_
#define ARBITER_LEDGER_COSIGNATURE_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "ledger/signed_note.h"
#include "ledger/signer.h"

namespace arbiter::ledger {

// The signature type byte of an Ed25519 cosignature (tlog-cosignature).
inline constexpr uint8_t kCosignatureEd25519 = 0x04;

// A witness's key: signs cosignatures under its name.
class Cosigner {
 public:
  // `name`: a schema-less URL naming the witness (no spaces, no '+').
  Cosigner(std::string name, Signer key);

  const std::string& name() const { return name_; }
  uint32_t key_id() const { return key_id_; }
  // The verifier key, `NAME+HEXID+base64(0x04 || public key)` (signed-note
  // vkey format), that clients configure to trust this witness.
  std::string VerifierKey() const;

  // The cosignature of the checkpoint note text `text` (ending in "\n",
  // no signature lines) at `now` (whole seconds, never zero), and the same
  // as its signature line, "— NAME base64(...)\n". INVALID_ARGUMENT for a
  // text that is not a note's; the signer's error.
  absl::StatusOr<NoteSignature> Cosign(absl::string_view text, absl::Time now) const;
  absl::StatusOr<std::string> CosignatureLine(absl::string_view text, absl::Time now) const;

 private:
  std::string name_;
  Signer key_;
  uint32_t key_id_;
};

// A trusted witness's verifier key, parsed once.
class CosignatureVerifier {
 public:
  // INVALID_ARGUMENT unless `vkey` is NAME+HEXID+base64(0x04 || 32 bytes)
  // with the id that name and key give.
  static absl::StatusOr<CosignatureVerifier> FromVerifierKey(absl::string_view vkey);

  const std::string& name() const { return name_; }
  uint32_t key_id() const { return key_id_; }
  const std::string& vkey() const { return vkey_; }

  // Whether `signature` names this witness (its name and key id); says
  // nothing of the signature itself.
  bool Names(const NoteSignature& signature) const;
  // The cosignature's time iff `signature` is this witness's valid
  // cosignature of the note text `text`; DATA_LOSS with the reason
  // otherwise (another key's, not 72 bytes, a zero time, a signature that
  // fails).
  absl::StatusOr<absl::Time> Verify(absl::string_view text, const NoteSignature& signature) const;

 private:
  CosignatureVerifier(std::string name, uint32_t key_id, PublicKey key, std::string vkey)
      : name_(std::move(name)), key_id_(key_id), key_(std::move(key)), vkey_(std::move(vkey)) {}
  std::string name_;
  uint32_t key_id_;
  PublicKey key_;
  std::string vkey_;
};

// `signature` as the line a signed note carries it ("— NAME base64\n");
// FormatSignedNote's errors (`text` is the note's text it signs).
absl::StatusOr<std::string> SignatureLine(absl::string_view text, const NoteSignature& signature);

// The message a v1 cosignature at `timestamp` signs over the note text.
std::string CosignedMessage(absl::string_view text, uint64_t timestamp);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_COSIGNATURE_H_
