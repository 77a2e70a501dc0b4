#include "adjudicator/service/console/request_head.h"

#include <algorithm>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "adjudicator/service/console/http_limits.h"

namespace arbiter::service::console {
namespace {

RequestVerdict Refuse(int status, std::string message) {
  return RequestVerdict{RequestVerdict::Kind::kRefused, 0, status, std::move(message)};
}

bool HostAllowed(const std::string& name, const HostRule& hosts) {
  if (name.empty()) return false;
  if (name == absl::AsciiStrToLower(hosts.local_ip)) return true;
  // An IPv4 client of an IPv6 socket connects to ::ffff:a.b.c.d.
  if (absl::StrCat("::ffff:", name) == hosts.local_ip) return true;
  if (hosts.loopback && name == "localhost") return true;
  return std::find(hosts.names.begin(), hosts.names.end(), name) != hosts.names.end();
}

}  // namespace

bool IsLoopbackIp(absl::string_view ip) {
  return absl::StartsWith(ip, "127.") || ip == "::1" || absl::StartsWith(ip, "::ffff:127.");
}

bool IsOwnOrigin(absl::string_view origin, absl::string_view scheme, int port,
                 const HostRule& hosts) {
  absl::string_view rest = origin;
  if (!absl::StartsWithIgnoreCase(rest, scheme)) return false;
  rest.remove_prefix(scheme.size());
  if (!absl::ConsumePrefix(&rest, "://")) return false;
  absl::string_view host = rest.substr(0, rest.find_first_of("/?#"));
  if (host.empty() || absl::StrContains(host, '@')) return false;
  int given = absl::EqualsIgnoreCase(scheme, "https") ? 443 : 80;
  const size_t colon = host.rfind(':');
  const size_t bracket = host.rfind(']');
  if (colon != absl::string_view::npos && (bracket == absl::string_view::npos || colon > bracket)) {
    if (!absl::SimpleAtoi(host.substr(colon + 1), &given)) return false;
    host = host.substr(0, colon);
  }
  return given == port && HostAllowed(HostName(host), hosts);
}

std::string HostName(absl::string_view host_header) {
  absl::string_view h = absl::StripAsciiWhitespace(host_header);
  if (absl::ConsumePrefix(&h, "[")) {
    h = h.substr(0, h.find(']'));
  } else if (size_t colon = h.rfind(':'); colon != absl::string_view::npos) {
    h = h.substr(0, colon);
  }
  absl::ConsumeSuffix(&h, ".");
  return absl::AsciiStrToLower(h);
}

RequestVerdict ExamineRequest(absl::string_view buffered, const HostRule& hosts) {
  // Line by line, each limit checked as soon as the bytes break it.
  size_t at = 0;
  int lines = 0;
  std::optional<std::string> host;
  std::optional<uint64_t> length;
  bool chunked = false;
  for (;;) {
    const size_t end = buffered.find("\r\n", at);
    const size_t line_size = (end == absl::string_view::npos ? buffered.size() : end) - at;
    if (line_size > kMaxLineBytes) {
      return lines == 0
                 ? Refuse(414, absl::StrCat("the request line passes ", kMaxLineBytes, " bytes"))
                 : Refuse(431, absl::StrCat("a header line passes ", kMaxLineBytes, " bytes"));
    }
    if ((end == absl::string_view::npos ? buffered.size() : end + 2) > kMaxHeadBytes) {
      return Refuse(431, absl::StrCat("the request's headers pass ", kMaxHeadBytes, " bytes"));
    }
    if (end == absl::string_view::npos) return RequestVerdict{};
    const absl::string_view line = buffered.substr(at, end - at);
    at = end + 2;
    if (lines == 0) {
      if (line.empty()) continue;  // a stray CRLF before a request is allowed
      lines = 1;
      continue;
    }
    if (line.empty()) break;  // the end of the head
    if (++lines > kMaxHeaderLines + 1) {
      return Refuse(431, absl::StrCat("more than ", kMaxHeaderLines, " header lines"));
    }
    const size_t colon = line.find(':');
    if (colon == absl::string_view::npos || colon == 0 || line[0] == ' ' || line[0] == '\t') {
      return Refuse(400, "a header line is not NAME: VALUE");
    }
    const std::string name = absl::AsciiStrToLower(line.substr(0, colon));
    const absl::string_view value = absl::StripAsciiWhitespace(line.substr(colon + 1));
    if (name == "host") {
      if (host.has_value()) return Refuse(400, "two Host headers");
      host = std::string(value);
    } else if (name == "content-length") {
      uint64_t n = 0;
      if (!absl::SimpleAtoi(value, &n) || (length.has_value() && *length != n)) {
        return Refuse(400, "Content-Length: one number of bytes");
      }
      length = n;
    } else if (name == "transfer-encoding") {
      chunked = true;
    }
  }
  if (!host.has_value()) return Refuse(400, "no Host header");
  const std::string name = HostName(*host);
  if (!HostAllowed(name, hosts)) {
    std::vector<std::string> known;
    if (hosts.loopback) known.push_back("localhost");
    known.push_back(hosts.local_ip);
    known.insert(known.end(), hosts.names.begin(), hosts.names.end());
    return Refuse(421, absl::StrCat("Host '", name.substr(0, 64),
                                    "' is not a name of this console (it answers to ",
                                    absl::StrJoin(known, ", "),
                                    "); an operator adds names with --http-host"));
  }
  if (chunked) {
    return Refuse(411, "a body must come with its Content-Length (no Transfer-Encoding)");
  }
  const uint64_t body = length.value_or(0);
  if (body > kMaxBodyBytes) {
    return Refuse(
        413, absl::StrCat("a body of ", body, " bytes; the console takes at most ", kMaxBodyBytes));
  }
  if (buffered.size() - at < body) return RequestVerdict{};
  return RequestVerdict{RequestVerdict::Kind::kComplete, at + body, 0, ""};
}

}  // namespace arbiter::service::console
