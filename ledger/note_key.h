// The keys of C2SP signed notes (signed-note.md): a key's name, its 4-byte
// key id, and the verifier key string that publishes it,
// "<name>+<hex key id>+<base64(0x01 || Ed25519 public key)>", the form
// Go's golang.org/x/mod/sumdb/note and every C2SP tool read.
#ifndef ARBITER_LEDGER_NOTE_KEY_H_
#define ARBITER_LEDGER_NOTE_KEY_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace arbiter::ledger {

// The signature types of signed-note: the first byte hashed into a key id.
inline constexpr uint8_t kNoteEd25519 = 0x01;

// A name a signed-note key may have: non-empty UTF-8 with no Unicode space
// and no '+' (the separator of the verifier key string).
bool IsValidNoteName(absl::string_view name);

// The key id: the first 4 bytes (big-endian) of SHA-256(name || 0x0A ||
// type || public key). It makes a signature line name its key.
uint32_t NoteKeyId(absl::string_view name, uint8_t type, absl::string_view public_key);

// A published Ed25519 verifier key.
struct NoteVerifierKey {
  std::string name;
  uint32_t key_id = 0;
  std::string public_key;  // 32 raw bytes

  // The same key as DER SubjectPublicKeyInfo (what ledger.pub holds).
  std::string Der() const;
};

// "name+hex8+base64(0x01||key)". INVALID_ARGUMENT for an invalid name or a
// public key that is not 32 bytes.
absl::StatusOr<std::string> FormatVerifierKey(absl::string_view name, absl::string_view public_key);

// Parses a verifier key string. INVALID_ARGUMENT (with the reason) for a
// malformed string, an invalid name, a key type other than Ed25519, or a key
// id that is not the one the name and key make.
absl::StatusOr<NoteVerifierKey> ParseVerifierKey(absl::string_view vkey);

// The 32 raw bytes of an Ed25519 public key given as DER SubjectPublicKeyInfo;
// INVALID_ARGUMENT for any other key.
absl::StatusOr<std::string> RawEd25519PublicKey(absl::string_view der);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_NOTE_KEY_H_
