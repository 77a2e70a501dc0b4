#include "adjudicator/service/webhook_sender.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <cstring>
#include <map>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "httplib.h"

namespace arbiter::service {
namespace {

bool InV4(const in_addr& a, const char* net, int bits) {
  in_addr n{};
  inet_pton(AF_INET, net, &n);
  const uint32_t mask = bits == 0 ? 0 : htonl(~uint32_t{0} << (32 - bits));
  return (a.s_addr & mask) == (n.s_addr & mask);
}

// Why an IPv4 address is refused ("" if it is not), by its class.
std::string RefusedV4(const in_addr& a, bool allow_private) {
  if (InV4(a, "169.254.169.254", 32) || InV4(a, "100.100.100.200", 32)) {
    return "a cloud metadata address";
  }
  if (InV4(a, "0.0.0.0", 8) || InV4(a, "224.0.0.0", 4) || InV4(a, "240.0.0.0", 4)) {
    return "not a unicast address";
  }
  if (InV4(a, "169.254.0.0", 16)) return "a link-local address";
  if (allow_private) return "";
  if (InV4(a, "127.0.0.0", 8)) return "a loopback address";
  for (auto [net, bits] : {std::pair{"10.0.0.0", 8},
                           {"172.16.0.0", 12},
                           {"192.168.0.0", 16},
                           {"100.64.0.0", 10},
                           {"198.18.0.0", 15}}) {
    if (InV4(a, net, bits)) return "a private address";
  }
  return "";
}

std::string RefusedV6(const in6_addr& a, bool allow_private) {
  static const in6_addr kMetadata = [] {
    in6_addr m{};
    inet_pton(AF_INET6, "fd00:ec2::254", &m);
    return m;
  }();
  if (std::memcmp(&a, &kMetadata, sizeof a) == 0) return "a cloud metadata address";
  if (IN6_IS_ADDR_V4MAPPED(&a) || IN6_IS_ADDR_V4COMPAT(&a)) {
    in_addr v4{};
    std::memcpy(&v4, a.s6_addr + 12, 4);
    return RefusedV4(v4, allow_private);
  }
  if (IN6_IS_ADDR_UNSPECIFIED(&a) || IN6_IS_ADDR_MULTICAST(&a)) return "not a unicast address";
  if (IN6_IS_ADDR_LINKLOCAL(&a)) return "a link-local address";
  if (allow_private) return "";
  if (IN6_IS_ADDR_LOOPBACK(&a)) return "a loopback address";
  if ((a.s6_addr[0] & 0xfe) == 0xfc) return "a private (unique local) address";
  return "";
}

}  // namespace

absl::StatusOr<WebhookUrl> ParseWebhookUrl(absl::string_view url) {
  // A URL holds no space and no control character (RFC 3986): a CR/LF or a
  // NUL was stored as given, shown raw by ListWebhooks, and a NUL cut the
  // path sent.
  for (size_t i = 0; i < url.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(url[i]);
    if (c <= 0x20 || c == 0x7f) {
      return absl::InvalidArgumentError(
          absl::StrCat("webhook URL: a space or a control character at byte ", i,
                       "; a URL carries them percent-encoded (%20, %0A)"));
    }
  }
  WebhookUrl out;
  absl::string_view rest = url;
  if (absl::ConsumePrefix(&rest, "https://")) {
    out.https = true;
  } else if (!absl::ConsumePrefix(&rest, "http://")) {
    return absl::InvalidArgumentError(
        absl::StrCat("webhook URL '", url, "': only http:// and https:// URLs are sent to"));
  }
  const size_t slash = rest.find_first_of("/?#");
  absl::string_view authority = rest.substr(0, slash);
  out.path = slash == absl::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (absl::StartsWith(out.path, "?")) out.path = "/" + out.path;
  if (const size_t hash = out.path.find('#'); hash != std::string::npos) out.path.resize(hash);
  if (authority.find('@') != absl::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("webhook URL '", url, "': user information is not allowed"));
  }
  absl::string_view port;
  if (absl::ConsumePrefix(&authority, "[")) {
    const size_t close = authority.find(']');
    if (close == absl::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrCat("webhook URL '", url, "': unclosed '['"));
    }
    out.host = std::string(authority.substr(0, close));
    absl::string_view after = authority.substr(close + 1);
    if (absl::ConsumePrefix(&after, ":")) port = after;
  } else {
    const size_t colon = authority.rfind(':');
    out.host = std::string(authority.substr(0, colon));
    if (colon != absl::string_view::npos) port = authority.substr(colon + 1);
  }
  out.port = out.https ? 443 : 80;
  if (!port.empty() && (!absl::SimpleAtoi(port, &out.port) || out.port < 1 || out.port > 65535)) {
    return absl::InvalidArgumentError(absl::StrCat("webhook URL '", url, "': bad port"));
  }
  if (out.host.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("webhook URL '", url, "': no host"));
  }
  return out;
}

