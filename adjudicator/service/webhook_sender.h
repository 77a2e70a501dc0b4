// One webhook delivery's HTTP request (issue 46.2), guarded against
// server-side request forgery: the receiver's name is resolved first and
// every address it resolves to is checked (loopback, private, link-local,
// unique-local, unspecified, multicast and the clouds' metadata addresses
// are refused unless allowed); the request then goes to the address
// checked, never to a second resolution of the name (its Host header and
// TLS name stay the URL's). No redirect is followed; at most kMaxAnswer
// bytes of the answer are read; every step gives up after the timeout.
#ifndef ARBITER_ADJUDICATOR_SERVICE_WEBHOOK_SENDER_H_
#define ARBITER_ADJUDICATOR_SERVICE_WEBHOOK_SENDER_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace arbiter::service {

// A URL an endpoint may have: http or https, a host, an optional port and path.
struct WebhookUrl {
  bool https = false;
  std::string host;  // without brackets for an IPv6 literal
  int port = 0;
  std::string path;  // "/" at least, with its query
};
// INVALID_ARGUMENT, saying why, for anything but an http(s) URL with a host.
absl::StatusOr<WebhookUrl> ParseWebhookUrl(absl::string_view url);

// The addresses a name resolves to, numeric (the system's resolver, or a
// test's stub).
using Resolver = std::function<absl::StatusOr<std::vector<std::string>>(const std::string& host)>;
Resolver SystemResolver();

// Why `address` may not be sent to: "" when it may. Metadata addresses are
// refused even when `allow_private`.
std::string RefusedAddress(const std::string& address, bool allow_private);

struct WebhookAnswer {
  int status = 0;                             // 0: no answer (error says why)
  std::optional<absl::Duration> retry_after;  // its Retry-After, in seconds
  std::string error;
};

class WebhookSender {
 public:
  static constexpr size_t kMaxAnswer = 4096;
  struct Options {
    bool allow_private = false;  // `serve --webhook-allow-private`
    absl::Duration timeout = absl::Seconds(15);
    Resolver resolve = SystemResolver();
  };
  explicit WebhookSender(Options options) : options_(std::move(options)) {}

  // POSTs `body` (application/json) with `headers` to `url`. A refused
  // address, a failed resolution or connection: status 0 and the error.
  WebhookAnswer Post(const std::string& url,
                     const std::vector<std::pair<std::string, std::string>>& headers,
                     const std::string& body) const;

 private:
  // The address to connect to, checked; FAILED_PRECONDITION naming the
  // refused address.
  absl::StatusOr<std::string> CheckedAddress(const std::string& host) const;
  Options options_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_WEBHOOK_SENDER_H_
