#include "ledger/canonical.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace arbiter::ledger {

std::string DeterministicBytes(const google::protobuf::MessageLite& message) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream raw(&out);
    google::protobuf::io::CodedOutputStream coded(&raw);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }
  return out;
}

std::string CanonicalEvent(const v1::Event& event) {
  v1::Event copy = event;
  copy.DiscardUnknownFields();
  return DeterministicBytes(copy);
}

absl::StatusOr<v1::Event> ParseCanonicalEvent(const std::string& bytes) {
  v1::Event event;
  if (!event.ParseFromString(bytes)) return absl::DataLossError("event bytes do not parse");
  if (CanonicalEvent(event) != bytes) return absl::DataLossError("event bytes are not canonical");
  return event;
}

}  // namespace arbiter::ledger
