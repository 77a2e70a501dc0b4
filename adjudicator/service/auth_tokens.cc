#include "adjudicator/service/auth_tokens.h"

#include <openssl/rand.h>

#include <filesystem>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "proto/canonical/sha256.h"

namespace arbiter::service {
namespace {

// Version 1 of the schema (PRAGMA user_version); version 0 lacked `expires`.
constexpr int kSchemaVersion = 1;
constexpr char kSchema[] =
    "CREATE TABLE IF NOT EXISTS tokens ("
    " id TEXT PRIMARY KEY,"
    " sha256 BLOB NOT NULL UNIQUE,"
    " role TEXT NOT NULL,"
    " name TEXT NOT NULL,"
    " games TEXT NOT NULL,"
    " created INTEGER NOT NULL,"
    " revoked INTEGER,"
    " expires INTEGER)";  // unix seconds; NULL: no expiry
constexpr char kColumns[] = "id, role, name, games, created, revoked, expires";

absl::StatusOr<TokenInfo> Row(const ledger::Stmt& s) {
  TokenInfo t;
  t.id = s.Text(0);
  std::optional<Role> role = ParseRole(s.Text(1));
  if (!role.has_value()) return absl::DataLossError("tokens.db: unknown role " + s.Text(1));
  t.role = *role;
  t.name = s.Text(2);
  const std::string games = s.Text(3);
  if (!games.empty()) t.games = absl::StrSplit(games, ',');
  t.created = absl::FromUnixSeconds(s.Int(4));
  if (!s.IsNull(5)) t.revoked = absl::FromUnixSeconds(s.Int(5));
  if (!s.IsNull(6)) t.expires = absl::FromUnixSeconds(s.Int(6));
  return t;
}

absl::StatusOr<int64_t> QueryInt(const ledger::Db& db, const char* sql) {
  absl::StatusOr<ledger::Stmt> s = ledger::Stmt::Prepare(db, sql);
  if (!s.ok()) return s.status();
  absl::StatusOr<bool> row = s->Step();
  if (!row.ok()) return row.status();
  return *row ? s->Int(0) : 0;
}

// Brings the store to kSchemaVersion in one transaction: creates it, or adds
// what an older version lacks; refuses a newer one, whose meaning this
// build does not know.
absl::Status Migrate(ledger::Db& db, const std::string& path) {
  // Rolled back unless committed.
  absl::StatusOr<ledger::Transaction> tx = ledger::Transaction::Write(db);
  if (!tx.ok()) return tx.status();
  absl::StatusOr<int64_t> version = QueryInt(db, "PRAGMA user_version");
  if (!version.ok()) return version.status();
  if (*version > kSchemaVersion) {
    return absl::FailedPreconditionError(absl::StrCat(path, " has token schema version ", *version,
                                                      "; this arbiter knows up to ", kSchemaVersion,
                                                      ": use a newer arbiter"));
  }
  if (absl::Status s = db.Exec(kSchema); !s.ok()) return s;
  absl::StatusOr<int64_t> has_expires =
      QueryInt(db, "SELECT count(*) FROM pragma_table_info('tokens') WHERE name = 'expires'");
  if (!has_expires.ok()) return has_expires.status();
  if (*has_expires == 0) {  // version 0: its tokens keep no expiry
    if (absl::Status s = db.Exec("ALTER TABLE tokens ADD COLUMN expires INTEGER"); !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = db.Exec(absl::StrCat("PRAGMA user_version = ", kSchemaVersion)); !s.ok()) {
    return s;
  }
  return tx->Commit();
}

std::string Utc(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

bool Printable(const std::string& s) {
  if (s.empty() || s.size() > 200) return false;
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f || c == ',') return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<std::unique_ptr<TokenStore>> TokenStore::Open(const std::string& data_dir,
                                                             Clock now) {
  std::error_code ec;
  std::filesystem::create_directories(data_dir, ec);
  if (ec) return absl::UnavailableError("cannot create " + data_dir + ": " + ec.message());
  absl::StatusOr<ledger::Db> db = ledger::Db::Open(
      data_dir + "/tokens.db", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX);
  if (!db.ok()) return db.status();
  if (absl::Status s = db->Exec("PRAGMA journal_mode=WAL"); !s.ok()) return s;
  if (absl::Status s = Migrate(*db, data_dir + "/tokens.db"); !s.ok()) return s;
  std::filesystem::permissions(
      data_dir + "/tokens.db",
      std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
      ec);  // best effort: the hashes are not secrets
  return std::unique_ptr<TokenStore>(new TokenStore(*std::move(db), std::move(now)));
}

absl::StatusOr<std::string> TokenStore::Create(Role role, const std::string& name,
                                               const std::vector<std::string>& games,
                                               std::optional<absl::Duration> ttl) {
  if (!Printable(name)) {
    return absl::InvalidArgumentError("a token needs a name: 1-200 printable characters, no comma");
  }
  if (role == Role::kArbiter && games.empty()) {
    return absl::InvalidArgumentError("an ARBITER token needs the games it records (or '*')");
  }
  if (role != Role::kArbiter && !games.empty()) {
    return absl::InvalidArgumentError("only an ARBITER token is assigned games");
  }
  for (const std::string& g : games) {
    if (!Printable(g)) return absl::InvalidArgumentError("bad game id '" + g + "'");
  }
  if (ttl.has_value() && *ttl <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("a token's lifetime (ttl) must be positive");
  }
  unsigned char random[32];
  if (RAND_bytes(random, sizeof random) != 1) {
    return absl::InternalError("no randomness for a token (RAND_bytes failed)");
  }
  const std::string secret =
      "arb_" + ToHex(absl::string_view(reinterpret_cast<char*>(random), sizeof random));
  const Sha256Digest hash = Sha256(secret);
  const std::string id = ToHex(hash).substr(0, 8);

  const absl::Time now = now_();
  absl::MutexLock lock(&mu_);
  absl::StatusOr<ledger::Stmt> s =
      ledger::Stmt::Prepare(db_,
                            "INSERT INTO tokens (id, sha256, role, name, games, created, expires) "
                            "VALUES (?,?,?,?,?,?,?)");
  if (!s.ok()) return s.status();
  s->Bind(1, id)
      .BindBlob(2, AsBytes(hash))
      .Bind(3, RoleName(role))
      .Bind(4, name)
      .Bind(5, absl::StrJoin(games, ","))
      .Bind(6, absl::ToUnixSeconds(now));
  if (ttl.has_value()) {
    s->Bind(7, absl::ToUnixSeconds(now + *ttl));
  } else {
    s->BindNull(7);
  }
  if (absl::Status r = s->Run(); !r.ok()) return r;
  return secret;
}

absl::Status TokenStore::Revoke(const std::string& id) {
  const absl::Time now = now_();
  absl::MutexLock lock(&mu_);
  absl::StatusOr<ledger::Stmt> s =
      ledger::Stmt::Prepare(db_, "UPDATE tokens SET revoked = coalesce(revoked, ?) WHERE id = ?");
  if (!s.ok()) return s.status();
  s->Bind(1, absl::ToUnixSeconds(now)).Bind(2, id);
  if (absl::Status r = s->Run(); !r.ok()) return r;
  if (sqlite3_changes(db_.get()) == 0) return absl::NotFoundError("no token with id " + id);
  return absl::OkStatus();
}

std::vector<TokenInfo> TokenStore::List() {
  absl::MutexLock lock(&mu_);
  std::vector<TokenInfo> out;
  absl::StatusOr<ledger::Stmt> s = ledger::Stmt::Prepare(
      db_, absl::StrCat("SELECT ", kColumns, " FROM tokens ORDER BY created, id"));
  if (!s.ok()) return out;
  while (true) {
    absl::StatusOr<bool> row = s->Step();
    if (!row.ok() || !*row) break;
    if (absl::StatusOr<TokenInfo> t = Row(*s); t.ok()) out.push_back(*std::move(t));
  }
  return out;
}

absl::StatusOr<TokenInfo> TokenStore::Verify(absl::string_view secret) {
  const Sha256Digest hash = Sha256(secret);
  const absl::Time now = now_();
  absl::MutexLock lock(&mu_);
  absl::StatusOr<ledger::Stmt*> s =
      Kept(by_hash_, absl::StrCat("SELECT ", kColumns, " FROM tokens WHERE sha256 = ?"));
  if (!s.ok()) return s.status();
  ledger::Stmt& q = **s;
  q.BindBlob(1, AsBytes(hash));
  absl::StatusOr<bool> row = q.Step();
  absl::StatusOr<TokenInfo> t =
      !row.ok() ? row.status()
      : *row    ? Row(q)
             // Unknown and revoked alike: a caller learns nothing about other tokens.
             : absl::UnauthenticatedError("unknown or revoked token");
  q.Reset();  // ends the read: nothing is held between calls
  if (!t.ok()) return t.status();
  if (t->revoked.has_value()) return absl::UnauthenticatedError("unknown or revoked token");
  if (t->expires.has_value() && now >= *t->expires) {
    return absl::UnauthenticatedError(absl::StrCat("token ", t->id, " (", t->name, ") expired at ",
                                                   Utc(*t->expires),
                                                   "; ask for a new one (arbiter token create)"));
  }
  return *std::move(t);
}

absl::StatusOr<bool> TokenStore::Any() {
  // Tokens are never deleted: once one is seen the answer stays true.
  if (any_.load(std::memory_order_acquire)) return true;
  absl::MutexLock lock(&mu_);
  absl::StatusOr<ledger::Stmt*> s = Kept(any_query_, "SELECT 1 FROM tokens LIMIT 1");
  if (!s.ok()) return s.status();
  absl::StatusOr<bool> row = (*s)->Step();
  (*s)->Reset();
  if (!row.ok()) return row.status();
  if (*row) any_.store(true, std::memory_order_release);
  return *row;
}

absl::StatusOr<ledger::Stmt*> TokenStore::Kept(std::optional<ledger::Stmt>& kept,
                                               absl::string_view sql) {
  if (!kept.has_value()) {
    absl::StatusOr<ledger::Stmt> s = ledger::Stmt::Prepare(db_, sql);
    if (!s.ok()) return s.status();
    kept = *std::move(s);
  }
  return &*kept;
}

}  // namespace arbiter::service
