// `arbiter token`: the bearer tokens of a server's store (see
// adjudicator/service/auth_tokens.h and .github/SECURITY.md).
//
// The store is --db: a data directory (default $ARBITER_DATA, else
// ./arbiter-data), as for `arbiter serve`, whose ledger.db holds the tokens
// (opened beside a running server, without the ledger's lock), or a
// PostgreSQL database, postgresql://..., whose every server takes the
// token at once. `create` prints the secret token once, on stdout; only its
// hash is kept. It expires after --ttl (absl duration: 720h, 90m; "none"
// for never), by default service::kDefaultTokenTtl (30 days). Once any
// token exists the server requires one on every call.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "adjudicator/service/auth_role.h"
#include "adjudicator/service/auth_tokens.h"
#include "cli/commands.h"
#include "cli/complaint.h"
#include "cli/exit_codes.h"
#include "cli/ledger_path.h"
#include "ledger/store.h"

namespace arbiter::cli {
namespace {

constexpr FlagSpec kTokenDbFlag = {
    "db", "DIR|URI",
    "the server's data directory (default $ARBITER_DATA, else ./arbiter-data), or the "
    "PostgreSQL database its servers share, postgresql://USER@HOST:PORT/DB"};

constexpr FlagSpec kTokenCreateFlags[] = {
    {"role", "ROLE", "ARBITER, CHIEF_ARBITER, AUDITOR, SOFTWARE or VENUE", false, true},
    {"name", "NAME", "who holds the token, recorded as the actor of what it writes", false, true},
    {"game", "ID", "an ARBITER's game ('*': every game)", true},
    {"ttl", "DURATION",
     "how long it lives, e.g. 720h or 90m (default 720h); 'none': until revoked"},
    kTokenDbFlag,
};
constexpr CommandSpec kTokenCreate = {
    .name = "token create",
    .summary = "issue a token; the secret is printed once, on stdout (only its hash is kept)",
    .flags = kTokenCreateFlags,
    .notes =
        "Roles: ARBITER records in its --game games; CHIEF_ARBITER everything but a\n"
        "venue's sync; AUDITOR reads, verifies, exports; SOFTWARE reads and watches; VENUE\n"
        "syncs a venue's games into a federation's server (`arbiter sync --to ADDR`). Every\n"
        "role reads every game. Once any token exists the server requires one on every\n"
        "call.\n",
};

constexpr FlagSpec kTokenDbOnly[] = {kTokenDbFlag};
constexpr CommandSpec kRevoke = {
    .name = "token revoke",
    .positionals = "ID",
    .summary = "revoke a token by its id (see `arbiter token list`); at once on a running server",
    .min_positionals = 1,
    .max_positionals = 1,
    .flags = kTokenDbOnly,
};
constexpr CommandSpec kTokenList = {
    .name = "token list",
    .summary = "every token: id, role, name, created, revoked or active, expiry, games",
    .flags = kTokenDbOnly,
};

std::string Utc(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

// "expires 2026-06-28T10:00:00Z", "expired ...", or "no expiry".
std::string Expiry(const service::TokenInfo& t, absl::Time now) {
  if (!t.expires.has_value()) return "no expiry";
  return (now >= *t.expires ? "expired " : "expires ") + Utc(*t.expires);
}

// A folder with a signing key and no ledger is a PostgreSQL server's --state
// folder: its tokens are the database's, and a ledger.db made here would be
// read by no server. FAILED_PRECONDITION saying so.
absl::Status CheckNotAStateFolder(const std::string& location) {
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(location);
  if (!store.ok() || (*store)->shared()) return absl::OkStatus();
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::path(location) / "ledger.key", ec)) {
    return absl::OkStatus();
  }
  absl::StatusOr<std::unique_ptr<ledger::LogSource>> reader = (*store)->OpenReader();
  if (!absl::IsNotFound(reader.status())) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat(location,
                   " holds a signing key but no ledger: a PostgreSQL server's --state folder? Its "
                   "tokens are its database's: --db postgresql://USER@HOST:PORT/DB"));
}

