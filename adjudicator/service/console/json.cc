#include "adjudicator/service/console/json.h"

#include <string>

#include <memory>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/console/bidi.h"
#include "google/protobuf/util/json_util.h"

namespace arbiter::service::console {

std::string ToJson(const google::protobuf::Message& message) {
  // What the pages show carries no bidi controls (bidi.h).
  std::unique_ptr<google::protobuf::Message> shown(message.New());
  shown->CopyFrom(message);
  StripBidiControls(shown.get());
  std::string out;
  if (!google::protobuf::util::MessageToJsonString(*shown, &out).ok()) return "{}";
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
