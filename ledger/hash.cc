#include "ledger/hash.h"

#include <openssl/evp.h>

#include <cstdlib>
#include <cstring>

namespace arbiter::ledger {
namespace {

// SHA-256, fetched from the default provider once: EVP_sha256() would
// fetch it again on every digest, which cost more than hashing a short
// event.
const EVP_MD* Sha256Algorithm() {
  static const EVP_MD* md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  return md;
}

// One digest context per thread, reused: the writer hashes every leaf and
// every node of the Merkle edge.
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

// Digests the concatenation of `parts`. EVP failures are allocation or
// library corruption, not input errors, so they abort.
Hash Digest(std::initializer_list<absl::string_view> parts) {
  thread_local DigestContext context;
  EVP_MD_CTX* ctx = context.get();
  Hash out;
  const EVP_MD* md = Sha256Algorithm();
  bool ok = ctx != nullptr && md != nullptr && EVP_DigestInit_ex(ctx, md, nullptr) == 1;
  for (absl::string_view p : parts) ok = ok && EVP_DigestUpdate(ctx, p.data(), p.size()) == 1;
  unsigned int len = 0;
  ok = ok && EVP_DigestFinal_ex(ctx, out.data(), &len) == 1 && len == out.size();
  if (!ok) std::abort();
  return out;
}

}  // namespace

Hash Sha256(absl::string_view data) { return Digest({data}); }

Hash LeafHash(absl::string_view data) {
  static constexpr char kLeaf = 0x00;
  return Digest({absl::string_view(&kLeaf, 1), data});
}

Hash NodeHash(const Hash& left, const Hash& right) {
  static constexpr char kNode = 0x01;
  return Digest({absl::string_view(&kNode, 1), AsBytes(left), AsBytes(right)});
}

Hash EmptyRoot() { return Sha256(""); }

absl::string_view AsBytes(const Hash& h) {
  return absl::string_view(reinterpret_cast<const char*>(h.data()), h.size());
}

bool HashFromBytes(absl::string_view bytes, Hash* out) {
  if (bytes.size() != out->size()) return false;
  std::memcpy(out->data(), bytes.data(), out->size());
  return true;
}

std::string ToHex(absl::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    hex.push_back(kDigits[c >> 4]);
    hex.push_back(kDigits[c & 15]);
  }
  return hex;
}

}  // namespace arbiter::ledger
