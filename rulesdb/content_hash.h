// ContentHash: the canonical content hash of a rules message.
//
// The hash is hex SHA-256 over the message's canonical bytes
// (proto/canonical/canonical_bytes.h: the deterministic binary serialization,
// unknown fields dropped). For our rules schemas those bytes are the same on
// any machine and any build: they have no map fields and every field is
// written in field-number order with fixed encodings. Any change to any
// field, including text and notes, changes the bytes and hence the hash.
//
// Anyone can check a built-in hash without this code, e.g.
//   cat rulesdb/data/cn-2002/*.textproto |
//     protoc --encode=arbiter.v1.Ruleset -I proto proto/arbiter/v1/rules.proto | sha256sum
// (the files concatenated in path order, as the loader merges them).
#ifndef ARBITER_RULESDB_CONTENT_HASH_H_
#define ARBITER_RULESDB_CONTENT_HASH_H_

#include <string>

#include "google/protobuf/message.h"

namespace arbiter {

// Lower-case hex SHA-256 of `message`'s canonical bytes (see above).
std::string ContentHash(const google::protobuf::Message& message);

}  // namespace arbiter

#endif  // ARBITER_RULESDB_CONTENT_HASH_H_
