// `arbiter token`: the bearer tokens of a server's data directory (see
// adjudicator/service/auth_tokens.h and .github/SECURITY.md).
//
//   arbiter token create --role ROLE --name NAME [--game ID]... [--ttl DURATION] [--db DIR]
//   arbiter token revoke ID [--db DIR]
//   arbiter token list [--db DIR]
//
// The data directory is --db, else $ARBITER_DATA, else ./arbiter-data, as
// for `arbiter serve`; tokens take effect on a running server at once.
// `create` prints the secret token once, on stdout; only its hash is kept.
// It expires after --ttl (absl duration: 720h, 90m; "none" for never),
// by default service::kDefaultTokenTtl (30 days).
// Once any token exists the server requires one on every call.
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "adjudicator/service/auth_tokens.h"
#include "cli/commands.h"

namespace arbiter::cli {
namespace {

constexpr char kUsage[] =
    "usage: arbiter token create --role ROLE --name NAME [--game ID]... [--ttl DURATION] [--db DIR]\n"
    "       arbiter token revoke ID [--db DIR]\n"
    "       arbiter token list [--db DIR]\n"
    "  ROLE: ARBITER (records in its --game games; --game '*' for all), CHIEF_ARBITER,\n"
    "        AUDITOR (reads, verifies, exports), SOFTWARE (reads, watches)\n"
    "  --ttl: how long the token lives, e.g. 720h or 90m (default 720h = 30 days);\n"
    "         'none': until revoked\n";

std::string Utc(absl::Time t) { return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone()); }

// "expires 2026-06-28T10:00:00Z", "expired ...", or "no expiry".
std::string Expiry(const service::TokenInfo& t, absl::Time now) {
  if (!t.expires.has_value()) return "no expiry";
  return (now >= *t.expires ? "expired " : "expires ") + Utc(*t.expires);
}

int Bad(const std::string& why) {
  std::fprintf(stderr, "arbiter token: %s\n%s", why.c_str(), kUsage);
  return 2;
}

}  // namespace

int RunToken(int argc, char** argv) {
  if (argc < 2) return Bad("which: create, revoke or list?");
  const std::string verb = argv[1];
  const char* env = std::getenv("ARBITER_DATA");
  std::string dir = env != nullptr && *env != '\0' ? env : "arbiter-data";
  std::string role_name, name, ttl_text;
  std::vector<std::string> games, positional;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool flag =
        arg == "--db" || arg == "--role" || arg == "--name" || arg == "--game" || arg == "--ttl";
    if (flag && i + 1 >= argc) return Bad(arg + " needs a value");
    if (arg == "--db") {
      dir = argv[++i];
    } else if (arg == "--role") {
      role_name = argv[++i];
    } else if (arg == "--name") {
      name = argv[++i];
    } else if (arg == "--game") {
      games.push_back(argv[++i]);
    } else if (arg == "--ttl") {
      ttl_text = argv[++i];
      if (ttl_text.empty()) return Bad("--ttl needs a duration (720h) or 'none'");
    } else if (!arg.empty() && arg[0] == '-') {
      return Bad("unknown flag " + arg);
    } else {
      positional.push_back(arg);
    }
  }
  absl::StatusOr<std::unique_ptr<service::TokenStore>> store = service::TokenStore::Open(dir);
  if (!store.ok()) {
    std::fprintf(stderr, "arbiter token: %s\n", std::string(store.status().message()).c_str());
    return 3;
  }

  if (verb == "create") {
    if (!positional.empty()) return Bad("unexpected argument " + positional[0]);
    std::optional<service::Role> role = service::ParseRole(role_name);
    if (!role.has_value()) return Bad("--role must be ARBITER, CHIEF_ARBITER, AUDITOR or SOFTWARE");
    std::optional<absl::Duration> ttl = service::kDefaultTokenTtl;
    if (ttl_text == "none") {
      ttl.reset();
    } else if (!ttl_text.empty()) {
      absl::Duration d;
      if (!absl::ParseDuration(ttl_text, &d) || d <= absl::ZeroDuration() ||
          d == absl::InfiniteDuration()) {
        return Bad("--ttl '" + ttl_text + "': a positive duration such as 720h or 90m, or 'none'");
      }
      ttl = d;
    }
    absl::StatusOr<std::string> secret = (*store)->Create(*role, name, games, ttl);
    if (!secret.ok()) return Bad(std::string(secret.status().message()));
    std::printf("%s\n", secret->c_str());
    std::fprintf(stderr,
                 "arbiter token: created a %s token for %s (%s); it is shown only this once\n",
                 role_name.c_str(), name.c_str(),
                 ttl.has_value() ? ("expires " + Utc(absl::Now() + *ttl)).c_str() : "no expiry");
    return 0;
  }
  if (verb == "revoke") {
    if (positional.size() != 1 || !role_name.empty() || !name.empty() || !games.empty() ||
        !ttl_text.empty()) {
      return Bad("revoke takes one token id (see `arbiter token list`)");
    }
    if (absl::Status s = (*store)->Revoke(positional[0]); !s.ok()) {
      std::fprintf(stderr, "arbiter token: %s\n", std::string(s.message()).c_str());
      return absl::IsNotFound(s) ? 1 : 3;
    }
    std::printf("revoked %s\n", positional[0].c_str());
    return 0;
  }
  if (verb == "list") {
    if (!positional.empty() || !role_name.empty() || !name.empty() || !games.empty() ||
        !ttl_text.empty()) {
      return Bad("list takes only --db");
    }
    const absl::Time now = absl::Now();
    for (const service::TokenInfo& t : (*store)->List()) {
      std::string games_text;
      for (const std::string& g : t.games) games_text += (games_text.empty() ? "" : ",") + g;
      const std::string state = t.revoked.has_value() ? "revoked " + Utc(*t.revoked) : "active";
      std::printf("%s  %-13s  %-20s  created %s  %s  %s%s\n", t.id.c_str(),
                  std::string(service::RoleName(t.role)).c_str(), t.name.c_str(),
                  Utc(t.created).c_str(), state.c_str(), Expiry(t, now).c_str(),
                  games_text.empty() ? "" : ("  games " + games_text).c_str());
    }
    return 0;
  }
  return Bad("unknown verb '" + verb + "'");
}

}  // namespace arbiter::cli
