#include "adjudicator/engine/refusal_reason.h"

#include "absl/strings/cord.h"
#include "absl/types/optional.h"

namespace arbiter {

namespace {

// The payload's key: a type URL naming what its bytes are.
constexpr absl::string_view kPayloadUrl = "type.googleapis.com/arbiter.refusal.Struct";

}  // namespace

absl::Status WithRefusalReason(
    absl::Status status, absl::string_view reason,
    std::initializer_list<std::pair<absl::string_view, std::string>> fields) {
  google::protobuf::Struct words;
  (*words.mutable_fields())["reason"].set_string_value(std::string(reason));
  for (const auto& [name, value] : fields) {
    (*words.mutable_fields())[std::string(name)].set_string_value(value);
  }
  status.SetPayload(kPayloadUrl, absl::Cord(words.SerializeAsString()));
  return status;
}

std::optional<google::protobuf::Struct> RefusalReasonOf(const absl::Status& status) {
  absl::optional<absl::Cord> payload = status.GetPayload(kPayloadUrl);
  if (!payload.has_value()) return std::nullopt;
  google::protobuf::Struct words;
  if (!words.ParseFromString(std::string(*payload))) return std::nullopt;
  return words;
}

}  // namespace arbiter
