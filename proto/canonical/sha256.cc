#include "proto/canonical/sha256.h"

// SHA256_Init and its kin are deprecated in OpenSSL 3 in favour of EVP,
// but kept; see Sha256Of.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

#include <cstdlib>

#include "absl/strings/escaping.h"

namespace arbiter {

// SHA-256 by OpenSSL's one-algorithm interface rather than EVP: the ledger
// hashes every event's leaf and a node for each (the writer, the audit, the
// tiles), mostly under 100 bytes, and there EVP's provider dispatch per
// digest cost as much as the hashing (a leaf: 167-182 ns through a reused
// EVP context, 82-85 ns here, on this machine). Same digests, same
// SHA-NI/AVX code underneath.
Sha256Digest Sha256Of(std::initializer_list<absl::string_view> parts) {
  SHA256_CTX ctx;
  Sha256Digest out;
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
