// The ledger's Ed25519 signing key (OpenSSL EVP). It is made on first start
// in the data directory and never leaves it; its public half is what an
// auditor needs, as DER (SubjectPublicKeyInfo) or PEM.
#ifndef ARBITER_LEDGER_SIGNER_H_
#define ARBITER_LEDGER_SIGNER_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace arbiter::ledger {

class Signer {
 public:
  // Loads `path` (PEM, PKCS#8), or creates it with mode 0600 if absent. Two
  // processes racing to create it end up with the same key. `origin` is the
  // name of the key in signed notes (log_origin.h); empty: it signs none.
  static absl::StatusOr<Signer> LoadOrCreate(const std::string& path, std::string origin = "");
  // The key of a 32-byte Ed25519 seed (RFC 8032's private key), as Go's
  // note.NewSigner reads it: for known test vectors. INVALID_ARGUMENT for
  // a seed that is not 32 bytes.
  static absl::StatusOr<Signer> FromEd25519Seed(absl::string_view seed, std::string origin = "");

  Signer(Signer&&) noexcept;
  Signer& operator=(Signer&&) noexcept;
  ~Signer();

  // A 64-byte Ed25519 signature over `message`.
  absl::StatusOr<std::string> Sign(absl::string_view message) const;
  const std::string& public_key_der() const { return public_der_; }
  std::string PublicKeyPem() const;
  // The log's origin, the key's name in signed notes; empty if none.
  const std::string& origin() const { return origin_; }
  // The C2SP verifier key of this key under its origin (note_key.h),
  // "origin+keyid+base64"; empty without an origin.
  std::string VerifierKey() const;

 private:
  struct Key;
  Signer(std::unique_ptr<Key> key, std::string public_der, std::string origin);
  std::unique_ptr<Key> key_;
  std::string public_der_;
  std::string origin_;
};

// The ledger's key in `dir`: ledger.key, made if absent (as LoadOrCreate),
// its public half written beside it as ledger.pub if that is absent, and
// its verifier key, under the origin `requested_origin` (else
// `default_origin`, else DefaultLogOrigin(dir)), in ledger.vkey. A ledger
// settles its origin first (SettleLogOrigin, log_origin.h). UNAVAILABLE
// when a file cannot be read or written; INVALID_ARGUMENT when the origin
// is not a key name.
absl::StatusOr<Signer> LoadSigningKey(const std::string& dir,
                                      absl::string_view requested_origin = "",
                                      absl::string_view default_origin = "");

// An Ed25519 public key, decoded once to check many signatures (an audit
// checks every checkpoint's).
class PublicKey {
 public:
  // INVALID_ARGUMENT when `der` (SubjectPublicKeyInfo) is not an Ed25519 key.
  static absl::StatusOr<PublicKey> FromDer(absl::string_view der);

  PublicKey(PublicKey&&) noexcept;
  PublicKey& operator=(PublicKey&&) noexcept;
  ~PublicKey();

  // OK iff `signature` is this key's signature of `message`; DATA_LOSS
  // otherwise.
  absl::Status Verify(absl::string_view message, absl::string_view signature) const;
  const std::string& der() const { return der_; }

 private:
  struct Key;
  PublicKey(std::unique_ptr<Key> key, std::string der);
  std::unique_ptr<Key> key_;
  std::string der_;
};

// OK iff `signature` is `public_key_der`'s Ed25519 signature of `message`:
// INVALID_ARGUMENT for a key that is not Ed25519, DATA_LOSS for a bad
// signature.
absl::Status VerifySignature(absl::string_view public_key_der, absl::string_view message,
                             absl::string_view signature);

// Reads a public key file, PEM or DER, and returns its DER form.
absl::StatusOr<std::string> ReadPublicKeyFile(const std::string& path);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SIGNER_H_
