#include "ledger/log_origin.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "ledger/note_key.h"
#include "ledger/note_utf8.h"

namespace arbiter::ledger {
namespace {

// `s` with each code point a key name may not hold replaced by '_'.
std::string AsKeyName(absl::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const size_t start = i;
    const int32_t r = NextRune(s, &i);
    if (r < 0) {
      out.push_back('_');
      ++i;
      continue;
    }
    absl::string_view rune = s.substr(start, i - start);
    out.append(IsValidNoteName(rune) ? std::string(rune) : "_");
  }
  return out.empty() ? "arbiter" : out;
}

}  // namespace

std::string DefaultLogOrigin(absl::string_view place) {
  for (absl::string_view scheme : {"postgresql://", "postgres://"}) {
    if (!absl::StartsWith(place, scheme)) continue;
    absl::string_view rest = place.substr(scheme.size());
    rest = rest.substr(0, rest.find('?'));
    const size_t slash = rest.find('/');
    const size_t at = rest.substr(0, slash).rfind('@');
    if (at != absl::string_view::npos) rest.remove_prefix(at + 1);
    return AsKeyName(rest);
  }
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') {
    std::snprintf(host, sizeof host, "localhost");
  }
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(std::string(place), ec);
  std::string path = ec ? std::string(place) : dir.lexically_normal().string();
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (!absl::StartsWith(path, "/")) path = "/" + path;
  return AsKeyName(absl::StrCat(absl::AsciiStrToLower(host), path));
}

absl::StatusOr<std::string> LoadLogOrigin(const std::string& dir, absl::string_view requested,
                                          absl::string_view fallback) {
  if (!requested.empty() && !IsValidNoteName(requested)) {
    return absl::InvalidArgumentError(
        absl::StrCat("log origin '", requested, "': a non-empty name with no spaces and no '+'"));
  }
  const std::string path = dir + "/ledger.origin";
  std::ifstream in(path, std::ios::binary);
  if (in) {
    std::ostringstream s;
    s << in.rdbuf();
    std::string kept(absl::StripTrailingAsciiWhitespace(s.str()));
    if (!IsValidNoteName(kept)) {
      return absl::UnavailableError(absl::StrCat(path, " holds no valid log origin"));
    }
    if (!requested.empty() && requested != kept) {
      return absl::FailedPreconditionError(absl::StrCat("the log's origin is '", kept, "' (", path,
                                                        "), fixed once its checkpoints name it; '",
                                                        requested, "' would make it another log"));
    }
    return kept;
  }
  const std::string origin(requested.empty() ? fallback : requested);
  if (!IsValidNoteName(origin)) {
    return absl::InvalidArgumentError(absl::StrCat("log origin '", origin, "' is not a key name"));
  }
  const std::string tmp = path + ".tmp";
  std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
  out << origin << "\n";
  out.close();
  if (!out || std::rename(tmp.c_str(), path.c_str()) != 0) {
    return absl::UnavailableError(absl::StrCat("cannot write ", path));
  }
  return origin;
}

}  // namespace arbiter::ledger
