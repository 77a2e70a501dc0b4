// SHA-256 through OpenSSL EVP: the one digest of the project. It names
// published rules (the content hash), the ledger's Merkle leaves and nodes,
// the signing key's id and the stored token secrets.
//
// Why here, in proto/: what is hashed and signed (canonical_bytes.h) is part
// of the contract that proto/ defines, and this is the lowest layer that both
// rulesdb/ (content hashes) and ledger/ (Merkle tree, checkpoints) stand on.
// It includes nothing of the project.
#ifndef ARBITER_PROTO_CANONICAL_SHA256_H_
#define ARBITER_PROTO_CANONICAL_SHA256_H_

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "absl/strings/string_view.h"

namespace arbiter {

using Sha256Digest = std::array<uint8_t, 32>;

// SHA-256 of `data`. An EVP failure is allocation failure or a broken
// library, not bad input, so it aborts rather than returning an error.
Sha256Digest Sha256(absl::string_view data);

// SHA-256 of the concatenation of `parts`, without building it (the RFC 6962
// leaf and node hashes of ledger/hash.h are made this way).
Sha256Digest Sha256Of(std::initializer_list<absl::string_view> parts);

// Lower-case hex SHA-256 of `data`: the form a content hash is shown in.
std::string Sha256Hex(absl::string_view data);

// The digest's 32 bytes, as a view (valid while `digest` is).
absl::string_view AsBytes(const Sha256Digest& digest);

// Lower-case hex of any bytes.
std::string ToHex(absl::string_view bytes);
inline std::string ToHex(const Sha256Digest& digest) { return ToHex(AsBytes(digest)); }

}  // namespace arbiter

#endif  // ARBITER_PROTO_CANONICAL_SHA256_H_
