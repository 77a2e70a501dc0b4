#include "proto/canonical/sha256.h"

#include <openssl/evp.h>

#include <cstdlib>

#include "absl/strings/escaping.h"

namespace arbiter {
namespace {

// SHA-256, fetched from the default provider once: EVP_sha256() would fetch
// it again on every digest, which cost more than hashing a short event.
const EVP_MD* Sha256Algorithm() {
  static const EVP_MD* md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}

// One digest context per thread, reused: the ledger's writer hashes every
// leaf and every node of the Merkle edge (a measured win, ledger/README.md).
class DigestContext {
 public:
  DigestContext() : ctx_(EVP_MD_CTX_new()) {}
  ~DigestContext() { EVP_MD_CTX_free(ctx_); }
  DigestContext(const DigestContext&) = delete;
  DigestContext& operator=(const DigestContext&) = delete;
  EVP_MD_CTX* get() { return ctx_; }

 private:
  EVP_MD_CTX* ctx_;
};

}  // namespace

Sha256Digest Sha256Of(std::initializer_list<absl::string_view> parts) {
  thread_local DigestContext context;
  EVP_MD_CTX* ctx = context.get();
  Sha256Digest out;
  const EVP_MD* md = Sha256Algorithm();
  // EVP_DigestInit_ex2 on the kept context: EVP_DigestInit_ex also looks
  // for an engine on every call (about 10 % of a Merkle node's hash).
  bool ok = ctx != nullptr && md != nullptr && EVP_DigestInit_ex2(ctx, md, nullptr) == 1;
  for (absl::string_view p : parts) ok = ok && EVP_DigestUpdate(ctx, p.data(), p.size()) == 1;
  unsigned int len = 0;
  ok = ok && EVP_DigestFinal_ex(ctx, out.data(), &len) == 1 && len == out.size();
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
