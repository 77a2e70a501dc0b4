// The server's tables (server_tables.h) in a SQLite ledger's ledger.db, on
// a connection of their own, so `arbiter token` writes them while a server
// holds the ledger: SQLite lets one transaction write at a time and each
// waits out the other's (the busy timeout of Db::Open).
#include "ledger/sqlite/server_tables.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "ledger/sqlite.h"
#include "ledger/sqlite/schema.h"

namespace arbiter::ledger {
namespace {

// Not append-only, unlike the ledger's: a token is revoked, a session ends.
// Nothing here is audited; what a token wrote is, under its actor's name.
constexpr const char* kServerTables = R"sql(
CREATE TABLE IF NOT EXISTS tokens(
  id TEXT PRIMARY KEY,
  sha256 BLOB NOT NULL UNIQUE,
  role TEXT NOT NULL,
  name TEXT NOT NULL,
  games TEXT NOT NULL,
  created INTEGER NOT NULL,
  revoked INTEGER,
  expires INTEGER);
CREATE TABLE IF NOT EXISTS sessions(
  sha256 BLOB PRIMARY KEY,
  token_id TEXT NOT NULL,
  started INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_by_token ON sessions(token_id, started);
CREATE TABLE IF NOT EXISTS cosignatures(
  tree_size INTEGER NOT NULL,
  line TEXT NOT NULL,
  PRIMARY KEY(tree_size, line));
CREATE TABLE IF NOT EXISTS webhooks(
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  kinds TEXT NOT NULL,
  secret TEXT NOT NULL,
  created INTEGER NOT NULL,
  cursor INTEGER NOT NULL,
  disabled INTEGER,
  disabled_why TEXT NOT NULL DEFAULT '',
  lease_owner TEXT NOT NULL DEFAULT '',
  lease_until INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS webhook_deliveries(
  endpoint TEXT NOT NULL,
  id TEXT NOT NULL,
  position INTEGER NOT NULL,
  kind TEXT NOT NULL,
  body BLOB NOT NULL,
  attempts INTEGER NOT NULL,
  next_at INTEGER NOT NULL,
  failed INTEGER NOT NULL,
  last_error TEXT NOT NULL,
  PRIMARY KEY(endpoint, id));
)sql";

constexpr char kWebhookColumns[] =
    "id, url, kinds, secret, created, cursor, disabled, disabled_why";
constexpr char kDeliveryColumns[] =
    "endpoint, id, position, kind, body, attempts, next_at, failed, last_error";

WebhookRow ReadWebhook(const Stmt& s) {
  WebhookRow w;
  w.id = s.Text(0);
  w.url = s.Text(1);
  w.kinds = s.Text(2);
  w.secret = s.Text(3);
  w.created = s.Int(4);
  w.cursor = static_cast<uint64_t>(s.Int(5));
  if (!s.IsNull(6)) w.disabled = s.Int(6);
  w.disabled_why = s.Text(7);
  return w;
}

DeliveryRow ReadDelivery(const Stmt& s) {
  DeliveryRow d;
  d.endpoint = s.Text(0);
  d.id = s.Text(1);
  d.position = static_cast<uint64_t>(s.Int(2));
  d.kind = s.Text(3);
  d.body = s.Text(4);
  d.attempts = static_cast<int>(s.Int(5));
  d.next_at = s.Int(6);
  d.failed = s.Int(7) != 0;
  d.last_error = s.Text(8);
  return d;
}

constexpr char kTokenColumns[] = "id, sha256, role, name, games, created, revoked, expires";

TokenRow ReadToken(const Stmt& s) {
  TokenRow t;
  t.id = s.Text(0);
  t.sha256 = s.Text(1);
  t.role = s.Text(2);
  t.name = s.Text(3);
  t.games = s.Text(4);
  t.created = s.Int(5);
  if (!s.IsNull(6)) t.revoked = s.Int(6);
  if (!s.IsNull(7)) t.expires = s.Int(7);
  return t;
}

// The tokens' stamp, `<database>-tokens`: every change to the tokens made
// through these tables, in any process (a server's, `arbiter token`'s),
// grows it by a byte once committed. A server asks on every call whether
// any token exists (while it runs open) or which token a hash is; while the
// stamp is as it was when the table was last read, what was read then still
// holds, and it is given without reading the database again (a stat, not a
// read transaction), for at most the bound it was opened with
// (StoreOptions::tokens_kept_for): a change whose second bump failed, or a
// row written behind the tables' back (an sqlite3 shell), is read once that
// has passed.
class TokenStamp {
 public:
  // No path: never seen, so the table is read every time.
  explicit TokenStamp(std::string path) : path_(std::move(path)) {}

  // The stamp as it is now; none when it cannot be told (no path, or an
  // error other than its absence).
  struct Seen {
    bool exists = false;
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = 0;
    int64_t mtime_ns = 0;
    bool operator==(const Seen&) const = default;
  };
  std::optional<Seen> Look() const {
    if (path_.empty()) return std::nullopt;
    struct stat st;
    if (::stat(path_.c_str(), &st) != 0) {
      if (errno == ENOENT) return Seen{};
      return std::nullopt;
    }
    return Seen{true, st.st_dev, st.st_ino, st.st_size,
                static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
  }

  // Grows the stamp by a byte. Called before a change, to refuse it while
  // the stamp cannot be written, and after its commit, to tell readers.
  absl::Status Bump() const {
    if (path_.empty()) return absl::OkStatus();
    const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    bool wrote = false;
    if (fd >= 0) {
      wrote = ::write(fd, "+", 1) == 1;
      wrote = ::close(fd) == 0 && wrote;
    }
    if (wrote) return absl::OkStatus();
    return absl::UnavailableError(absl::StrCat(
        "cannot write ", path_,
        " (which tells a running server that the tokens changed): ", std::strerror(errno)));
  }

 private:
  const std::string path_;
};

class SqliteServerTables final : public ServerTables {
 public:
  SqliteServerTables(Db db, std::string stamp, absl::Duration kept_for = absl::ZeroDuration())
      : db_(std::move(db)), stamp_(std::move(stamp)), kept_for_(kept_for) {}

  absl::Status InsertToken(const TokenRow& t) override {
    absl::MutexLock lock(&mu_);
    return Stamped([&] { return Insert(t); });
  }

  absl::StatusOr<int> ImportTokens(const std::vector<TokenRow>& tokens) override {
    absl::MutexLock lock(&mu_);
    int added = 0;
    absl::Status s = Stamped([&]() -> absl::Status {
      absl::StatusOr<int> n = Import(tokens);
      if (!n.ok()) return n.status();
      added = *n;
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    return added;
  }

  absl::StatusOr<std::optional<TokenRow>> TokenByHash(const std::string& sha256) override {
    absl::MutexLock lock(&mu_);
    // Asked on every call a token makes: a token found is kept while the
    // stamp is unchanged (a revocation moves it); an unknown hash is read
    // each time, so strangers' guesses fill no memory.
    const bool kept = KeptHolds();
    if (auto it = kept_by_hash_.find(sha256); kept && it != kept_by_hash_.end()) {
      return it->second;
    }
    absl::StatusOr<std::optional<TokenRow>> row = Find("sha256", sha256);
    if (kept && row.ok() && row->has_value() && kept_by_hash_.size() < kKeptTokens) {
      kept_by_hash_.emplace(sha256, **row);
    }
    return row;
  }

  absl::StatusOr<std::optional<TokenRow>> TokenById(const std::string& id) override {
    absl::MutexLock lock(&mu_);
    return Find("id", id);
  }

  absl::StatusOr<bool> RevokeToken(const std::string& id, int64_t at) override {
    absl::MutexLock lock(&mu_);
    bool found = false;
    absl::Status r = Stamped([&]() -> absl::Status {
      absl::StatusOr<Stmt> s =
          Stmt::Prepare(db_, "UPDATE tokens SET revoked = coalesce(revoked, ?) WHERE id = ?");
      if (!s.ok()) return s.status();
      if (absl::Status run = s->Bind(1, at).Bind(2, id).Run(); !run.ok()) return run;
      found = sqlite3_changes(db_.get()) > 0;
      return absl::OkStatus();
    });
    if (!r.ok()) return r;
    return found;
  }

  absl::StatusOr<std::vector<TokenRow>> Tokens() override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s = Stmt::Prepare(
        db_, absl::StrCat("SELECT ", kTokenColumns, " FROM tokens ORDER BY created, id"));
    if (!s.ok()) return s.status();
    std::vector<TokenRow> out;
    for (;;) {
      absl::StatusOr<bool> row = s->Step();
      if (!row.ok()) return row.status();
      if (!*row) return out;
      out.push_back(ReadToken(*s));
    }
  }

  absl::StatusOr<bool> AnyToken() override {
    absl::MutexLock lock(&mu_);
    // Asked on every call while a server runs open: answered from memory
    // while the stamp is unchanged (looked at before the table is read, so
    // a change committed meanwhile is read at the next ask).
    const bool kept = KeptHolds();
    if (kept && kept_any_.has_value()) return *kept_any_;
    absl::StatusOr<Stmt*> s = Kept("SELECT EXISTS(SELECT 1 FROM tokens)");
    if (!s.ok()) return s.status();
    ResetOnExit reset(**s);
    absl::StatusOr<bool> row = (*s)->Step();
    if (!row.ok()) return row.status();
    const bool any = *row && (*s)->Int(0) != 0;
    if (kept) kept_any_ = any;
    return any;
  }

  absl::Status OpenSession(const SessionRow& session, const SessionBounds& bounds) override;

  absl::StatusOr<std::optional<SessionRow>> SessionByHash(const std::string& sha256) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s =
        Stmt::Prepare(db_, "SELECT sha256, token_id, started FROM sessions WHERE sha256 = ?");
    if (!s.ok()) return s.status();
    s->BindBlob(1, sha256);
    absl::StatusOr<bool> row = s->Step();
    if (!row.ok()) return row.status();
    if (!*row) return std::nullopt;
    return SessionRow{s->Text(0), s->Text(1), s->Int(2)};
  }

  absl::Status CloseSession(const std::string& sha256) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s = Stmt::Prepare(db_, "DELETE FROM sessions WHERE sha256 = ?");
    if (!s.ok()) return s.status();
    return s->BindBlob(1, sha256).Run();
  }

  absl::StatusOr<std::string> KeepMeta(const std::string& key, const std::string& value) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s =
        Stmt::Prepare(db_, "INSERT OR IGNORE INTO meta(key, value) VALUES(?, ?)");
    if (!s.ok()) return s.status();
    if (absl::Status r = s->Bind(1, key).BindBlob(2, value).Run(); !r.ok()) return r;
    absl::StatusOr<std::optional<std::string>> kept = ReadMeta(key);
    if (!kept.ok()) return kept.status();
    if (!kept->has_value()) return absl::InternalError("meta row " + key + " vanished");
    return **kept;
  }

  absl::StatusOr<std::optional<std::string>> Meta(const std::string& key) override {
    absl::MutexLock lock(&mu_);
    return ReadMeta(key);
  }

  absl::Status AddCosignature(uint64_t tree_size, const std::string& line) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s =
        Stmt::Prepare(db_, "INSERT OR IGNORE INTO cosignatures(tree_size, line) VALUES (?, ?)");
    if (!s.ok()) return s.status();
    return s->Bind(1, static_cast<int64_t>(tree_size)).Bind(2, line).Run();
  }

