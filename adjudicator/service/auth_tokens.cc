#include "adjudicator/service/auth_tokens.h"

#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "ledger/sqlite.h"
#include "ledger/store.h"
#include "proto/canonical/sha256.h"

namespace arbiter::service {
namespace {

// The file an earlier release kept tokens in, and the newest schema of it
// (PRAGMA user_version; 0 lacked `expires`).
constexpr char kLegacyFile[] = "tokens.db";
constexpr int kLegacySchemaVersion = 1;

absl::StatusOr<TokenInfo> Info(const ledger::TokenRow& row) {
  TokenInfo t;
  t.id = row.id;
  std::optional<Role> role = ParseRole(row.role);
  if (!role.has_value())
    return absl::DataLossError("token " + row.id + ": unknown role " + row.role);
  t.role = *role;
  t.name = row.name;
  if (!row.games.empty()) t.games = absl::StrSplit(row.games, ',');
  t.created = absl::FromUnixSeconds(row.created);
  if (row.revoked.has_value()) t.revoked = absl::FromUnixSeconds(*row.revoked);
  if (row.expires.has_value()) t.expires = absl::FromUnixSeconds(*row.expires);
  return t;
}

absl::StatusOr<int64_t> QueryInt(const ledger::Db& db, const char* sql) {
  absl::StatusOr<ledger::Stmt> s = ledger::Stmt::Prepare(db, sql);
  if (!s.ok()) return s.status();
  absl::StatusOr<bool> row = s->Step();
  if (!row.ok()) return row.status();
  return *row ? s->Int(0) : 0;
}

// The rows of an earlier release's tokens.db at `path`.
absl::StatusOr<std::vector<ledger::TokenRow>> ReadLegacy(const std::string& path) {
  absl::StatusOr<ledger::Db> db = ledger::Db::Open(path, SQLITE_OPEN_READWRITE);
  if (!db.ok()) return db.status();
  absl::StatusOr<int64_t> version = QueryInt(*db, "PRAGMA user_version");
  if (!version.ok()) return version.status();
  if (*version > kLegacySchemaVersion) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, " has token schema version ", *version, "; this arbiter knows up to ",
                     kLegacySchemaVersion, ": use a newer arbiter"));
  }
  absl::StatusOr<int64_t> has_expires =
      QueryInt(*db, "SELECT count(*) FROM pragma_table_info('tokens') WHERE name = 'expires'");
  if (!has_expires.ok()) return has_expires.status();
  absl::StatusOr<ledger::Stmt> s = ledger::Stmt::Prepare(
      *db,
      absl::StrCat("SELECT id, sha256, role, name, games, created, revoked, ",
                   *has_expires > 0 ? "expires" : "NULL", " FROM tokens ORDER BY created, id"));
  if (!s.ok()) return s.status();
  std::vector<ledger::TokenRow> rows;
  for (;;) {
    absl::StatusOr<bool> row = s->Step();
    if (!row.ok()) return row.status();
    if (!*row) return rows;
    ledger::TokenRow t{s->Text(0), s->Text(1), s->Text(2), s->Text(3), s->Text(4), s->Int(5)};
    if (!s->IsNull(6)) t.revoked = s->Int(6);
    if (!s->IsNull(7)) t.expires = s->Int(7);
    rows.push_back(std::move(t));
  }
}

std::string LegacyPath(const std::string& dir) {
  return (std::filesystem::path(dir) / kLegacyFile).string();
}

// Imports `dir`/tokens.db into `tables` once: a file still writable has not
// been imported; once it has, it is made read-only and left beside, for
// whoever wants to see what it held.
absl::Status ImportLegacy(ledger::ServerTables& tables, const std::string& dir) {
  absl::StatusOr<std::vector<ledger::TokenRow>> rows = ReadLegacyTokens(dir);
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return MarkLegacyTokensImported(dir);
  absl::StatusOr<int> added = tables.ImportTokens(*rows);
  if (!added.ok()) {
    return absl::Status(added.status().code(),
                        absl::StrCat(LegacyPath(dir), ": ", added.status().message()));
  }
  return MarkLegacyTokensImported(dir);
}

std::string Utc(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

// A token's name or a game id: a name with its own rule, not grpc_status.h's
// Printable (which escapes); named apart so that a unity build never takes
// one for the other.
bool ValidTokenWord(const std::string& s) {
  if (s.empty() || s.size() > 200) return false;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f || c == ',') return false;
  }
  return true;
}

