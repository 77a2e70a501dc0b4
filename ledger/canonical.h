// Canonical bytes: the deterministic proto serialization that the ledger
// stores, hashes and signs. Stored bytes are never re-encoded; an auditor
// hashes exactly what was stored.
#ifndef ARBITER_LEDGER_CANONICAL_H_
#define ARBITER_LEDGER_CANONICAL_H_

#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/events.pb.h"
#include "google/protobuf/message_lite.h"

namespace arbiter::ledger {

// Deterministic serialization (map entries sorted, fields in number order).
std::string DeterministicBytes(const google::protobuf::MessageLite& message);

// The canonical bytes of an event, with unknown fields dropped so that what
// is hashed is only what this schema means.
std::string CanonicalEvent(const v1::Event& event);

// Parses stored canonical bytes; DATA_LOSS if they do not parse or are not
// canonical (re-encoding them gives other bytes).
absl::StatusOr<v1::Event> ParseCanonicalEvent(const std::string& bytes);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_CANONICAL_H_
