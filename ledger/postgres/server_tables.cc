// The server's tables (server_tables.h) in a PostgreSQL ledger, on a
// connection of their own, shared by every server of the database: a token
// created or revoked through any of them is every server's at once.
#include "ledger/postgres/server_tables.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "ledger/postgres/log_reader.h"

namespace arbiter::ledger {
namespace {

// The advisory lock under which these tables are made, a session is opened
// (its bounds counted and kept by one server at a time) and tokens are
// imported ("arbiter\x05"; the ledger's own are others).
constexpr int64_t kServerTablesLock = 0x6172626974657205;

// As in the SQLite ledger (sqlite/server_tables.cc); `seq` keeps the order
// in which cosignatures were added.
constexpr const char* kPgServerTables = R"sql(
CREATE TABLE IF NOT EXISTS tokens(
  id TEXT PRIMARY KEY,
  sha256 BYTEA NOT NULL UNIQUE,
  role TEXT NOT NULL,
  name TEXT NOT NULL,
  games TEXT NOT NULL,
  created BIGINT NOT NULL,
  revoked BIGINT,
  expires BIGINT);
CREATE TABLE IF NOT EXISTS sessions(
  sha256 BYTEA PRIMARY KEY,
  token_id TEXT NOT NULL,
  started BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_by_token ON sessions(token_id, started);
CREATE TABLE IF NOT EXISTS cosignatures(
  tree_size BIGINT NOT NULL,
  line TEXT NOT NULL,
  seq BIGSERIAL,
  PRIMARY KEY(tree_size, line));
CREATE TABLE IF NOT EXISTS webhooks(
  id TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  kinds TEXT NOT NULL,
  secret TEXT NOT NULL,
  created BIGINT NOT NULL,
  cursor BIGINT NOT NULL,
  disabled BIGINT,
  disabled_why TEXT NOT NULL DEFAULT '',
  lease_owner TEXT NOT NULL DEFAULT '',
  lease_until BIGINT NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS webhook_deliveries(
  endpoint TEXT NOT NULL,
  id TEXT NOT NULL,
  position BIGINT NOT NULL,
  kind TEXT NOT NULL,
  body BYTEA NOT NULL,
  attempts INT NOT NULL,
  next_at BIGINT NOT NULL,
  failed INT NOT NULL,
  last_error TEXT NOT NULL,
  PRIMARY KEY(endpoint, id));
)sql";

constexpr char kPgWebhookColumns[] =
    "id, url, kinds, secret, created, cursor, disabled, disabled_why";
constexpr char kPgDeliveryColumns[] =
    "endpoint, id, position, kind, body, attempts, next_at, failed, last_error";

WebhookRow ReadWebhook(const PgResult& r, int i) {
  WebhookRow w;
  w.id = r.Bytes(i, 0);
  w.url = r.Bytes(i, 1);
  w.kinds = r.Bytes(i, 2);
  w.secret = r.Bytes(i, 3);
  w.created = r.Int(i, 4);
  w.cursor = static_cast<uint64_t>(r.Int(i, 5));
  if (!r.IsNull(i, 6)) w.disabled = r.Int(i, 6);
  w.disabled_why = r.Bytes(i, 7);
  return w;
}

DeliveryRow ReadDelivery(const PgResult& r, int i) {
  DeliveryRow d;
  d.endpoint = r.Bytes(i, 0);
  d.id = r.Bytes(i, 1);
  d.position = static_cast<uint64_t>(r.Int(i, 2));
  d.kind = r.Bytes(i, 3);
  d.body = r.Bytes(i, 4);
  d.attempts = static_cast<int>(r.Int(i, 5));
  d.next_at = r.Int(i, 6);
  d.failed = r.Int(i, 7) != 0;
  d.last_error = r.Bytes(i, 8);
  return d;
}

constexpr char kPgTokenColumns[] = "id, sha256, role, name, games, created, revoked, expires";

TokenRow ReadToken(const PgResult& r, int i) {
  TokenRow t;
  t.id = r.Bytes(i, 0);
  t.sha256 = r.Bytes(i, 1);
  t.role = r.Bytes(i, 2);
  t.name = r.Bytes(i, 3);
  t.games = r.Bytes(i, 4);
  t.created = r.Int(i, 5);
  if (!r.IsNull(i, 6)) t.revoked = r.Int(i, 6);
  if (!r.IsNull(i, 7)) t.expires = r.Int(i, 7);
  return t;
}

PgParams& Optional(PgParams& p, const std::optional<int64_t>& v) {
  return v.has_value() ? p.Int(*v) : p.Null();
}

class PgServerTables final : public ServerTables {
 public:
  PgServerTables(std::string uri, PgConn conn) : uri_(std::move(uri)), conn_(std::move(conn)) {}

  absl::Status InsertToken(const TokenRow& t) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    return Insert(t);
  }

  absl::StatusOr<int> ImportTokens(const std::vector<TokenRow>& tokens) override;

  absl::StatusOr<std::optional<TokenRow>> TokenByHash(const std::string& sha256) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    return Find("sha256", PgParams().Bytes(sha256));
  }

