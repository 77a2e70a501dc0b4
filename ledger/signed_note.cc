#include "ledger/signed_note.h"

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "ledger/internal/note_utf8.h"

namespace arbiter::ledger {
namespace {

constexpr absl::string_view kSigPrefix = "\xE2\x80\x94 ";  // "— " (U+2014, space)
constexpr int kMaxSignatures = 100;                        // as Go's note.Open

// Valid UTF-8 with no control character but newline.
bool IsNoteText(absl::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const int32_t r = NextRune(s, &i);
    if (r < 0 || (r < 0x20 && r != '\n')) return false;
  }
  return true;
}

absl::Status CheckText(absl::string_view text) {
  if (text.empty() || text.back() != '\n') {
    return absl::InvalidArgumentError("a note's text must end in a newline");
  }
  if (!IsNoteText(text)) {
    return absl::InvalidArgumentError("a note's text must be UTF-8 with no control characters");
  }
  return absl::OkStatus();
}

std::string KeyIdBytes(uint32_t id) {
  return std::string{static_cast<char>(id >> 24), static_cast<char>(id >> 16),
                     static_cast<char>(id >> 8), static_cast<char>(id)};
}

absl::StatusOr<NoteSignature> ParseSignatureLine(absl::string_view line) {
  auto bad = [&] {
    return absl::InvalidArgumentError(absl::StrCat("malformed note signature line: ", line));
  };
  if (!absl::StartsWith(line, kSigPrefix)) return bad();
  absl::string_view rest = line.substr(kSigPrefix.size());
  const size_t space = rest.find(' ');
  if (space == absl::string_view::npos) return bad();
  NoteSignature sig;
  sig.name = std::string(rest.substr(0, space));
  const absl::string_view b64 = rest.substr(space + 1);
  std::string raw;
  if (!IsValidNoteName(sig.name) || b64.empty() || !absl::Base64Unescape(b64, &raw) ||
      absl::Base64Escape(raw) != b64 || raw.size() < 5) {
    return bad();
  }
  sig.key_id = (uint32_t{static_cast<uint8_t>(raw[0])} << 24) |
               (uint32_t{static_cast<uint8_t>(raw[1])} << 16) |
               (uint32_t{static_cast<uint8_t>(raw[2])} << 8) | static_cast<uint8_t>(raw[3]);
  sig.signature = raw.substr(4);
  return sig;
}

}  // namespace

absl::StatusOr<std::string> FormatSignedNote(const SignedNote& note) {
  if (absl::Status s = CheckText(note.text); !s.ok()) return s;
  if (note.signatures.empty()) return absl::InvalidArgumentError("a note needs a signature");
  std::string out = absl::StrCat(note.text, "\n");
  for (const NoteSignature& sig : note.signatures) {
    if (!IsValidNoteName(sig.name)) {
      return absl::InvalidArgumentError(absl::StrCat("invalid note key name '", sig.name, "'"));
    }
    absl::StrAppend(&out, kSigPrefix, sig.name, " ",
                    absl::Base64Escape(absl::StrCat(KeyIdBytes(sig.key_id), sig.signature)), "\n");
  }
  return out;
}

absl::StatusOr<SignedNote> ParseSignedNote(absl::string_view note) {
  if (!IsNoteText(note)) {
    return absl::InvalidArgumentError("malformed note: not UTF-8 or a control character");
  }
  const size_t split = note.rfind("\n\n");
  if (split == absl::string_view::npos) {
    return absl::InvalidArgumentError("malformed note: no blank line before its signatures");
  }
  SignedNote out;
  out.text = std::string(note.substr(0, split + 1));
  absl::string_view sigs = note.substr(split + 2);
  if (sigs.empty() || sigs.back() != '\n') {
    return absl::InvalidArgumentError("malformed note: no signature, or no final newline");
  }
  while (!sigs.empty()) {
    const size_t nl = sigs.find('\n');
    absl::StatusOr<NoteSignature> sig = ParseSignatureLine(sigs.substr(0, nl));
    if (!sig.ok()) return sig.status();
    if (out.signatures.size() == kMaxSignatures) {
      return absl::InvalidArgumentError("malformed note: more than 100 signatures");
    }
    out.signatures.push_back(*std::move(sig));
    sigs.remove_prefix(nl + 1);
  }
  return out;
}

absl::StatusOr<NoteSignature> SignNoteText(absl::string_view text, const Signer& signer,
                                           absl::string_view name) {
  if (absl::Status s = CheckText(text); !s.ok()) return s;
  if (!IsValidNoteName(name)) {
    return absl::InvalidArgumentError(absl::StrCat("invalid note key name '", name, "'"));
  }
  absl::StatusOr<std::string> raw = RawEd25519PublicKey(signer.public_key_der());
  if (!raw.ok()) return raw.status();
  absl::StatusOr<std::string> sig = signer.Sign(text);
  if (!sig.ok()) return sig.status();
  return NoteSignature{std::string(name), NoteKeyId(name, kNoteEd25519, *raw), *std::move(sig)};
}

namespace {

// The note's signature line by `key`, or NOT_FOUND.
absl::StatusOr<const NoteSignature*> SignatureBy(const SignedNote& note,
                                                 const NoteVerifierKey& key) {
  for (const NoteSignature& sig : note.signatures) {
    if (sig.name == key.name && sig.key_id == key.key_id) return &sig;
  }
  return absl::NotFoundError(
      absl::StrFormat("the note has no signature by %s+%08x", key.name, key.key_id));
}

absl::Status NotValid(const NoteVerifierKey& key) {
  return absl::DataLossError(
      absl::StrFormat("the note's signature by %s+%08x is not valid", key.name, key.key_id));
}

}  // namespace

absl::StatusOr<SignedNote> OpenSignedNote(absl::string_view note, const NoteVerifierKey& key) {
  absl::StatusOr<SignedNote> parsed = ParseSignedNote(note);
  if (!parsed.ok()) return parsed.status();
  absl::StatusOr<const NoteSignature*> sig = SignatureBy(*parsed, key);
  if (!sig.ok()) return sig.status();
  if (!VerifySignature(key.Der(), parsed->text, (*sig)->signature).ok()) return NotValid(key);
  return parsed;
}

absl::Status VerifyNoteSignature(const SignedNote& note, const NoteVerifierKey& key,
                                 const PublicKey& decoded) {
  absl::StatusOr<const NoteSignature*> sig = SignatureBy(note, key);
  if (!sig.ok()) return sig.status();
  if (!decoded.Verify(note.text, (*sig)->signature).ok()) return NotValid(key);
  return absl::OkStatus();
}

}  // namespace arbiter::ledger