  absl::StatusOr<std::vector<std::string>> Cosignatures(uint64_t tree_size) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s =
        Stmt::Prepare(db_, "SELECT line FROM cosignatures WHERE tree_size = ? ORDER BY rowid");
    if (!s.ok()) return s.status();
    s->Bind(1, static_cast<int64_t>(tree_size));
    std::vector<std::string> lines;
    for (;;) {
      absl::StatusOr<bool> row = s->Step();
      if (!row.ok()) return row.status();
      if (!*row) return lines;
      lines.push_back(s->Text(0));
    }
  }

  absl::StatusOr<std::map<uint64_t, int>> CosignatureCounts() override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s =
        Stmt::Prepare(db_, "SELECT tree_size, count(*) FROM cosignatures GROUP BY tree_size");
    if (!s.ok()) return s.status();
    std::map<uint64_t, int> counts;
    for (;;) {
      absl::StatusOr<bool> row = s->Step();
      if (!row.ok()) return row.status();
      if (!*row) return counts;
      counts[static_cast<uint64_t>(s->Int(0))] = static_cast<int>(s->Int(1));
    }
  }

  absl::Status AddWebhook(const WebhookRow& w) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s = Stmt::Prepare(
        db_, absl::StrCat("INSERT INTO webhooks (", kWebhookColumns, ") VALUES (?,?,?,?,?,?,?,?)"));
    if (!s.ok()) return s.status();
    s->Bind(1, w.id).Bind(2, w.url).Bind(3, w.kinds).Bind(4, w.secret).Bind(5, w.created);
    s->Bind(6, static_cast<int64_t>(w.cursor));
    w.disabled.has_value() ? s->Bind(7, *w.disabled) : s->BindNull(7);
    s->Bind(8, w.disabled_why);
    return s->Run();
  }

  absl::StatusOr<bool> RemoveWebhook(const std::string& id) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Transaction> tx = Transaction::Write(db_);
    if (!tx.ok()) return tx.status();
    if (absl::Status s = Delete("DELETE FROM webhook_deliveries WHERE endpoint = ?", id); !s.ok()) {
      return s;
    }
    if (absl::Status s = Delete("DELETE FROM webhooks WHERE id = ?", id); !s.ok()) return s;
    const bool removed = sqlite3_changes(db_.get()) > 0;
    if (absl::Status s = tx->Commit(); !s.ok()) return s;
    return removed;
  }

  absl::StatusOr<std::vector<WebhookRow>> Webhooks() override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s = Stmt::Prepare(
        db_, absl::StrCat("SELECT ", kWebhookColumns, " FROM webhooks ORDER BY created, id"));
    if (!s.ok()) return s.status();
    std::vector<WebhookRow> out;
    for (;;) {
      absl::StatusOr<bool> row = s->Step();
      if (!row.ok()) return row.status();
      if (!*row) return out;
      out.push_back(ReadWebhook(*s));
    }
  }

  absl::Status AdvanceWebhook(const std::string& endpoint, uint64_t cursor,
                              const std::vector<DeliveryRow>& made) override;

  absl::StatusOr<std::vector<DeliveryRow>> Deliveries(const std::string& endpoint) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s =
        Stmt::Prepare(db_, absl::StrCat("SELECT ", kDeliveryColumns,
                                        " FROM webhook_deliveries WHERE endpoint = ? "
                                        "ORDER BY position, id"));
    if (!s.ok()) return s.status();
    s->Bind(1, endpoint);
    std::vector<DeliveryRow> out;
    for (;;) {
      absl::StatusOr<bool> row = s->Step();
      if (!row.ok()) return row.status();
      if (!*row) return out;
      out.push_back(ReadDelivery(*s));
    }
  }

  absl::Status UpdateDelivery(const DeliveryRow& d) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s = Stmt::Prepare(
        db_,
        "UPDATE webhook_deliveries SET attempts = ?, next_at = ?, failed = ?, last_error = ? "
        "WHERE endpoint = ? AND id = ?");
    if (!s.ok()) return s.status();
    s->Bind(1, static_cast<int64_t>(d.attempts)).Bind(2, d.next_at).Bind(3, d.failed ? 1 : 0);
    return s->Bind(4, d.last_error).Bind(5, d.endpoint).Bind(6, d.id).Run();
  }

  absl::Status DeliveryDone(const std::string& endpoint, const std::string& id) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s =
        Stmt::Prepare(db_, "DELETE FROM webhook_deliveries WHERE endpoint = ? AND id = ?");
    if (!s.ok()) return s.status();
    return s->Bind(1, endpoint).Bind(2, id).Run();
  }

  absl::Status DisableWebhook(const std::string& endpoint, int64_t at,
                              const std::string& why) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s =
        Stmt::Prepare(db_, "UPDATE webhooks SET disabled = ?, disabled_why = ? WHERE id = ?");
    if (!s.ok()) return s.status();
    return s->Bind(1, at).Bind(2, why).Bind(3, endpoint).Run();
  }

  absl::StatusOr<int> RetryWebhook(const std::string& endpoint, int64_t now_ms) override;

  absl::StatusOr<bool> LeaseWebhook(const std::string& endpoint, const std::string& owner,
                                    int64_t now_ms, int64_t until_ms) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s =
        Stmt::Prepare(db_,
                      "UPDATE webhooks SET lease_owner = ?, lease_until = ? WHERE id = ? AND "
                      "(lease_owner = ? OR lease_until <= ?)");
    if (!s.ok()) return s.status();
    s->Bind(1, owner).Bind(2, until_ms).Bind(3, endpoint).Bind(4, owner).Bind(5, now_ms);
    if (absl::Status r = s->Run(); !r.ok()) return r;
    return sqlite3_changes(db_.get()) > 0;
  }

  absl::StatusOr<int64_t> WebhookLeaseEnd(const std::string& endpoint,
                                          const std::string& owner) override {
    absl::MutexLock lock(&mu_);
    absl::StatusOr<Stmt> s =
        Stmt::Prepare(db_, "SELECT lease_until FROM webhooks WHERE id = ? AND lease_owner <> ?");
    if (!s.ok()) return s.status();
    s->Bind(1, endpoint).Bind(2, owner);
    absl::StatusOr<bool> row = s->Step();
    if (!row.ok()) return row.status();
    return *row ? s->Int(0) : 0;
  }

 private:
  // Whether what was kept from the tokens table still holds: false when the
  // stamp cannot be told (then nothing is kept); what was kept under an
  // earlier stamp, or longer ago than kept_for_, is dropped first.
  bool KeptHolds() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    const std::optional<TokenStamp::Seen> seen = stamp_.Look();
    // The age by the steady clock: a wall clock set back must not keep them.
    const std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now();
    if (seen != kept_seen_ || !kept_since_ || absl::FromChrono(now - *kept_since_) >= kept_for_) {
      kept_seen_ = seen;
      kept_since_ = now;
      kept_any_.reset();
      kept_by_hash_.clear();
    }
    return seen.has_value() && kept_for_ > absl::ZeroDuration();
  }

  // Runs `change` to the tokens between two bumps of the stamp: nothing is
  // changed while the stamp cannot be written, and readers are told once
  // it is committed.
  absl::Status Stamped(absl::FunctionRef<absl::Status()> change)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (absl::Status s = stamp_.Bump(); !s.ok()) return s;
    if (absl::Status s = change(); !s.ok()) return s;
    return stamp_.Bump();
  }

  // ImportTokens' transaction.
  absl::StatusOr<int> Import(const std::vector<TokenRow>& tokens)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    absl::StatusOr<Transaction> tx = Transaction::Write(db_);
    if (!tx.ok()) return tx.status();
    int added = 0;
    for (const TokenRow& t : tokens) {
      absl::StatusOr<std::optional<TokenRow>> by_id = Find("id", t.id);
      if (!by_id.ok()) return by_id.status();
      if (by_id->has_value() && (*by_id)->sha256 == t.sha256) continue;  // imported before
      if (by_id->has_value()) return Clash(t.id);
      absl::Status s = Insert(t);
      if (absl::IsFailedPrecondition(s)) return Clash(t.id);  // its hash, under another id
      if (!s.ok()) return s;
      ++added;
    }
    if (absl::Status s = tx->Commit(); !s.ok()) return s;
    return added;
  }

  absl::Status Insert(const TokenRow& t) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    absl::StatusOr<Stmt> s = Stmt::Prepare(
        db_, absl::StrCat("INSERT INTO tokens (", kTokenColumns, ") VALUES (?,?,?,?,?,?,?,?)"));
    if (!s.ok()) return s.status();
    s->Bind(1, t.id).BindBlob(2, t.sha256).Bind(3, t.role).Bind(4, t.name).Bind(5, t.games);
    s->Bind(6, t.created);
    t.revoked.has_value() ? s->Bind(7, *t.revoked) : s->BindNull(7);
    t.expires.has_value() ? s->Bind(8, *t.expires) : s->BindNull(8);
    return s->Run();
  }

  static absl::Status Clash(const std::string& id) {
    return absl::FailedPreconditionError(
        absl::StrCat("token ", id, " clashes with another token of the database"));
  }

  absl::StatusOr<std::optional<TokenRow>> Find(const char* column, const std::string& value)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    // Asked on every call a token makes: a kept statement.
    absl::StatusOr<Stmt*> s =
        Kept(absl::StrCat("SELECT ", kTokenColumns, " FROM tokens WHERE ", column, " = ?"));
    if (!s.ok()) return s.status();
    ResetOnExit reset(**s);
    if (std::string_view(column) == "sha256") {
      (*s)->BindBlob(1, value);
    } else {
      (*s)->Bind(1, value);
    }
    absl::StatusOr<bool> row = (*s)->Step();
    if (!row.ok()) return row.status();
    if (!*row) return std::nullopt;
    return ReadToken(**s);
  }

  // The one integer `sql` selects, with `text` bound to its parameter when
  // it has one.
  absl::StatusOr<int64_t> Count(const char* sql, const std::string& text)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    absl::StatusOr<Stmt> s = Stmt::Prepare(db_, sql);
    if (!s.ok()) return s.status();
    if (!text.empty()) s->Bind(1, text);
    absl::StatusOr<bool> row = s->Step();
    if (!row.ok()) return row.status();
    return *row ? s->Int(0) : 0;
  }

  absl::Status Delete(const char* sql, const std::string& text) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    absl::StatusOr<Stmt> s = Stmt::Prepare(db_, sql);
    if (!s.ok()) return s.status();
    if (!text.empty()) s->Bind(1, text);
    return s->Run();
  }

  absl::StatusOr<std::optional<std::string>> ReadMeta(const std::string& key)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    absl::StatusOr<Stmt> s = Stmt::Prepare(db_, "SELECT value FROM meta WHERE key = ?");
    if (!s.ok()) return s.status();
    s->Bind(1, key);
    absl::StatusOr<bool> row = s->Step();
    if (!row.ok()) return row.status();
    if (!*row) return std::nullopt;
    return s->Text(0);
  }

  // The statement `sql`, prepared on first use and kept: compiling a query
  // cost far more than running it (most of a call's admission while a
  // server runs open). Each use resets it (ResetOnExit), so none holds a
  // read snapshot between calls and each sees what other connections
  // (`arbiter token`) committed meanwhile.
  absl::StatusOr<Stmt*> Kept(const std::string& sql) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    auto it = kept_.find(sql);
    if (it == kept_.end()) {
      absl::StatusOr<Stmt> s = Stmt::Prepare(db_, sql);
      if (!s.ok()) return s.status();
      it = kept_.emplace(sql, *std::move(s)).first;
    }
    return &it->second;
  }

  absl::Mutex mu_;
  Db db_ ABSL_GUARDED_BY(mu_);
  // Declared after db_: finalized before the connection closes.
  std::map<std::string, Stmt> kept_ ABSL_GUARDED_BY(mu_);
  const TokenStamp stamp_;
  // What was read from the tokens table since kept_since_, the stamp as
  // kept_seen_ says: AnyToken's answer, and the tokens TokenByHash found, by
  // hash (at most kKeptTokens).
  static constexpr size_t kKeptTokens = 1024;
  const absl::Duration kept_for_;
  std::optional<TokenStamp::Seen> kept_seen_ ABSL_GUARDED_BY(mu_);
  std::optional<std::chrono::steady_clock::time_point> kept_since_ ABSL_GUARDED_BY(mu_);
  std::optional<bool> kept_any_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, TokenRow> kept_by_hash_ ABSL_GUARDED_BY(mu_);
};