  absl::StatusOr<std::optional<TokenRow>> TokenById(const std::string& id) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    return Find("id", PgParams().Text(id));
  }

  absl::StatusOr<bool> RevokeToken(const std::string& id, int64_t at) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    absl::StatusOr<PgResult> r =
        conn_.Exec("UPDATE tokens SET revoked = coalesce(revoked, $1) WHERE id = $2 RETURNING 1",
                   PgParams().Int(at).Text(id));
    if (!r.ok()) return r.status();
    return r->rows() > 0;
  }

  absl::StatusOr<std::vector<TokenRow>> Tokens() override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    absl::StatusOr<PgResult> r =
        conn_.Exec(absl::StrCat("SELECT ", kPgTokenColumns, " FROM tokens ORDER BY created, id"));
    if (!r.ok()) return r.status();
    std::vector<TokenRow> out;
    for (int i = 0; i < r->rows(); ++i) out.push_back(ReadToken(*r, i));
    return out;
  }

  absl::StatusOr<bool> AnyToken() override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    absl::StatusOr<PgResult> r = conn_.Exec("SELECT EXISTS(SELECT 1 FROM tokens)::int");
    if (!r.ok()) return r.status();
    return r->Int(0, 0) != 0;
  }

  absl::Status OpenSession(const SessionRow& session, const SessionBounds& bounds) override;

  absl::StatusOr<std::optional<SessionRow>> SessionByHash(const std::string& sha256) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    absl::StatusOr<PgResult> r =
        conn_.Exec("SELECT sha256, token_id, started FROM sessions WHERE sha256 = $1",
                   PgParams().Bytes(sha256));
    if (!r.ok()) return r.status();
    if (r->rows() == 0) return std::nullopt;
    return SessionRow{r->Bytes(0, 0), r->Bytes(0, 1), r->Int(0, 2)};
  }

  absl::Status CloseSession(const std::string& sha256) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    return conn_.Exec("DELETE FROM sessions WHERE sha256 = $1", PgParams().Bytes(sha256)).status();
  }

  absl::StatusOr<std::string> KeepMeta(const std::string& key, const std::string& value) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    absl::StatusOr<PgResult> ins =
        conn_.Exec("INSERT INTO meta(key, value) VALUES($1, $2) ON CONFLICT (key) DO NOTHING",
                   PgParams().Text(key).Bytes(value));
    if (!ins.ok()) return ins.status();
    absl::StatusOr<std::optional<std::string>> kept = ReadMeta(key);
    if (!kept.ok()) return kept.status();
    if (!kept->has_value()) return absl::InternalError("meta row " + key + " vanished");
    return **kept;
  }

  absl::StatusOr<std::optional<std::string>> Meta(const std::string& key) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    return ReadMeta(key);
  }

  absl::Status AddCosignature(uint64_t tree_size, const std::string& line) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    return conn_
        .Exec("INSERT INTO cosignatures(tree_size, line) VALUES($1, $2) ON CONFLICT DO NOTHING",
              PgParams().Int(static_cast<int64_t>(tree_size)).Text(line))
        .status();
  }

  absl::StatusOr<std::vector<std::string>> Cosignatures(uint64_t tree_size) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    absl::StatusOr<PgResult> r =
        conn_.Exec("SELECT line FROM cosignatures WHERE tree_size = $1 ORDER BY seq",
                   PgParams().Int(static_cast<int64_t>(tree_size)));
    if (!r.ok()) return r.status();
    std::vector<std::string> lines;
    for (int i = 0; i < r->rows(); ++i) lines.push_back(r->Bytes(i, 0));
    return lines;
  }

  absl::StatusOr<std::map<uint64_t, int>> CosignatureCounts() override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    absl::StatusOr<PgResult> r =
        conn_.Exec("SELECT tree_size, count(*) FROM cosignatures GROUP BY tree_size");
    if (!r.ok()) return r.status();
    std::map<uint64_t, int> counts;
    for (int i = 0; i < r->rows(); ++i) {
      counts[static_cast<uint64_t>(r->Int(i, 0))] = static_cast<int>(r->Int(i, 1));
    }
    return counts;
  }

  absl::Status AddWebhook(const WebhookRow& w) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    PgParams p;
    p.Text(w.id).Text(w.url).Text(w.kinds).Text(w.secret).Int(w.created);
    p.Int(static_cast<int64_t>(w.cursor));
    Optional(p, w.disabled).Text(w.disabled_why);
    return conn_
        .Exec(absl::StrCat("INSERT INTO webhooks (", kPgWebhookColumns,
                           ") VALUES ($1,$2,$3,$4,$5,$6,$7,$8)"),
              p)
        .status();
  }

  absl::StatusOr<bool> RemoveWebhook(const std::string& id) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    absl::StatusOr<PgTransaction> tx = PgTransaction::Begin(conn_);
    if (!tx.ok()) return tx.status();
    if (absl::StatusOr<PgResult> r =
            conn_.Exec("DELETE FROM webhook_deliveries WHERE endpoint = $1", PgParams().Text(id));
        !r.ok()) {
      return r.status();
    }
    absl::StatusOr<PgResult> r =
        conn_.Exec("DELETE FROM webhooks WHERE id = $1 RETURNING 1", PgParams().Text(id));
    if (!r.ok()) return r.status();
    const bool removed = r->rows() > 0;
    if (absl::Status s = tx->Commit(); !s.ok()) return s;
    return removed;
  }

  absl::StatusOr<std::vector<WebhookRow>> Webhooks() override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    absl::StatusOr<PgResult> r = conn_.Exec(
        absl::StrCat("SELECT ", kPgWebhookColumns, " FROM webhooks ORDER BY created, id"));
    if (!r.ok()) return r.status();
    std::vector<WebhookRow> out;
    for (int i = 0; i < r->rows(); ++i) out.push_back(ReadWebhook(*r, i));
    return out;
  }

  absl::Status AdvanceWebhook(const std::string& endpoint, uint64_t cursor,
                              const std::vector<DeliveryRow>& made) override;

  absl::StatusOr<std::vector<DeliveryRow>> Deliveries(const std::string& endpoint) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    absl::StatusOr<PgResult> r = conn_.Exec(
        absl::StrCat("SELECT ", kPgDeliveryColumns,
                     " FROM webhook_deliveries WHERE endpoint = $1 ORDER BY position, id"),
        PgParams().Text(endpoint));
    if (!r.ok()) return r.status();
    std::vector<DeliveryRow> out;
    for (int i = 0; i < r->rows(); ++i) out.push_back(ReadDelivery(*r, i));
    return out;
  }

  absl::Status UpdateDelivery(const DeliveryRow& d) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    PgParams p;
    p.Int(d.attempts).Int(d.next_at).Int(d.failed ? 1 : 0).Text(d.last_error);
    p.Text(d.endpoint).Text(d.id);
    return conn_
        .Exec(
            "UPDATE webhook_deliveries SET attempts = $1, next_at = $2, failed = $3, "
            "last_error = $4 WHERE endpoint = $5 AND id = $6",
            p)
        .status();
  }

  absl::Status DeliveryDone(const std::string& endpoint, const std::string& id) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    return conn_
        .Exec("DELETE FROM webhook_deliveries WHERE endpoint = $1 AND id = $2",
              PgParams().Text(endpoint).Text(id))
        .status();
  }

  absl::Status DisableWebhook(const std::string& endpoint, int64_t at,
                              const std::string& why) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    return conn_
        .Exec("UPDATE webhooks SET disabled = $1, disabled_why = $2 WHERE id = $3",
              PgParams().Int(at).Text(why).Text(endpoint))
        .status();
  }

  absl::StatusOr<int> RetryWebhook(const std::string& endpoint, int64_t now_ms) override;

  absl::StatusOr<bool> LeaseWebhook(const std::string& endpoint, const std::string& owner,
                                    int64_t now_ms, int64_t until_ms) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    absl::StatusOr<PgResult> r = conn_.Exec(
        "UPDATE webhooks SET lease_owner = $1, lease_until = $2 WHERE id = $3 AND "
        "(lease_owner = $1 OR lease_until <= $4) RETURNING 1",
        PgParams().Text(owner).Int(until_ms).Text(endpoint).Int(now_ms));
    if (!r.ok()) return r.status();
    return r->rows() > 0;
  }

  absl::StatusOr<int64_t> WebhookLeaseEnd(const std::string& endpoint,
                                          const std::string& owner) override {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = Reconnect(); !s.ok()) return s;
    absl::StatusOr<PgResult> r =
        conn_.Exec("SELECT lease_until FROM webhooks WHERE id = $1 AND lease_owner <> $2",
                   PgParams().Text(endpoint).Text(owner));
    if (!r.ok()) return r.status();
    return r->rows() > 0 ? r->Int(0, 0) : 0;
  }

 private:
  // A lost connection (the database restarted) is made again before the
  // next statement, so a server does not refuse every call from then on.
  absl::Status Reconnect() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    if (conn_.ok()) return absl::OkStatus();
    absl::StatusOr<PgConn> conn = PgConn::Connect(uri_);
    if (!conn.ok()) return conn.status();
    conn_ = *std::move(conn);
    return absl::OkStatus();
  }

  absl::Status Lock() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return conn_.Exec("SELECT pg_advisory_xact_lock($1)", PgParams().Int(kServerTablesLock))
        .status();
  }

  absl::Status Insert(const TokenRow& t) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    PgParams p;
    p.Text(t.id).Bytes(t.sha256).Text(t.role).Text(t.name).Text(t.games).Int(t.created);
    Optional(p, t.revoked);
    Optional(p, t.expires);
    return conn_
        .Exec(absl::StrCat("INSERT INTO tokens (", kPgTokenColumns,
                           ") VALUES ($1, $2, $3, $4, $5, $6, $7::bigint, $8::bigint)"),
              p)
        .status();
  }

  absl::StatusOr<std::optional<TokenRow>> Find(const char* column, const PgParams& value)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    absl::StatusOr<PgResult> r = conn_.Exec(
        absl::StrCat("SELECT ", kPgTokenColumns, " FROM tokens WHERE ", column, " = $1"), value);
    if (!r.ok()) return r.status();
    if (r->rows() == 0) return std::nullopt;
    return ReadToken(*r, 0);
  }

  absl::StatusOr<int64_t> Count(absl::string_view sql, const PgParams& params)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    absl::StatusOr<PgResult> r = conn_.Exec(sql, params);
    if (!r.ok()) return r.status();
    return r->Int(0, 0);
  }

  absl::StatusOr<std::optional<std::string>> ReadMeta(const std::string& key)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    absl::StatusOr<PgResult> r =
        conn_.Exec("SELECT value FROM meta WHERE key = $1", PgParams().Text(key));
    if (!r.ok()) return r.status();
    if (r->rows() == 0) return std::nullopt;
    return r->Bytes(0, 0);
  }

  const std::string uri_;
  absl::Mutex mu_;
  PgConn conn_ ABSL_GUARDED_BY(mu_);
};

