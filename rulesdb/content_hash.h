// ContentHash: the canonical content hash of a rules message.
//
// The hash is hex SHA-256 over the message's deterministic binary
// serialization. For our schemas that serialization is canonical: they have
// no map fields (whose order protobuf does not fix) and parsed data carries no
// unknown fields (which we clear anyway), so protobuf writes every field in
// field-number order with fixed encodings, and the same content gives the same
// bytes on any machine and any build. Any change to any field, including
// text and notes, changes the bytes and hence the hash.
//
// Anyone can check a built-in hash without this code, e.g.
//   cat rulesdb/data/cn-2002/*.textproto |
//     protoc --encode=arbiter.v1.Ruleset -I proto proto/arbiter/v1/rules.proto | sha256sum
// (the files concatenated in path order, as the loader merges them).
#ifndef ARBITER_RULESDB_CONTENT_HASH_H_
#define ARBITER_RULESDB_CONTENT_HASH_H_

#include <string>

#include "absl/status/statusor.h"
#include "google/protobuf/message.h"

namespace arbiter {

// The canonical serialization itself (what the catalog stores).
absl::StatusOr<std::string> CanonicalBytes(const google::protobuf::Message& message);

// Lower-case hex SHA-256 of `message` serialized canonically (see above).
// Fails only if OpenSSL or serialization fails.
absl::StatusOr<std::string> ContentHash(const google::protobuf::Message& message);

// Lower-case hex SHA-256 of raw bytes.
absl::StatusOr<std::string> Sha256Hex(std::string_view bytes);

}  // namespace arbiter

#endif  // ARBITER_RULESDB_CONTENT_HASH_H_
