#include "cli/event_text.h"

#include "google/protobuf/util/json_util.h"

namespace arbiter::cli {

std::string EventKind(const v1::Event& event) {
  const auto* field = event.GetDescriptor()->FindFieldByNumber(event.kind_case());
  return field == nullptr ? "?" : field->json_name();
}

std::string EventDetails(const v1::Event& event) {
  const auto* field = event.GetDescriptor()->FindFieldByNumber(event.kind_case());
  if (field == nullptr) return "";
  const google::protobuf::Message& kind = event.GetReflection()->GetMessage(event, field);
  std::string out;
  google::protobuf::util::JsonPrintOptions print;
  if (!google::protobuf::util::MessageToJsonString(kind, &out, print).ok()) return "";
  return out == "{}" ? "" : out;
}

}  // namespace arbiter::cli
