#include "cli/listen_address.h"

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace arbiter::cli {
namespace {

// Why `address` is not HOST:PORT, or empty when it is.
std::string Malformed(absl::string_view address) {
  const size_t colon = address.rfind(':');
  if (colon == absl::string_view::npos) return "no :PORT";
  const absl::string_view host = address.substr(0, colon);
  const absl::string_view port = address.substr(colon + 1);
  uint32_t number = 0;
  if (port.empty() || !absl::SimpleAtoi(port, &number) || number > 65535 ||
      !absl::ascii_isdigit(static_cast<unsigned char>(port[0]))) {
    return absl::StrCat("the port '", port, "' is not a number from 0 to 65535");
  }
  if (host.empty()) return "no HOST before the :PORT";
  if (host.front() == '[') {
    if (host.back() != ']' || host.size() < 3) return "an IPv6 HOST is written [ADDRESS]";
    for (char c : host.substr(1, host.size() - 2)) {
      if (!absl::ascii_isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.') {
        return absl::StrCat("'", host, "' is not an IPv6 address");
      }
    }
    return "";
  }
  for (char c : host) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') {
      return absl::StrCat("'", host, "' is not a host name or an address",
                          c == ':' ? " (write an IPv6 one in brackets: [::1])" : "");
    }
  }
  return "";
}

}  // namespace

absl::Status CheckListenAddress(absl::string_view flag, absl::string_view address) {
  const std::string why = Malformed(address);
  if (why.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("--", flag, " '", address, "': a malformed address (", why,
                   "); HOST:PORT such as 127.0.0.1:50051, 0.0.0.0:50051 or [::1]:50051"));
}

}  // namespace arbiter::cli