Resolver SystemResolver() {
  return [](const std::string& host) -> absl::StatusOr<std::vector<std::string>> {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (int e = getaddrinfo(host.c_str(), nullptr, &hints, &found); e != 0) {
      return absl::UnavailableError(absl::StrCat("cannot resolve ", host, ": ", gai_strerror(e)));
    }
    std::vector<std::string> out;
    for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
      char text[INET6_ADDRSTRLEN] = {};
      const void* raw =
          a->ai_family == AF_INET
              ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(a->ai_addr)->sin_addr)
              : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(a->ai_addr)->sin6_addr);
      if (inet_ntop(a->ai_family, raw, text, sizeof text) != nullptr) out.emplace_back(text);
    }
    freeaddrinfo(found);
    return out;
  };
}

std::string RefusedAddress(const std::string& address, bool allow_private) {
  in_addr v4{};
  if (inet_pton(AF_INET, address.c_str(), &v4) == 1) return RefusedV4(v4, allow_private);
  in6_addr v6{};
  if (inet_pton(AF_INET6, address.c_str(), &v6) == 1) return RefusedV6(v6, allow_private);
  return "not a numeric address";
}

absl::StatusOr<std::string> WebhookSender::CheckedAddress(const std::string& host) const {
  absl::StatusOr<std::vector<std::string>> addresses = options_.resolve(host);
  if (!addresses.ok()) return addresses.status();
  if (addresses->empty()) return absl::UnavailableError(absl::StrCat(host, " has no address"));
  // Every address is checked, not only the first: a name may list a public
  // address beside a private one and the connection take either.
  for (const std::string& a : *addresses) {
    if (std::string why = RefusedAddress(a, options_.allow_private); !why.empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat("refused: ", host, " resolves to ", a, ", ", why,
                       options_.allow_private ? "" : " (serve --webhook-allow-private)"));
    }
  }
  return addresses->front();
}

WebhookAnswer WebhookSender::Post(const std::string& url,
                                  const std::vector<std::pair<std::string, std::string>>& headers,
                                  const std::string& body) const {
  WebhookAnswer answer;
  absl::StatusOr<WebhookUrl> u = ParseWebhookUrl(url);
  if (!u.ok()) {
    answer.error = std::string(u.status().message());
    return answer;
  }
  absl::StatusOr<std::string> address = CheckedAddress(u->host);
  if (!address.ok()) {
    answer.error = std::string(address.status().message());
    return answer;
  }
  const std::string scheme_host_port = absl::StrCat(
      u->https ? "https://" : "http://",
      u->host.find(':') != std::string::npos ? absl::StrCat("[", u->host, "]") : u->host, ":",
      u->port);
  httplib::Client client(scheme_host_port);
  // The checked address, so the name is not resolved a second time (to
  // another address by then).
  client.set_hostname_addr_map({{u->host, *address}});
  client.set_follow_location(false);
  const auto timeout = absl::ToChronoSeconds(options_.timeout);
  client.set_connection_timeout(timeout);
  client.set_read_timeout(timeout);
  client.set_write_timeout(timeout);
  if (u->https) client.enable_server_certificate_verification(true);
  httplib::Request req;
  req.method = "POST";
  req.path = u->path;
  for (const auto& [name, value] : headers) req.headers.emplace(name, value);
  req.headers.emplace("Content-Type", "application/json");
  req.body = body;
  std::string read;
  req.response_handler = [&](const httplib::Response& r) {
    answer.status = r.status;
    int seconds = 0;
    if (absl::SimpleAtoi(r.get_header_value("Retry-After"), &seconds) && seconds >= 0) {
      answer.retry_after = absl::Seconds(seconds);
    }
    return true;
  };
  // At most kMaxAnswer bytes of the answer are read: its status is all that counts.
  req.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
    read.append(data, std::min(n, kMaxAnswer - std::min(read.size(), kMaxAnswer)));
    return read.size() < kMaxAnswer;
  };
  httplib::Result res = client.send(req);
  if (!res && answer.status == 0) {
    answer.error = absl::StrCat("no answer from ", url, ": ", httplib::to_string(res.error()));
  }
  return answer;
}

}  // namespace arbiter::service