absl::StatusOr<int> PgServerTables::ImportTokens(const std::vector<TokenRow>& tokens) {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgTransaction> tx = PgTransaction::Begin(conn_);
  if (!tx.ok()) return tx.status();
  if (absl::Status s = Lock(); !s.ok()) return s;
  int added = 0;
  for (const TokenRow& t : tokens) {
    absl::StatusOr<std::optional<TokenRow>> by_id = Find("id", PgParams().Text(t.id));
    if (!by_id.ok()) return by_id.status();
    absl::StatusOr<std::optional<TokenRow>> by_hash = Find("sha256", PgParams().Bytes(t.sha256));
    if (!by_hash.ok()) return by_hash.status();
    if (by_id->has_value() && (*by_id)->sha256 == t.sha256) continue;  // imported before
    if (by_id->has_value() || by_hash->has_value()) {
      return absl::FailedPreconditionError(
          absl::StrCat("token ", t.id, " clashes with another token of the database"));
    }
    if (absl::Status s = Insert(t); !s.ok()) return s;
    ++added;
  }
  if (absl::Status s = tx->Commit(); !s.ok()) return s;
  return added;
}

absl::Status PgServerTables::OpenSession(const SessionRow& session, const SessionBounds& bounds) {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgTransaction> tx = PgTransaction::Begin(conn_);
  if (!tx.ok()) return tx.status();
  if (absl::Status s = Lock(); !s.ok()) return s;
  if (absl::StatusOr<PgResult> r = conn_.Exec("DELETE FROM sessions WHERE started < $1",
                                              PgParams().Int(bounds.started_after));
      !r.ok()) {
    return r.status();
  }
  // As in the SQLite ledger: the token's own oldest first, then the oldest
  // of the token holding the most.
  if (!session.token_id.empty()) {
    for (;;) {
      absl::StatusOr<int64_t> own = Count("SELECT count(*) FROM sessions WHERE token_id = $1",
                                          PgParams().Text(session.token_id));
      if (!own.ok()) return own.status();
      if (*own < bounds.per_token) break;
      if (absl::StatusOr<PgResult> r = conn_.Exec(
              "DELETE FROM sessions WHERE sha256 = (SELECT sha256 FROM sessions WHERE token_id = "
              "$1 ORDER BY started LIMIT 1)",
              PgParams().Text(session.token_id));
          !r.ok()) {
        return r.status();
      }
    }
  }
  for (;;) {
    absl::StatusOr<int64_t> all = Count("SELECT count(*) FROM sessions", PgParams());
    if (!all.ok()) return all.status();
    if (*all < bounds.in_all) break;
    if (absl::StatusOr<PgResult> r = conn_.Exec(
            "DELETE FROM sessions WHERE sha256 = (SELECT sha256 FROM sessions WHERE token_id = "
            "(SELECT token_id FROM sessions GROUP BY token_id ORDER BY count(*) DESC LIMIT 1) "
            "ORDER BY started LIMIT 1)");
        !r.ok()) {
      return r.status();
    }
  }
  if (absl::StatusOr<PgResult> r =
          conn_.Exec("INSERT INTO sessions(sha256, token_id, started) VALUES($1, $2, $3)",
                     PgParams().Bytes(session.sha256).Text(session.token_id).Int(session.started));
      !r.ok()) {
    return r.status();
  }
  return tx->Commit();
}

