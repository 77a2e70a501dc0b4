#include "proto/canonical/canonical_bytes.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

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

}  // namespace

std::string CanonicalBytes(const google::protobuf::Message& message) {
  std::unique_ptr<google::protobuf::Message> copy(message.New());
  copy->CopyFrom(message);
  copy->DiscardUnknownFields();
  return Deterministic(*copy);
}

absl::Status ParseCanonicalInto(absl::string_view bytes, google::protobuf::Message* message) {
  message->Clear();
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !message->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::DataLossError(absl::StrCat(message->GetTypeName(), " bytes do not parse"));
  }
  // What the schema means, re-encoded: other bytes exactly when `bytes`
  // carried unknown fields or were not the deterministic encoding.
  message->DiscardUnknownFields();
  if (Deterministic(*message) != bytes) {
    return absl::DataLossError(absl::StrCat(message->GetTypeName(), " bytes are not canonical"));
  }
  return absl::OkStatus();
}

}  // namespace arbiter