// The token store of the data directory or database, as for `arbiter
// serve`; nullptr after printing why, with `*exit` the exit code.
std::unique_ptr<service::TokenStore> OpenStore(const Args& args, int* exit) {
  const std::string location = DataDirectory(args);
  if (absl::Status s = CheckNotAStateFolder(location); !s.ok()) {
    *exit = Complain("token", s.message(), kExitBadInput);
    return nullptr;
  }
  absl::StatusOr<std::unique_ptr<service::TokenStore>> store = service::TokenStore::Open(location);
  if (!store.ok()) {
    *exit = Complain("token", store.status().message(), kExitUnavailable);
    return nullptr;
  }
  return *std::move(store);
}

int TokenFailed(const absl::Status& status) {
  return Complain("token", status.message(), ExitCodeOf(status));
}

int CreateToken(const Args& args) {
  const std::string role_name = *args.Value("role");
  const std::string name = *args.Value("name");
  std::optional<service::Role> role = service::ParseRole(UpperChoice(role_name));
  if (!role.has_value()) {
    return UsageError(kTokenCreate,
                      "--role must be ARBITER, CHIEF_ARBITER, AUDITOR, SOFTWARE or VENUE");
  }
  std::optional<absl::Duration> ttl = service::kDefaultTokenTtl;
  if (std::optional<std::string> ttl_text = args.Value("ttl"); ttl_text == "none") {
    ttl.reset();
  } else if (ttl_text.has_value()) {
    absl::Duration d;
    if (!absl::ParseDuration(*ttl_text, &d) || d <= absl::ZeroDuration() ||
        d == absl::InfiniteDuration()) {
      return UsageError(kTokenCreate, "--ttl '" + *ttl_text +
                                          "': a positive duration such as 720h or 90m, or 'none'");
    }
    ttl = d;
  }
  int exit = kExitUnavailable;
  std::unique_ptr<service::TokenStore> store = OpenStore(args, &exit);
  if (store == nullptr) return exit;
  absl::StatusOr<std::string> secret = store->Create(*role, name, args.Values("game"), ttl);
  if (!secret.ok()) return TokenFailed(secret.status());
  std::printf("%s\n", secret->c_str());
  std::fprintf(stderr, "arbiter token: created %s token for %s (%s); it is shown only this once\n",
               service::RoleWithArticle(*role).c_str(), name.c_str(),
               ttl.has_value() ? ("expires " + Utc(absl::Now() + *ttl)).c_str() : "no expiry");
  return kExitOk;
}

int Revoke(const Args& args) {
  int exit = kExitUnavailable;
  std::unique_ptr<service::TokenStore> store = OpenStore(args, &exit);
  if (store == nullptr) return exit;
  const std::string& id = args.positionals()[0];
  if (absl::Status s = store->Revoke(id); !s.ok()) return TokenFailed(s);
  std::printf("revoked %s\n", id.c_str());
  return kExitOk;
}

int ListTokens(const Args& args) {
  int exit = kExitUnavailable;
  std::unique_ptr<service::TokenStore> store = OpenStore(args, &exit);
  if (store == nullptr) return exit;
  const absl::Time now = absl::Now();
  absl::StatusOr<std::vector<service::TokenInfo>> tokens = store->List();
  if (!tokens.ok()) return TokenFailed(tokens.status());
  for (const service::TokenInfo& t : *tokens) {
    std::string games_text;
    for (const std::string& g : t.games) games_text += (games_text.empty() ? "" : ",") + g;
    const std::string state = t.revoked.has_value() ? "revoked " + Utc(*t.revoked) : "active";
    std::printf("%s  %-13s  %-20s  created %s  %s  %s%s\n", t.id.c_str(),
                std::string(service::RoleName(t.role)).c_str(), t.name.c_str(),
                Utc(t.created).c_str(), state.c_str(), Expiry(t, now).c_str(),
                games_text.empty() ? "" : ("  games " + games_text).c_str());
  }
  return kExitOk;
}

constexpr Subcommand kTokenSubcommands[] = {
    {&kTokenCreate, CreateToken}, {&kRevoke, Revoke}, {&kTokenList, ListTokens}};
constexpr CommandGroup kToken = {
    .name = "token",
    .summary =
        "the bearer tokens of a server's data directory or database (see .github/SECURITY.md)",
    .subcommands = kTokenSubcommands,
};

}  // namespace

int RunToken(int argc, char** argv) { return RunGroup(kToken, argc, argv); }

}  // namespace arbiter::cli
