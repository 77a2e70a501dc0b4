// Canonical bytes: the one serialization of a message that is stored, hashed
// and signed. The ledger stores an event's canonical bytes and hashes them
// into its Merkle tree, signs a checkpoint's, and keeps a ruling's; a rules
// content hash is the SHA-256 of a ruleset's (rulesdb/content_hash.h).
//
// Canonical means: protobuf's deterministic serialization (fields in number
// order, map entries sorted by key) of the message with its unknown fields
// dropped, so that what is hashed is only what this schema means. Stored
// bytes are never re-encoded; a reader hashes exactly what was stored, and
// ParseCanonical() refuses bytes that are not this encoding of what they
// parse to.
//
// Why here, in proto/: these bytes are part of the contract the messages of
// proto/arbiter/v1 define (ledger.proto: "canonical arbiter.v1.Event
// bytes"), and both rulesdb/ and ledger/ need them. This library includes
// nothing of the project above proto/.
#ifndef ARBITER_PROTO_CANONICAL_CANONICAL_BYTES_H_
#define ARBITER_PROTO_CANONICAL_CANONICAL_BYTES_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"

namespace arbiter {

// The canonical bytes of `message` (see above). Every message of the project
// is bounded far below protobuf's 2 GiB serialization limit (gRPC refuses
// more than 4 MiB, rules are files of kilobytes); a larger one aborts, as it
// can only come from a bug.
std::string CanonicalBytes(const google::protobuf::Message& message);

// Parses `bytes` into `message` (cleared first). DATA_LOSS, naming the
// message type, if they do not parse or are not canonical (CanonicalBytes of
// what they parse to is other bytes: unknown fields, another field order,
// defaults written out).
absl::Status ParseCanonicalInto(absl::string_view bytes, google::protobuf::Message* message);

// The same, returning the message: ParseCanonical<v1::Event>(stored).
template <typename M>
absl::StatusOr<M> ParseCanonical(absl::string_view bytes) {
  M message;
  if (absl::Status s = ParseCanonicalInto(bytes, &message); !s.ok()) return s;
  return message;
}

}  // namespace arbiter

#endif  // ARBITER_PROTO_CANONICAL_CANONICAL_BYTES_H_