absl::Status SqliteServerTables::OpenSession(const SessionRow& session,
                                             const SessionBounds& bounds) {
  absl::MutexLock lock(&mu_);
  absl::StatusOr<Transaction> tx = Transaction::Write(db_);
  if (!tx.ok()) return tx.status();
  absl::StatusOr<Stmt> expired = Stmt::Prepare(db_, "DELETE FROM sessions WHERE started < ?");
  if (!expired.ok()) return expired.status();
  if (absl::Status s = expired->Bind(1, bounds.started_after).Run(); !s.ok()) return s;
  // A token's own sessions first, so a flood of sign-ins with one token
  // evicts only its own; then, when the table is full, the oldest of the
  // token holding the most.
  if (!session.token_id.empty()) {
    for (;;) {
      absl::StatusOr<int64_t> own =
          Count("SELECT count(*) FROM sessions WHERE token_id = ?", session.token_id);
      if (!own.ok()) return own.status();
      if (*own < bounds.per_token) break;
      if (absl::Status s = Delete(
              "DELETE FROM sessions WHERE sha256 = (SELECT sha256 FROM sessions WHERE token_id = ? "
              "ORDER BY started LIMIT 1)",
              session.token_id);
          !s.ok()) {
        return s;
      }
    }
  }
  for (;;) {
    absl::StatusOr<int64_t> all = Count("SELECT count(*) FROM sessions", "");
    if (!all.ok()) return all.status();
    if (*all < bounds.in_all) break;
    if (absl::Status s = Delete(
            "DELETE FROM sessions WHERE sha256 = (SELECT sha256 FROM sessions WHERE token_id = "
            "(SELECT token_id FROM sessions GROUP BY token_id ORDER BY count(*) DESC LIMIT 1) "
            "ORDER BY started LIMIT 1)",
            "");
        !s.ok()) {
      return s;
    }
  }
  absl::StatusOr<Stmt> insert =
      Stmt::Prepare(db_, "INSERT INTO sessions(sha256, token_id, started) VALUES(?, ?, ?)");
  if (!insert.ok()) return insert.status();
  insert->BindBlob(1, session.sha256).Bind(2, session.token_id).Bind(3, session.started);
  if (absl::Status s = insert->Run(); !s.ok()) return s;
  return tx->Commit();
}

