// A one-pass check that bytes are a message's canonical encoding
// (canonical_bytes.h), read from the bytes alone: what ParseCanonicalInto
// otherwise learns by re-encoding the parsed message and comparing. The
// audit checks every stored event this way; the walk of the descriptors
// and the re-encoding were a tenth of `arbiter verify`'s CPU.
//
// What protobuf's deterministic serialization writes, and so what this
// requires of each message, at every depth:
//  - every field known to the schema, under the wire type it is written
//    with (a repeated scalar packed, unless declared unpacked);
//  - fields in ascending number order, each once, a repeated unpacked
//    field's elements side by side; at most one member of a oneof;
//  - every varint (tags, lengths, values) in its shortest form; an int32
//    or enum as its sign extension to 64 bits, a uint32 or sint32 within
//    32 bits, a bool 0 or 1;
//  - a field without presence (proto3, not optional) only when it is not
//    its default (zero, empty); a packed list only when it is not empty.
#ifndef ARBITER_PROTO_CANONICAL_CANONICAL_ENCODING_H_
#define ARBITER_PROTO_CANONICAL_CANONICAL_ENCODING_H_

#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"

namespace arbiter {

// True when `bytes` are certainly the canonical encoding of a `type`
// (above) whose every string the parser accepts; false when they are not,
// or where this check cannot tell (a proto2 file, a map, a group, a
// floating-point zero without presence): the caller then re-encodes.
bool KnownCanonical(const google::protobuf::Descriptor* type, absl::string_view bytes);

}  // namespace arbiter

#endif  // ARBITER_PROTO_CANONICAL_CANONICAL_ENCODING_H_
