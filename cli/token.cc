// `arbiter token`: the bearer tokens of a server's data directory (see
// adjudicator/service/auth_tokens.h and .github/SECURITY.md).
//
//   arbiter token create --role ROLE --name NAME [--game ID]... [--db DIR]
//   arbiter token revoke ID [--db DIR]
//   arbiter token list [--db DIR]
//
// The data directory is --db, else $ARBITER_DATA, else ./arbiter-data, as
// for `arbiter serve`; tokens take effect on a running server at once.
// `create` prints the secret token once, on stdout; only its hash is kept.
// Once any token exists the server requires one on every call.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "adjudicator/service/auth_tokens.h"
#include "cli/commands.h"

namespace arbiter::cli {
namespace {

constexpr char kUsage[] =
    "usage: arbiter token create --role ROLE --name NAME [--game ID]... [--db DIR]\n"
    "       arbiter token revoke ID [--db DIR]\n"
    "       arbiter token list [--db DIR]\n"
    "  ROLE: ARBITER (records in its --game games; --game '*' for all), CHIEF_ARBITER,\n"
    "        AUDITOR (reads, verifies, exports), SOFTWARE (reads, watches)\n";

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
  std::string role_name, name;
  std::vector<std::string> games, positional;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool flag = arg == "--db" || arg == "--role" || arg == "--name" || arg == "--game";
    if (flag && i + 1 >= argc) return Bad(arg + " needs a value");
    if (arg == "--db") {
      dir = argv[++i];
    } else if (arg == "--role") {
      role_name = argv[++i];
    } else if (arg == "--name") {
      name = argv[++i];
    } else if (arg == "--game") {
      games.push_back(argv[++i]);
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
    absl::StatusOr<std::string> secret = (*store)->Create(*role, name, games);
    if (!secret.ok()) return Bad(std::string(secret.status().message()));
    std::printf("%s\n", secret->c_str());
    std::fprintf(stderr, "arbiter token: created a %s token for %s; it is shown only this once\n",
                 role_name.c_str(), name.c_str());
    return 0;
  }
  if (verb == "revoke") {
    if (positional.size() != 1 || !role_name.empty() || !name.empty() || !games.empty()) {
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
    if (!positional.empty() || !role_name.empty() || !name.empty() || !games.empty()) {
      return Bad("list takes only --db");
    }
    for (const service::TokenInfo& t : (*store)->List()) {
      std::string games_text;
      for (const std::string& g : t.games) games_text += (games_text.empty() ? "" : ",") + g;
      std::printf("%s  %-13s  %-20s  created %s  %s%s\n", t.id.c_str(),
                  std::string(service::RoleName(t.role)).c_str(), t.name.c_str(),
                  absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t.created, absl::UTCTimeZone()).c_str(),
                  t.revoked.has_value()
                      ? ("revoked " + absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", *t.revoked,
                                                       absl::UTCTimeZone()))
                            .c_str()
                      : "active",
                  games_text.empty() ? "" : ("  games " + games_text).c_str());
    }
    return 0;
  }
  return Bad("unknown verb '" + verb + "'");
}

}  // namespace arbiter::cli