absl::Status SqliteServerTables::AdvanceWebhook(const std::string& endpoint, uint64_t cursor,
                                                const std::vector<DeliveryRow>& made) {
  absl::MutexLock lock(&mu_);
  absl::StatusOr<Transaction> tx = Transaction::Write(db_);
  if (!tx.ok()) return tx.status();
  for (const DeliveryRow& d : made) {
    absl::StatusOr<Stmt> s =
        Stmt::Prepare(db_, absl::StrCat("INSERT OR IGNORE INTO webhook_deliveries (",
                                        kDeliveryColumns, ") VALUES (?,?,?,?,?,?,?,?,?)"));
    if (!s.ok()) return s.status();
    s->Bind(1, endpoint).Bind(2, d.id).Bind(3, static_cast<int64_t>(d.position)).Bind(4, d.kind);
    s->BindBlob(5, d.body).Bind(6, static_cast<int64_t>(d.attempts)).Bind(7, d.next_at);
    if (absl::Status r = s->Bind(8, d.failed ? 1 : 0).Bind(9, d.last_error).Run(); !r.ok()) {
      return r;
    }
  }
  absl::StatusOr<Stmt> s =
      Stmt::Prepare(db_, "UPDATE webhooks SET cursor = max(cursor, ?) WHERE id = ?");
  if (!s.ok()) return s.status();
  if (absl::Status r = s->Bind(1, static_cast<int64_t>(cursor)).Bind(2, endpoint).Run(); !r.ok()) {
    return r;
  }
  return tx->Commit();
}

