#include "proto/canonical/canonical_bytes.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "proto/canonical/canonical_encoding.h"

namespace arbiter {
namespace {

std::string Deterministic(const google::protobuf::Message& message) {
  std::string out;
  bool ok;
  {
    google::protobuf::io::StringOutputStream raw(&out);
    google::protobuf::io::CodedOutputStream coded(&raw);
    coded.SetSerializationDeterministic(true);
    ok = message.SerializeToCodedStream(&coded);
  }
  if (!ok) {
    std::fprintf(stderr, "cannot serialize %s of %zu bytes\n", message.GetTypeName().c_str(),
                 message.ByteSizeLong());
    std::abort();
  }
  return out;
}

// True when `message`'s deterministic encoding is exactly `bytes`. The sizes
// are compared first, and the encoding is written into a buffer the thread
// keeps: the audit checks every stored event this way, and a string made and
// freed for each was a measured part of its time.
bool EncodesAs(const google::protobuf::Message& message, absl::string_view bytes) {
  const size_t size = message.ByteSizeLong();
  if (size != bytes.size()) return false;
  thread_local std::string buffer;
  if (buffer.size() < size) buffer.resize(std::max<size_t>(size, 2 * buffer.size()));
  uint8_t* start = reinterpret_cast<uint8_t*>(buffer.data());
  // Deterministic, as Deterministic() writes (map entries by key).
  google::protobuf::io::EpsCopyOutputStream out(start, static_cast<int>(size),
                                                /*deterministic=*/true);
  uint8_t* end = message._InternalSerialize(start, &out);
  return end == start + size && std::memcmp(start, bytes.data(), size) == 0;
}

}  // namespace

std::string CanonicalBytes(const google::protobuf::Message& message) {
  std::unique_ptr<google::protobuf::Message> copy(message.New());
  copy->CopyFrom(message);
  copy->DiscardUnknownFields();
  return Deterministic(*copy);
}

absl::Status ParseCanonicalInto(absl::string_view bytes, google::protobuf::Message* message) {
  // ParseFromArray clears the message first; bytes too long for it do not.
  const bool fits = bytes.size() <= static_cast<size_t>(std::numeric_limits<int>::max());
  if (!fits || !message->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    if (!fits) message->Clear();
    return absl::DataLossError(absl::StrCat(message->GetTypeName(), " bytes do not parse"));
  }
  // Canonical bytes, as every stored event is, are told by one walk of
  // them. Otherwise what the schema means, re-encoded: other bytes exactly
  // when `bytes` carried unknown fields or were not the deterministic
  // encoding.
  if (KnownCanonical(message->GetDescriptor(), bytes)) return absl::OkStatus();
  message->DiscardUnknownFields();
  if (!EncodesAs(*message, bytes)) {
    return absl::DataLossError(absl::StrCat(message->GetTypeName(), " bytes are not canonical"));
  }
  return absl::OkStatus();
}

}  // namespace arbiter
