#include "proto/canonical/sha256.h"

// SHA-256's own functions rather than EVP's: deprecated since OpenSSL 3.0
// (still in its libcrypto, with the same SHA extensions code), but EVP's
// provider dispatch on each digest, kept context and fetched algorithm
// notwithstanding, cost more than the compression of a short input: 186
// against 83 ns for an 18-byte leaf, 201 against 127 for a Merkle node
// (tests/bench/README.md, the verify paragraph).
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <cstdlib>

#include "absl/strings/escaping.h"

namespace arbiter {

Sha256Digest Sha256Of(std::initializer_list<absl::string_view> parts) {
  SHA256_CTX ctx;
  Sha256Digest out;
  // Each call fails only on a null argument.
  bool ok = SHA256_Init(&ctx) == 1;
  for (absl::string_view p : parts) ok = ok && SHA256_Update(&ctx, p.data(), p.size()) == 1;
  ok = ok && SHA256_Final(out.data(), &ctx) == 1;
  if (!ok) std::abort();
  return out;
}

Sha256Digest Sha256(absl::string_view data) { return Sha256Of({data}); }

std::string Sha256Hex(absl::string_view data) { return ToHex(Sha256(data)); }

absl::string_view AsBytes(const Sha256Digest& digest) {
  return absl::string_view(reinterpret_cast<const char*>(digest.data()), digest.size());
}

std::string ToHex(absl::string_view bytes) { return absl::BytesToHexString(bytes); }

}  // namespace arbiter
