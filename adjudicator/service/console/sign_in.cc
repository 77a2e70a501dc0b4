#include "adjudicator/service/console/sign_in.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arbiter::service::console {

std::string QueryValue(absl::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (absl::ascii_isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out.push_back(ch);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string SignInPath(const httplib::Request& req) {
  if (req.method != "GET" || req.target.empty() || req.target == "/" ||
      AfterSignIn(req.target) == "/") {
    return "/login";
  }
  return absl::StrCat("/login?next=", QueryValue(req.target));
}

std::string AfterSignIn(absl::string_view next) {
  if (next.size() < 2 || next.size() > 2048 || next[0] != '/' || next[1] == '/' ||
      next[1] == '\\' || absl::StartsWith(next, "/login")) {
    return "/";
  }
  for (const char c : next) {
    if (c <= 0x20 || c >= 0x7f || c == '\\') return "/";
  }
  return std::string(next);
}

}  // namespace arbiter::service::console
