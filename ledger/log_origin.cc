#include "ledger/internal/log_origin.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "ledger/internal/note_utf8.h"
#include "ledger/note_key.h"
#include "ledger/server_tables.h"

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

namespace {

// The meta row of the log's origin.
constexpr char kOriginKey[] = "log_origin";

// The origin a `ledger.origin` file of an older release holds; none when
// there is no such file.
absl::StatusOr<std::optional<std::string>> LegacyOrigin(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  std::string kept(absl::StripTrailingAsciiWhitespace(s.str()));
  if (!IsValidNoteName(kept)) {
    return absl::UnavailableError(absl::StrCat(path, " holds no valid log origin"));
  }
  return kept;
}

absl::Status Differs(absl::string_view kept, absl::string_view where, absl::string_view other) {
  return absl::FailedPreconditionError(absl::StrCat("the log's origin is '", kept, "' (", where,
                                                    "), fixed once its checkpoints name it; '",
                                                    other, "' would make it another log"));
}

}  // namespace

absl::StatusOr<std::string> SettleLogOrigin(ServerTables& tables, const std::string& key_dir,
                                            absl::string_view requested,
                                            absl::string_view fallback) {
  if (!requested.empty() && !IsValidNoteName(requested)) {
    return absl::InvalidArgumentError(
        absl::StrCat("log origin '", requested, "': a non-empty name with no spaces and no '+'"));
  }
  const std::string file = key_dir + "/ledger.origin";
  absl::StatusOr<std::optional<std::string>> legacy = LegacyOrigin(file);
  if (!legacy.ok()) return legacy.status();
  absl::StatusOr<std::optional<std::string>> kept = tables.Meta(kOriginKey);
  if (!kept.ok()) return kept.status();
  if (!kept->has_value()) {
    if (legacy->has_value() && !requested.empty() && requested != **legacy) {
      return Differs(**legacy, file, requested);
    }
    const std::string origin(legacy->has_value()  ? **legacy
                             : !requested.empty() ? std::string(requested)
                                                  : std::string(fallback));
    if (!IsValidNoteName(origin)) {
      return absl::InvalidArgumentError(
          absl::StrCat("log origin '", origin, "' is not a key name"));
    }
    // Another server may keep its own first: each gets the one kept.
    absl::StatusOr<std::string> first = tables.KeepMeta(kOriginKey, origin);
    if (!first.ok()) return first.status();
    *kept = *std::move(first);
  }
  const std::string& origin = **kept;
  if (legacy->has_value() && **legacy != origin) {
    return absl::FailedPreconditionError(absl::StrCat(
        file, " names the log '", **legacy, "', but its database's origin is '", origin,
        "': this folder's server signed another log; remove the file only if that is wrong"));
  }
  if (!requested.empty() && requested != origin) return Differs(origin, "the database", requested);
  if (legacy->has_value()) {
    // Moved: the database holds it now, and is the one place it is read.
    std::error_code ec;
    std::filesystem::remove(file, ec);
  }
  return origin;
}

}  // namespace arbiter::ledger