absl::StatusOr<int> SqliteServerTables::RetryWebhook(const std::string& endpoint, int64_t now_ms) {
  absl::MutexLock lock(&mu_);
  absl::StatusOr<Transaction> tx = Transaction::Write(db_);
  if (!tx.ok()) return tx.status();
  absl::StatusOr<Stmt> enable =
      Stmt::Prepare(db_, "UPDATE webhooks SET disabled = NULL, disabled_why = '' WHERE id = ?");
  if (!enable.ok()) return enable.status();
  if (absl::Status r = enable->Bind(1, endpoint).Run(); !r.ok()) return r;
  if (sqlite3_changes(db_.get()) == 0) {
    return absl::NotFoundError(absl::StrCat("no webhook ", endpoint));
  }
  absl::StatusOr<Stmt> again =
      Stmt::Prepare(db_,
                    "UPDATE webhook_deliveries SET failed = 0, attempts = 0, next_at = ? "
                    "WHERE endpoint = ? AND failed = 1");
  if (!again.ok()) return again.status();
  if (absl::Status r = again->Bind(1, now_ms).Bind(2, endpoint).Run(); !r.ok()) return r;
  const int n = sqlite3_changes(db_.get());
  if (absl::Status r = tx->Commit(); !r.ok()) return r;
  return n;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ServerTables>> OpenSqliteServerTables(
    const std::string& database, const char* vfs, absl::Duration tokens_kept_for) {
  absl::StatusOr<Db> db = Db::Open(database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs);
  if (!db.ok()) return db.status();
  // The ledger's tables too: a folder where `arbiter token create` ran
  // first is a ledger like any other.
  if (absl::Status s = PrepareSchema(*db); !s.ok()) return s;
  absl::StatusOr<Transaction> tx = Transaction::Write(*db);
  if (!tx.ok()) return tx.status();
  if (absl::Status s = db->Exec(kServerTables); !s.ok()) return s;
  if (absl::Status s = tx->Commit(); !s.ok()) return s;
  return std::unique_ptr<ServerTables>(
      new SqliteServerTables(*std::move(db), database + "-tokens", tokens_kept_for));
}

absl::StatusOr<std::unique_ptr<ServerTables>> OpenSqliteServerTablesToRead(
    const std::string& database, const char* vfs) {
  absl::StatusOr<Db> db = Db::OpenReadOnly(database, vfs);
  if (!db.ok()) return db.status();
  absl::StatusOr<Stmt> s = Stmt::Prepare(
      *db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'cosignatures'");
  if (!s.ok()) return s.status();
  absl::StatusOr<bool> row = s->Step();
  if (!row.ok()) return row.status();
  // Read only: no stamp (a reader writes nothing, and asks too rarely to
  // keep an answer).
  if (s->Int(0) > 0)
    return std::unique_ptr<ServerTables>(new SqliteServerTables(*std::move(db), ""));
  // A ledger of an older release, without these tables: they read as
  // empty, from an empty database of their own.
  absl::StatusOr<Db> empty = Db::Open(":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (!empty.ok()) return empty.status();
  if (absl::Status st = empty->Exec(absl::StrCat(
          "CREATE TABLE meta(key TEXT PRIMARY KEY, value BLOB NOT NULL);", kServerTables));
      !st.ok()) {
    return st;
  }
  return std::unique_ptr<ServerTables>(new SqliteServerTables(*std::move(empty), ""));
}

}  // namespace arbiter::ledger
