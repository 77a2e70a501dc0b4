// The ledger's Merkle hashes: RFC 6962 leaf and node hashes over the one
// SHA-256 of proto/canonical/sha256.h.
#ifndef ARBITER_LEDGER_HASH_H_
#define ARBITER_LEDGER_HASH_H_

#include "absl/strings/string_view.h"
#include "proto/canonical/sha256.h"

namespace arbiter::ledger {

// A node of the Merkle tree (and any other SHA-256 the ledger keeps).
using Hash = Sha256Digest;

// RFC 6962 §2.1: a leaf is hashed as SHA-256(0x00 || data), an interior node
// as SHA-256(0x01 || left || right), so a leaf can never pass for a node.
Hash LeafHash(absl::string_view data);
Hash NodeHash(const Hash& left, const Hash& right);

// The hash of the empty tree: SHA-256 of the empty string.
Hash EmptyRoot();

// Exactly 32 bytes, or false.
bool HashFromBytes(absl::string_view bytes, Hash* out);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_HASH_H_
