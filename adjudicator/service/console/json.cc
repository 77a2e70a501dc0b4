#include "adjudicator/service/console/json.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/json_util.h"

namespace arbiter::service::console {

std::string ToJson(const google::protobuf::Message& message) {
  std::string out;
  if (!google::protobuf::util::MessageToJsonString(message, &out).ok()) return "{}";
  return out;
}

absl::Status FromJson(absl::string_view json, google::protobuf::Message* message) {
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  if (auto s = google::protobuf::util::JsonStringToMessage(std::string(json), message, options);
      !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("the request body: ", s.message().as_string()));
  }
  return absl::OkStatus();
}

}  // namespace arbiter::service::console
