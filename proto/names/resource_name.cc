#include "proto/names/resource_name.h"

#include <algorithm>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace arbiter {
namespace {

bool IdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

// At most 16 bytes of `s` for a message, C-escaped (a byte outside
// printable ASCII as \xNN), so a value is never echoed whole, and a control
// character, a bidi override or a character cut in two never reaches the
// status a client prints.
std::string Prefix(absl::string_view s, size_t n = 16) {
  return s.size() <= n ? absl::CHexEscape(s)
                       : absl::StrCat(absl::CHexEscape(s.substr(0, n)), "...");
}

}  // namespace

absl::Status CheckId(absl::string_view kind, absl::string_view id) {
  const std::string what = kind.empty() ? "id" : absl::StrCat(kind, " id");
  if (id.empty()) return absl::InvalidArgumentError(absl::StrCat("the ", what, " is empty"));
  if (id.size() > kMaxIdLength) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the ", what, " '", Prefix(id), "' is longer than ", kMaxIdLength, " characters"));
  }
  if (!std::all_of(id.begin(), id.end(), IdChar)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " '", Prefix(id), "': only letters, digits and -._~ are allowed"));
  }
  if (id == "." || id == "..") {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " '", id, "': a path segment of its own (URLs and file names resolve it away)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ParseResourceName(absl::string_view collection, absl::string_view name,
                                              absl::string_view field) {
  const std::string prefix = absl::StrCat(collection, "/");
  if (!absl::StartsWith(name, prefix)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": expected \"", prefix, "{id}\", got \"", Prefix(name), "\""));
  }
  absl::string_view id = name.substr(prefix.size());
  // "games" -> "game": the kind named in the message.
  absl::string_view kind = collection;
  if (absl::EndsWith(kind, "s")) kind.remove_suffix(1);
  if (absl::Status s = CheckId(kind, id); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": ", s.message()));
  }
  return std::string(id);
}

std::string ResourceName(absl::string_view collection, absl::string_view id) {
  return absl::StrCat(collection, "/", id);
}

}  // namespace arbiter