absl::Status CheckNewToken(Role role, const std::string& name,
                           const std::vector<std::string>& games,
                           std::optional<absl::Duration> ttl) {
  if (!ValidTokenWord(name)) {
    return absl::InvalidArgumentError("a token needs a name: 1-200 printable characters, no comma");
  }
  if (role == Role::kArbiter && games.empty()) {
    return absl::InvalidArgumentError("an ARBITER token needs the games it records (or '*')");
  }
  if (role != Role::kArbiter && !games.empty()) {
    return absl::InvalidArgumentError("only an ARBITER token is assigned games");
  }
  for (const std::string& g : games) {
    if (!ValidTokenWord(g)) return absl::InvalidArgumentError("bad game id '" + g + "'");
  }
  if (ttl.has_value() && *ttl <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("a token's lifetime (ttl) must be positive");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<ledger::TokenRow>> ReadLegacyTokens(const std::string& dir) {
  const std::string path = LegacyPath(dir);
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || (st.st_mode & S_IWUSR) == 0) {
    return std::vector<ledger::TokenRow>();
  }
  return ReadLegacy(path);
}

absl::Status MarkLegacyTokensImported(const std::string& dir) {
  const std::string path = LegacyPath(dir);
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || (st.st_mode & S_IWUSR) == 0) return absl::OkStatus();
  if (chmod(path.c_str(), S_IRUSR) != 0) {
    return absl::UnavailableError(absl::StrCat("cannot make ", path, " read-only once imported"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<TokenStore>> TokenStore::Open(const std::string& location,
                                                             Clock now) {
  return Open(location, ledger::IsSharedStore(location) ? "" : location, std::move(now));
}

absl::StatusOr<std::unique_ptr<TokenStore>> TokenStore::Open(const std::string& location,
                                                             const std::string& own_dir,
                                                             Clock now) {
  absl::StatusOr<std::unique_ptr<ledger::Store>> store = ledger::OpenStore(location);
  if (!store.ok()) return store.status();
  absl::StatusOr<std::unique_ptr<ledger::ServerTables>> tables = (*store)->OpenServerTables(false);
  if (!tables.ok()) return tables.status();
  if (!own_dir.empty()) {
    if (absl::Status s = ImportLegacy(**tables, own_dir); !s.ok()) return s;
  }
  return std::unique_ptr<TokenStore>(new TokenStore(*std::move(tables), std::move(now)));
}

absl::StatusOr<std::string> TokenStore::Create(Role role, const std::string& name,
                                               const std::vector<std::string>& games,
                                               std::optional<absl::Duration> ttl) {
  if (absl::Status s = CheckNewToken(role, name, games, ttl); !s.ok()) return s;
  unsigned char random[32];
  if (RAND_bytes(random, sizeof random) != 1) {
    return absl::InternalError("no randomness for a token (RAND_bytes failed)");
  }
  const std::string secret =
      "arb_" + ToHex(absl::string_view(reinterpret_cast<char*>(random), sizeof random));
  const Sha256Digest hash = Sha256(secret);
  const absl::Time now = now_();
  ledger::TokenRow row{ToHex(hash).substr(0, 8),    std::string(AsBytes(hash)),
                       std::string(RoleName(role)), name,
                       absl::StrJoin(games, ","),   absl::ToUnixSeconds(now)};
  if (ttl.has_value()) row.expires = absl::ToUnixSeconds(now + *ttl);
  if (absl::Status s = tables_->InsertToken(row); !s.ok()) return s;
  return secret;
}

absl::Status TokenStore::Revoke(const std::string& id) {
  absl::StatusOr<bool> found = tables_->RevokeToken(id, absl::ToUnixSeconds(now_()));
  if (!found.ok()) return found.status();
  if (!*found) return absl::NotFoundError("no token with id " + id);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<TokenInfo>> TokenStore::List() {
  absl::StatusOr<std::vector<ledger::TokenRow>> rows = tables_->Tokens();
  if (!rows.ok()) return rows.status();
  std::vector<TokenInfo> out;
  for (const ledger::TokenRow& row : *rows) {
    absl::StatusOr<TokenInfo> t = Info(row);
    if (!t.ok()) return t.status();
    out.push_back(*std::move(t));
  }
  return out;
}

absl::StatusOr<TokenInfo> TokenStore::Verify(absl::string_view secret) {
  const Sha256Digest hash = Sha256(secret);
  return Live(tables_->TokenByHash(std::string(AsBytes(hash))));
}

absl::StatusOr<TokenInfo> TokenStore::VerifyId(const std::string& id) {
  return Live(tables_->TokenById(id));
}

absl::StatusOr<TokenInfo> TokenStore::Live(absl::StatusOr<std::optional<ledger::TokenRow>> row) {
  if (!row.ok()) return row.status();
  // Unknown and revoked alike: a caller learns nothing about other tokens.
  if (!row->has_value() || (*row)->revoked.has_value()) {
    return absl::UnauthenticatedError("unknown or revoked token");
  }
  absl::StatusOr<TokenInfo> t = Info(**row);
  if (!t.ok()) return t.status();
  if (t->expires.has_value() && now_() >= *t->expires) {
    return absl::UnauthenticatedError(absl::StrCat("token ", t->id, " (", t->name, ") expired at ",
                                                   Utc(*t->expires),
                                                   "; ask for a new one (arbiter token create)"));
  }
  return t;
}

absl::StatusOr<bool> TokenStore::Any() {
  // Tokens are never deleted: once one is seen the answer stays true.
  if (any_.load(std::memory_order_acquire)) return true;
  absl::StatusOr<bool> any = tables_->AnyToken();
  if (!any.ok()) return any.status();
  if (*any) any_.store(true, std::memory_order_release);
  return *any;
}

}  // namespace arbiter::service