absl::Status PgServerTables::AdvanceWebhook(const std::string& endpoint, uint64_t cursor,
                                            const std::vector<DeliveryRow>& made) {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgTransaction> tx = PgTransaction::Begin(conn_);
  if (!tx.ok()) return tx.status();
  for (const DeliveryRow& d : made) {
    PgParams p;
    p.Text(endpoint).Text(d.id).Int(static_cast<int64_t>(d.position)).Text(d.kind).Bytes(d.body);
    p.Int(d.attempts).Int(d.next_at).Int(d.failed ? 1 : 0).Text(d.last_error);
    if (absl::StatusOr<PgResult> r =
            conn_.Exec(absl::StrCat("INSERT INTO webhook_deliveries (", kPgDeliveryColumns,
                                    ") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) ON CONFLICT DO NOTHING"),
                       p);
        !r.ok()) {
      return r.status();
    }
  }
  if (absl::StatusOr<PgResult> r =
          conn_.Exec("UPDATE webhooks SET cursor = greatest(cursor, $1) WHERE id = $2",
                     PgParams().Int(static_cast<int64_t>(cursor)).Text(endpoint));
      !r.ok()) {
    return r.status();
  }
  return tx->Commit();
}

absl::StatusOr<int> PgServerTables::RetryWebhook(const std::string& endpoint, int64_t now_ms) {
  absl::MutexLock lock(&mu_);
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgTransaction> tx = PgTransaction::Begin(conn_);
  if (!tx.ok()) return tx.status();
  absl::StatusOr<PgResult> enabled =
      conn_.Exec("UPDATE webhooks SET disabled = NULL, disabled_why = '' WHERE id = $1 RETURNING 1",
                 PgParams().Text(endpoint));
  if (!enabled.ok()) return enabled.status();
  if (enabled->rows() == 0) return absl::NotFoundError(absl::StrCat("no webhook ", endpoint));
  absl::StatusOr<PgResult> again = conn_.Exec(
      "UPDATE webhook_deliveries SET failed = 0, attempts = 0, next_at = $1 "
      "WHERE endpoint = $2 AND failed = 1 RETURNING 1",
      PgParams().Int(now_ms).Text(endpoint));
  if (!again.ok()) return again.status();
  const int n = again->rows();
  if (absl::Status s = tx->Commit(); !s.ok()) return s;
  return n;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ServerTables>> OpenPgServerTables(const std::string& uri) {
  absl::StatusOr<PgConn> conn = PgConn::Connect(uri);
  if (!conn.ok()) return conn.status();
  // The ledger's tables too (its meta holds the origin): `arbiter token
  // create` may be the first to reach a new database.
  if (absl::Status s = PreparePgSchema(*conn); !s.ok()) return s;
  {
    absl::StatusOr<PgTransaction> tx = PgTransaction::Begin(*conn);
    if (!tx.ok()) return tx.status();
    if (absl::StatusOr<PgResult> r =
            conn->Exec("SELECT pg_advisory_xact_lock($1)", PgParams().Int(kServerTablesLock));
        !r.ok()) {
      return r.status();
    }
    if (absl::Status s = conn->Run(kPgServerTables); !s.ok()) return s;
    if (absl::Status s = tx->Commit(); !s.ok()) return s;
  }
  return std::unique_ptr<ServerTables>(new PgServerTables(uri, *std::move(conn)));
}

}  // namespace arbiter::ledger
