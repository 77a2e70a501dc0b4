#include "rulesdb/content_hash.h"

#include "proto/canonical/canonical_bytes.h"
#include "proto/canonical/sha256.h"

namespace arbiter {

std::string ContentHash(const google::protobuf::Message& message) {
  return Sha256Hex(CanonicalBytes(message));
}

}  // namespace arbiter
