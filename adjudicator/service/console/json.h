// The console's JSON: protobuf messages in the proto3 JSON mapping
// (json_util), as the CLI's --json prints them, so a page reads the same
// field names as every other client.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_JSON_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_JSON_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"

namespace arbiter::service::console {

// `message` as one line of proto3 JSON ("{}" if it cannot be printed, which
// a well-formed message never is), its strings without bidi controls
// (bidi.h): this is what the pages show.
std::string ToJson(const google::protobuf::Message& message);

// Parses `json` into `message`; INVALID_ARGUMENT saying why it does not fit.
absl::Status FromJson(absl::string_view json, google::protobuf::Message* message);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_JSON_H_
