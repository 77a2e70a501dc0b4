// How the console answers: absl::Status codes as HTTP statuses (the gRPC
// codes' usual HTTP mapping), errors as JSON, and the no-store headers on
// every answer that shows ledger data.
//
//   INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE  400
//   UNAUTHENTICATED 401    PERMISSION_DENIED 403    NOT_FOUND 404
//   ALREADY_EXISTS, ABORTED 409    RESOURCE_EXHAUSTED 429
//   UNAVAILABLE 503    anything else 500
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_HTTP_STATUS_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_HTTP_STATUS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "httplib.h"

namespace arbiter::service::console {

int HttpStatus(const absl::Status& status);

// {"error":{"code":"PERMISSION_DENIED","message":"..."}} with the status's
// HTTP code, and for a caller over their rate (rate_limited.h) a
// Retry-After in whole seconds.
void SendError(httplib::Response& res, const absl::Status& status);
void SendJson(httplib::Response& res, std::string json);
void SendHtml(httplib::Response& res, std::string html);

// `text` as a JSON string literal, quotes included.
std::string JsonString(absl::string_view text);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_HTTP_STATUS_H_
