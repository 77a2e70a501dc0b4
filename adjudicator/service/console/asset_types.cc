// Content types of the embedded assets (the table itself is generated).
#include "absl/strings/match.h"
#include "adjudicator/service/console/assets.h"

namespace arbiter::service::console {

absl::string_view ContentTypeOf(absl::string_view name) {
  if (absl::EndsWith(name, ".html")) return "text/html; charset=utf-8";
  if (absl::EndsWith(name, ".css")) return "text/css; charset=utf-8";
  if (absl::EndsWith(name, ".js")) return "text/javascript; charset=utf-8";
  if (absl::EndsWith(name, ".svg")) return "image/svg+xml";
  if (absl::EndsWith(name, ".json")) return "application/json";
  return "application/octet-stream";
}

}  // namespace arbiter::service::console
