#include "ledger/postgres/log_reader.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "ledger/internal/log_rows.h"
#include "ledger/internal/schema_version.h"

namespace arbiter::ledger {
namespace {

// The advisory lock key under which the schema is made (one server at a
// time); the sequencer's lease is another (postgres/store.cc).
constexpr int64_t kSchemaLock = 0x6172626974657201;  // "arbiter\x01"

constexpr const char* kPgLogTables = R"sql(
CREATE TABLE IF NOT EXISTS meta(
  key TEXT PRIMARY KEY,
  value BYTEA NOT NULL);
-- As in the SQLite ledger (schema.cc): position the gapless global order,
-- (game_id, revision) the contiguous per-game stream.
CREATE TABLE IF NOT EXISTS events(
  position BIGINT PRIMARY KEY,
  game_id TEXT NOT NULL,
  revision BIGINT NOT NULL,
  idempotency_key TEXT,
  event BYTEA NOT NULL,
  leaf_hash BYTEA NOT NULL,
  UNIQUE(game_id, revision),
  UNIQUE(game_id, idempotency_key));
CREATE TABLE IF NOT EXISTS games(
  game_id TEXT PRIMARY KEY,
  first_position BIGINT NOT NULL,
  rules_pin TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rulings(
  position BIGINT NOT NULL,
  seq INTEGER NOT NULL,
  ruling BYTEA NOT NULL,
  PRIMARY KEY(position, seq));
CREATE TABLE IF NOT EXISTS checkpoints(
  tree_size BIGINT PRIMARY KEY,
  checkpoint BYTEA NOT NULL);
-- When the server received each event (the public broadcast's delay,
-- DOMAIN.md): beside the log, not hashed; written with the event.
CREATE TABLE IF NOT EXISTS arrivals(
  position BIGINT PRIMARY KEY,
  received_micros BIGINT NOT NULL);
-- Each game's stream head: the row an append locks (FOR UPDATE) to decide
-- the game's order across servers. Derived from events, so not audited.
CREATE TABLE IF NOT EXISTS streams(
  game_id TEXT PRIMARY KEY,
  revision BIGINT NOT NULL);
CREATE OR REPLACE FUNCTION arbiter_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only: % on % refused', TG_OP, TG_TABLE_NAME;
END $$ LANGUAGE plpgsql;
)sql";

}  // namespace

absl::Status PreparePgSchema(PgConn& conn) {
  absl::StatusOr<PgTransaction> tx = PgTransaction::Begin(conn);
  if (!tx.ok()) return tx.status();
  if (absl::StatusOr<PgResult> r =
          conn.Exec("SELECT pg_advisory_xact_lock($1)", PgParams().Int(kSchemaLock));
      !r.ok()) {
    return r.status();
  }
  if (absl::Status s = conn.Run(kPgLogTables); !s.ok()) return s;
  // Schema 2 -> 3 -> 4 (schema_version.h): the same tables; the version row
  // alone changes, with meta's trigger off (recreated below) for that row.
  if (absl::Status s = conn.Run("DROP TRIGGER IF EXISTS meta_append_only ON meta;"
                                "UPDATE meta SET value = '3'::bytea WHERE key = 'schema_version' "
                                "AND value = '2'::bytea;"
                                "UPDATE meta SET value = '4'::bytea WHERE key = 'schema_version' "
                                "AND value = '3'::bytea;");
      !s.ok()) {
    return s;
  }
  for (const char* t : {"meta", "events", "games", "rulings", "checkpoints", "arrivals"}) {
    absl::Status s = conn.Run(absl::StrCat("CREATE OR REPLACE TRIGGER ", t,
                                           "_append_only BEFORE UPDATE OR DELETE ON ", t,
                                           " FOR EACH ROW EXECUTE FUNCTION arbiter_append_only()"));
    if (!s.ok()) return s;
  }
  absl::StatusOr<PgResult> version = conn.Exec(
      "INSERT INTO meta(key, value) VALUES('schema_version', $1) ON CONFLICT (key) DO NOTHING",
      PgParams().Bytes(absl::StrCat(kSchemaVersion)));
  if (!version.ok()) return version.status();
  absl::StatusOr<PgResult> q = conn.Exec("SELECT value FROM meta WHERE key = 'schema_version'");
  if (!q.ok()) return q.status();
  if (q->rows() != 1 || q->Bytes(0, 0) != absl::StrCat(kSchemaVersion)) {
    return absl::FailedPreconditionError(absl::StrCat("ledger schema version ",
                                                      q->rows() == 1 ? q->Bytes(0, 0) : "(none)",
                                                      " is not ", kSchemaVersion));
  }
  return tx->Commit();
}

absl::StatusOr<std::unique_ptr<PgLogReader>> PgLogReader::Open(const std::string& uri) {
  absl::StatusOr<PgConn> conn = PgConn::Connect(uri);
  if (!conn.ok()) return conn.status();
  auto r = std::make_unique<PgLogReader>(*std::move(conn));
  r->uri_ = uri;
  return r;
}

absl::Status PgLogReader::Reconnect() {
  if (conn_.ok()) return absl::OkStatus();
  absl::StatusOr<PgConn> conn = PgConn::Connect(uri_);
  if (!conn.ok()) return conn.status();
  conn_ = *std::move(conn);
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> PgLogReader::Head() {
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgResult> r = conn_.Exec("SELECT COALESCE(MAX(position), 0) FROM events");
  if (!r.ok()) return r.status();
  return static_cast<uint64_t>(r->Int(0, 0));
}

absl::StatusOr<std::vector<v1::LedgerEntry>> PgLogReader::Collect(const std::string& sql,
                                                                  const PgParams& params) {
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  // Two queries, one snapshot.
  absl::StatusOr<PgTransaction> snapshot =
      PgTransaction::Begin(conn_, "ISOLATION LEVEL REPEATABLE READ READ ONLY");
  if (!snapshot.ok()) return snapshot.status();
  absl::StatusOr<PgResult> q = conn_.Exec(sql, params);
  if (!q.ok()) return q.status();
  std::vector<v1::LedgerEntry> out;
  out.reserve(q->rows());
  for (int i = 0; i < q->rows(); ++i) {
    v1::LedgerEntry& e = out.emplace_back();
    e.set_position(q->Int(i, 0));
    e.set_game_id(q->Bytes(i, 1));
    e.set_revision(q->Int(i, 2));
    e.set_event(q->Bytes(i, 3));
  }
  if (out.empty()) return out;
  absl::StatusOr<PgResult> r = conn_.Exec(
      "SELECT position, ruling FROM rulings WHERE position BETWEEN $1 AND $2 "
      "ORDER BY position, seq",
      PgParams()
          .Int(static_cast<int64_t>(out.front().position()))
          .Int(static_cast<int64_t>(out.back().position())));
  if (!r.ok()) return r.status();
  RulingRows rulings(out);
  for (int row = 0; row < r->rows(); ++row) {
    if (absl::Status s = rulings.Add(r->Int(row, 0), r->Bytes(row, 1)); !s.ok()) return s;
  }
  if (absl::Status s = snapshot->Commit(); !s.ok()) return s;
  return out;
}

absl::StatusOr<std::vector<v1::LedgerEntry>> PgLogReader::ReadLog(uint64_t after, size_t max) {
  return Collect(
      "SELECT position, game_id, revision, event FROM events WHERE position > $1 "
      "ORDER BY position LIMIT $2",
      PgParams().Int(static_cast<int64_t>(after)).Int(static_cast<int64_t>(max)));
}

absl::StatusOr<std::vector<v1::LedgerEntry>> PgLogReader::ReadGame(const std::string& game_id,
                                                                   uint64_t after, size_t max) {
  return Collect(
      "SELECT position, game_id, revision, event FROM events WHERE game_id = $1 AND "
      "revision > $2 ORDER BY revision LIMIT $3",
      PgParams()
          .Text(game_id)
          .Int(static_cast<int64_t>(after))
          .Int(static_cast<int64_t>(std::min<uint64_t>(max, INT64_MAX))));
}

absl::StatusOr<std::optional<v1::LedgerEntry>> PgLogReader::FindKey(const std::string& game_id,
                                                                    const std::string& key) {
  absl::StatusOr<std::vector<v1::LedgerEntry>> found = Collect(
      "SELECT position, game_id, revision, event FROM events WHERE game_id = $1 AND "
      "idempotency_key = $2",
      PgParams().Text(game_id).Text(key));
  if (!found.ok()) return found.status();
  if (found->empty()) return std::nullopt;
  return std::move(found->front());
}

absl::StatusOr<uint64_t> PgLogReader::GameRevision(const std::string& game_id) {
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgResult> r = conn_.Exec(
      "SELECT COALESCE(MAX(revision), 0) FROM events WHERE game_id = $1", PgParams().Text(game_id));
  if (!r.ok()) return r.status();
  return static_cast<uint64_t>(r->Int(0, 0));
}

absl::StatusOr<std::vector<GameListing>> PgLogReader::ListGames(uint64_t after, size_t max) {
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgResult> r = conn_.Exec(
      "SELECT game_id, first_position FROM games WHERE first_position > $1 "
      "ORDER BY first_position LIMIT $2",
      PgParams().Int(static_cast<int64_t>(after)).Int(static_cast<int64_t>(max)));
  if (!r.ok()) return r.status();
  std::vector<GameListing> out;
  for (int i = 0; i < r->rows(); ++i) {
    out.push_back(GameListing{r->Bytes(i, 0), static_cast<uint64_t>(r->Int(i, 1))});
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> PgLogReader::ListTournaments() {
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgResult> r = conn_.Exec(
      "SELECT substr(game_id, 13) FROM events WHERE revision = 1 AND game_id LIKE 'tournaments/%' "
      "ORDER BY game_id COLLATE \"C\"");
  if (!r.ok()) return r.status();
  std::vector<std::string> out;
  for (int i = 0; i < r->rows(); ++i) out.push_back(r->Bytes(i, 0));
  return out;
}

absl::StatusOr<std::string> PgLogReader::RulesPin(const std::string& game_id) {
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgResult> r =
      conn_.Exec("SELECT rules_pin FROM games WHERE game_id = $1", PgParams().Text(game_id));
  if (!r.ok()) return r.status();
  if (r->rows() == 0) return NoGame(game_id);
  return r->Bytes(0, 0);
}

absl::StatusOr<std::vector<v1::Checkpoint>> PgLogReader::Checkpoints() {
  return CheckpointsBetween(0, std::numeric_limits<int64_t>::max());
}

absl::StatusOr<std::vector<v1::Checkpoint>> PgLogReader::CheckpointsBetween(uint64_t first,
                                                                            uint64_t last) {
  constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgResult> r = conn_.Exec(
      "SELECT tree_size, checkpoint FROM checkpoints WHERE tree_size >= $1 AND tree_size <= $2 "
      "ORDER BY tree_size",
      PgParams()
          .Int(static_cast<int64_t>(std::min(first, kMax)))
          .Int(static_cast<int64_t>(std::min(last, kMax))));
  if (!r.ok()) return r.status();
  std::vector<v1::Checkpoint> out;
  for (int i = 0; i < r->rows(); ++i) {
    absl::StatusOr<v1::Checkpoint> c = CheckpointRow(r->Int(i, 0), r->Bytes(i, 1));
    if (!c.ok()) return c.status();
    out.push_back(*std::move(c));
  }
  return out;
}

absl::StatusOr<std::vector<Hash>> PgLogReader::LeafHashes(uint64_t tree_size, uint64_t after) {
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgResult> r = conn_.Exec(
      "SELECT position, leaf_hash FROM events WHERE position > $1 AND position <= $2 "
      "ORDER BY position",
      PgParams().Int(static_cast<int64_t>(after)).Int(static_cast<int64_t>(tree_size)));
  if (!r.ok()) return r.status();
  LeafRows leaves(tree_size, after);
  for (int i = 0; i < r->rows(); ++i) {
    if (absl::Status s = leaves.Add(r->Int(i, 0), r->Bytes(i, 1)); !s.ok()) return s;
  }
  return std::move(leaves).Finish();
}

absl::StatusOr<std::string> PgLogReader::RecordedPublicKey() {
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgResult> r = conn_.Exec("SELECT value FROM meta WHERE key = 'public_key'");
  if (!r.ok()) return r.status();
  if (r->rows() == 0) return NoPublicKey();
  return r->Bytes(0, 0);
}

absl::StatusOr<std::vector<Arrival>> PgLogReader::Arrivals(uint64_t after, size_t max) {
  if (absl::Status s = Reconnect(); !s.ok()) return s;
  absl::StatusOr<PgResult> r = conn_.Exec(
      "SELECT position, received_micros FROM arrivals WHERE position > $1 ORDER BY position "
      "LIMIT $2",
      PgParams()
          .Int(static_cast<int64_t>(after))
          .Int(static_cast<int64_t>(std::min<uint64_t>(max, INT64_MAX))));
  if (!r.ok()) return r.status();
  std::vector<Arrival> out;
  out.reserve(r->rows());
  for (int i = 0; i < r->rows(); ++i) {
    out.push_back(Arrival{static_cast<uint64_t>(r->Int(i, 0)), absl::FromUnixMicros(r->Int(i, 1))});
  }
  return out;
}

}  // namespace arbiter::ledger
