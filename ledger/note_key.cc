#include "ledger/note_key.h"

#include <cstring>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "ledger/internal/note_utf8.h"
#include "proto/canonical/sha256.h"

namespace arbiter::ledger {
namespace {

// The DER SubjectPublicKeyInfo of an Ed25519 key is this fixed prefix
// (SEQUENCE { SEQUENCE { OID 1.3.101.112 } BIT STRING }) and the 32 bytes.
constexpr char kEd25519SpkiPrefix[] = "\x30\x2a\x30\x05\x06\x03\x2b\x65\x70\x03\x21\x00";
constexpr size_t kEd25519SpkiPrefixSize = sizeof(kEd25519SpkiPrefix) - 1;

// Go's unicode.IsSpace, which note.isValidName uses.
bool IsUnicodeSpace(int32_t r) {
  switch (r) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return r >= 0x2000 && r <= 0x200A;
  }
}

}  // namespace

bool IsValidNoteName(absl::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size();) {
    int32_t r = NextRune(name, &i);
    if (r < 0 || r == '+' || IsUnicodeSpace(r)) return false;
  }
  return true;
}

uint32_t NoteKeyId(absl::string_view name, uint8_t type, absl::string_view public_key) {
  const Sha256Digest h =
      Sha256(absl::StrCat(name, "\n", std::string(1, static_cast<char>(type)), public_key));
  return (uint32_t{h[0]} << 24) | (uint32_t{h[1]} << 16) | (uint32_t{h[2]} << 8) | h[3];
}

std::string NoteVerifierKey::Der() const {
  return absl::StrCat(absl::string_view(kEd25519SpkiPrefix, kEd25519SpkiPrefixSize), public_key);
}

absl::StatusOr<std::string> FormatVerifierKey(absl::string_view name,
                                              absl::string_view public_key) {
  if (!IsValidNoteName(name)) {
    return absl::InvalidArgumentError(absl::StrCat("invalid signed-note key name '", name, "'"));
  }
  if (public_key.size() != 32) {
    return absl::InvalidArgumentError("an Ed25519 public key is 32 bytes");
  }
  return absl::StrCat(name, "+", absl::StrFormat("%08x", NoteKeyId(name, kNoteEd25519, public_key)),
                      "+",
                      absl::Base64Escape(absl::StrCat(
                          std::string(1, static_cast<char>(kNoteEd25519)), public_key)));
}

absl::StatusOr<NoteVerifierKey> ParseVerifierKey(absl::string_view vkey) {
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("not a verifier key (", why, "): ", vkey));
  };
  // name+id+key, split at the first two '+' (base64 may hold more), as Go's
  // note.NewVerifier splits it.
  std::vector<absl::string_view> parts = absl::StrSplit(vkey, absl::MaxSplits('+', 2));
  if (parts.size() != 3) return bad("want name+keyid+key");
  NoteVerifierKey key;
  key.name = std::string(parts[0]);
  if (!IsValidNoteName(key.name)) return bad("invalid name");
  if (parts[1].size() != 8 || !absl::SimpleHexAtoi(parts[1], &key.key_id) ||
      parts[1] != absl::StrFormat("%08x", key.key_id)) {
    return bad("the key id is not 8 lower-case hex digits");
  }
  std::string raw;
  if (!absl::Base64Unescape(parts[2], &raw) || absl::Base64Escape(raw) != parts[2]) {
    return bad("the key is not base64");
  }
  if (raw.size() != 33 || static_cast<uint8_t>(raw[0]) != kNoteEd25519) {
    return bad("not an Ed25519 key");
  }
  key.public_key = raw.substr(1);
  if (NoteKeyId(key.name, kNoteEd25519, key.public_key) != key.key_id) {
    return bad("the key id does not match the name and key");
  }
  return key;
}

absl::StatusOr<std::string> RawEd25519PublicKey(absl::string_view der) {
  if (der.size() != kEd25519SpkiPrefixSize + 32 ||
      der.substr(0, kEd25519SpkiPrefixSize) !=
          absl::string_view(kEd25519SpkiPrefix, kEd25519SpkiPrefixSize)) {
    return absl::InvalidArgumentError("not an Ed25519 public key");
  }
  return std::string(der.substr(kEd25519SpkiPrefixSize));
}

}  // namespace arbiter::ledger
