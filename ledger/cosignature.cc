#include "ledger/cosignature.h"

#include <algorithm>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "ledger/note_key.h"

namespace arbiter::ledger {
namespace {

std::string BigEndian64(uint64_t v) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i, v >>= 8) out[i] = static_cast<char>(v & 0xff);
  return out;
}

uint64_t FromBigEndian64(absl::string_view b) {
  uint64_t v = 0;
  for (unsigned char c : b) v = (v << 8) | c;
  return v;
}

// The 32 raw bytes of the signer's key (its DER is an Ed25519 SPKI).
std::string RawKey(const Signer& key) {
  absl::StatusOr<std::string> raw = RawEd25519PublicKey(key.public_key_der());
  return raw.ok() ? *raw : "";
}

}  // namespace

std::string CosignedMessage(absl::string_view text, uint64_t timestamp) {
  return absl::StrCat("cosignature/v1\ntime ", timestamp, "\n", text);
}

Cosigner::Cosigner(std::string name, Signer key)
    : name_(std::move(name)),
      key_(std::move(key)),
      key_id_(NoteKeyId(name_, kCosignatureEd25519, RawKey(key_))) {}

std::string Cosigner::VerifierKey() const {
  const char type = static_cast<char>(kCosignatureEd25519);
  return absl::StrCat(name_, "+", absl::StrFormat("%08x", key_id_), "+",
                      absl::Base64Escape(absl::StrCat(absl::string_view(&type, 1), RawKey(key_))));
}

absl::StatusOr<NoteSignature> Cosigner::Cosign(absl::string_view text, absl::Time now) const {
  const uint64_t t = static_cast<uint64_t>(std::max<int64_t>(1, absl::ToUnixSeconds(now)));
  absl::StatusOr<std::string> sig = key_.Sign(CosignedMessage(text, t));
  if (!sig.ok()) return sig.status();
  return NoteSignature{name_, key_id_, absl::StrCat(BigEndian64(t), *sig)};
}

absl::StatusOr<std::string> Cosigner::CosignatureLine(absl::string_view text,
                                                      absl::Time now) const {
  absl::StatusOr<NoteSignature> sig = Cosign(text, now);
  if (!sig.ok()) return sig.status();
  return SignatureLine(text, *sig);
}

absl::StatusOr<std::string> SignatureLine(absl::string_view text, const NoteSignature& signature) {
  // The line as a signed note writes it, after the text and its blank line.
  absl::StatusOr<std::string> note = FormatSignedNote(SignedNote{std::string(text), {signature}});
  if (!note.ok()) return note.status();
  return note->substr(text.size() + 1);
}

absl::StatusOr<CosignatureVerifier> CosignatureVerifier::FromVerifierKey(absl::string_view vkey) {
  std::vector<absl::string_view> parts = absl::StrSplit(vkey, absl::MaxSplits('+', 2));
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("witness key '", vkey, "': ", why));
  };
  if (parts.size() != 3 || !IsValidNoteName(parts[0])) return bad("not NAME+KEYID+KEY");
  std::string key;
  if (!absl::Base64Unescape(parts[2], &key) || key.size() != 33) {
    return bad("the key is not base64 of a type byte and 32 bytes");
  }
  if (static_cast<uint8_t>(key[0]) != kCosignatureEd25519) {
    return bad("not an Ed25519 cosignature key (type 0x04)");
  }
  NoteVerifierKey raw{std::string(parts[0]), 0, key.substr(1)};
  raw.key_id = NoteKeyId(raw.name, kCosignatureEd25519, raw.public_key);
  if (parts[1] != absl::StrFormat("%08x", raw.key_id)) {
    return bad("its key id does not match its name and key");
  }
  absl::StatusOr<PublicKey> pk = PublicKey::FromDer(raw.Der());
  if (!pk.ok()) return bad(pk.status().message());
  return CosignatureVerifier(raw.name, raw.key_id, *std::move(pk), std::string(vkey));
}

bool CosignatureVerifier::Names(const NoteSignature& signature) const {
  return signature.name == name_ && signature.key_id == key_id_;
}

absl::StatusOr<absl::Time> CosignatureVerifier::Verify(absl::string_view text,
                                                       const NoteSignature& signature) const {
  if (!Names(signature)) {
    return absl::DataLossError(absl::StrCat("not a cosignature of witness ", name_));
  }
  const absl::string_view sig = signature.signature;
  if (sig.size() != 8 + 64) {
    return absl::DataLossError(
        absl::StrCat("witness ", name_, ": a cosignature is 72 bytes, not ", sig.size()));
  }
  const uint64_t t = FromBigEndian64(sig.substr(0, 8));
  if (t == 0 || t > (uint64_t{1} << 63) - 1) {
    return absl::DataLossError(absl::StrCat("witness ", name_, ": cosignature time ", t));
  }
  if (absl::Status s = key_.Verify(CosignedMessage(text, t), sig.substr(8)); !s.ok()) {
    return absl::DataLossError(
        absl::StrCat("witness ", name_, "'s cosignature does not verify: ", s.message()));
  }
  return absl::FromUnixSeconds(static_cast<int64_t>(t));
}

}  // namespace arbiter::ledger
