#include "adjudicator/service/console/http_status.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/refusal_reason.h"
#include "adjudicator/service/console/json.h"
#include "adjudicator/service/rate_limited.h"
#include "google/protobuf/struct.pb.h"

namespace arbiter::service::console {

int HttpStatus(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
      return 200;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kAlreadyExists:
    case absl::StatusCode::kAborted:
      return 409;
    case absl::StatusCode::kResourceExhausted:
      return 429;
    case absl::StatusCode::kUnavailable:
      return 503;
    default:
      return 500;
  }
}

std::string JsonString(absl::string_view text) {
  google::protobuf::Value value;
  value.set_string_value(std::string(text));
  return ToJson(value);
}

namespace {

// Sets the one Cache-Control of an answer: an error's page is written by
// SendHtml after SendError set it, and a header set twice is sent twice.
void NoStore(httplib::Response& res) {
  res.headers.erase("Cache-Control");
  res.set_header("Cache-Control", "no-store");
}

}  // namespace

void SendError(httplib::Response& res, const absl::Status& status) {
  res.status = HttpStatus(status);
  NoStore(res);
  if (std::optional<absl::Duration> wait = RetryAfter(status); wait.has_value()) {
    // Whole seconds (RFC 9110 10.2.3), rounded up: a client that waits
    // them finds its token there.
    res.set_header("Retry-After",
                   absl::StrCat(std::max<int64_t>(
                       1, absl::ToInt64Seconds(absl::Ceil(*wait, absl::Seconds(1))))));
  }
  // A refusal the floor's phone words in its reader's language
  // (refusal_reason.h): its reason and fields beside the message.
  std::string refusal;
  if (std::optional<google::protobuf::Struct> r = RefusalReasonOf(status); r.has_value()) {
    refusal = absl::StrCat(",\"refusal\":", ToJson(*r));
  }
  res.set_content(absl::StrCat("{\"error\":{\"code\":\"", absl::StatusCodeToString(status.code()),
                               "\",\"message\":", JsonString(status.message()), refusal, "}}"),
                  "application/json");
}

void SendJson(httplib::Response& res, std::string json) {
  NoStore(res);
  res.set_content(std::move(json), "application/json");
}

void SendHtml(httplib::Response& res, std::string html) {
  NoStore(res);
  res.set_content(std::move(html), "text/html; charset=utf-8");
}

}  // namespace arbiter::service::console
