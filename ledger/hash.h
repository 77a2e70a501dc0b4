// SHA-256 through OpenSSL EVP, and the RFC 6962 leaf and node hashes.
#ifndef ARBITER_LEDGER_HASH_H_
#define ARBITER_LEDGER_HASH_H_

#include <array>
#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"

namespace arbiter::ledger {

using Hash = std::array<uint8_t, 32>;

Hash Sha256(absl::string_view data);

// RFC 6962 §2.1: a leaf is hashed as SHA-256(0x00 || data), an interior node
// as SHA-256(0x01 || left || right), so a leaf can never pass for a node.
Hash LeafHash(absl::string_view data);
Hash NodeHash(const Hash& left, const Hash& right);

// The hash of the empty tree: SHA-256 of the empty string.
Hash EmptyRoot();

absl::string_view AsBytes(const Hash& h);
// Exactly 32 bytes, or false.
bool HashFromBytes(absl::string_view bytes, Hash* out);
std::string ToHex(absl::string_view bytes);
inline std::string ToHex(const Hash& h) { return ToHex(AsBytes(h)); }

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_HASH_H_
