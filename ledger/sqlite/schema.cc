#include "ledger/sqlite/schema.h"

#include "absl/strings/str_cat.h"

namespace arbiter::ledger {
namespace {

constexpr const char* kLogTables = R"sql(
CREATE TABLE IF NOT EXISTS meta(
  key TEXT PRIMARY KEY,
  value BLOB NOT NULL);

-- One row per event. position is the gapless global order (the Merkle leaf
-- index + 1); (game_id, revision) the contiguous per-game stream.
CREATE TABLE IF NOT EXISTS events(
  position INTEGER PRIMARY KEY,
  game_id TEXT NOT NULL,
  revision INTEGER NOT NULL,
  idempotency_key TEXT,
  event BLOB NOT NULL,
  leaf_hash BLOB NOT NULL,
  UNIQUE(game_id, revision));
-- Idempotency keys name an event within its game's stream (schema 2; in
-- schema 1 they were global, so any game's writer could take another's).
CREATE UNIQUE INDEX IF NOT EXISTS events_by_game_key ON events(game_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;

-- The rules each game is judged under, pinned when it is created.
CREATE TABLE IF NOT EXISTS games(
  game_id TEXT PRIMARY KEY,
  first_position INTEGER NOT NULL,
  rules_pin TEXT NOT NULL);

-- The rulings derived from an event, in order (seq from 0).
CREATE TABLE IF NOT EXISTS rulings(
  position INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  ruling BLOB NOT NULL,
  PRIMARY KEY(position, seq)) WITHOUT ROWID;

-- Signed checkpoints (arbiter.v1.Checkpoint) keyed by tree size.
CREATE TABLE IF NOT EXISTS checkpoints(
  tree_size INTEGER PRIMARY KEY,
  checkpoint BLOB NOT NULL);

-- When the server received each event (unix microseconds), for the public
-- broadcast's delay (DOMAIN.md): beside the log, not hashed; written in the
-- event's transaction. A ledger made before it has none for older events.
CREATE TABLE IF NOT EXISTS arrivals(
  position INTEGER PRIMARY KEY,
  received_micros INTEGER NOT NULL);
)sql";

absl::Status CreateAppendOnlyTriggers(Db& db, const char* table) {
  for (const char* op : {"UPDATE", "DELETE"}) {
    absl::Status s = db.Exec(
        absl::StrCat("CREATE TRIGGER IF NOT EXISTS ", table, "_no_", op, " BEFORE ", op, " ON ",
                     table, " BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: ", op, " on ",
                     table, " refused'); END;"));
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

// Schema 1 -> 2: keys scoped to their game. Keys unique over the log are
// unique within each game, so the new index always builds; no event, ruling
// or checkpoint row is touched, so every hash and signature stays as it was.
absl::Status MigrateFrom1(Db& db) {
  return db.Exec(
      "DROP INDEX IF EXISTS events_by_key;"
      "DROP TRIGGER IF EXISTS meta_no_UPDATE;"
      "UPDATE meta SET value = 2 WHERE key = 'schema_version' AND value = 1;");
}

// Schema 2 -> 3: the tables are the same; the version says the log may
// now hold tournament streams. Nothing else is touched.
absl::Status MigrateFrom2(Db& db) {
  return db.Exec("UPDATE meta SET value = 3 WHERE key = 'schema_version' AND value = 2;");
}

// Schema 3 -> 4: the webhook tables come with the server's tables
// (server_tables.cc); the version says the store may hold them.
absl::Status MigrateFrom3(Db& db) {
  return db.Exec("UPDATE meta SET value = 4 WHERE key = 'schema_version' AND value = 3;");
}

}  // namespace

absl::Status ConfigureConnection(Db& db) {
  return db.Exec("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;");
}

absl::Status PrepareSchema(Db& db) {
  if (absl::Status s = db.Exec("PRAGMA journal_mode=WAL;"); !s.ok()) return s;
  if (absl::Status s = ConfigureConnection(db); !s.ok()) return s;
  absl::StatusOr<Transaction> tx = Transaction::Write(db);
  if (!tx.ok()) return tx.status();
  absl::Status s = db.Exec(kLogTables);
  if (s.ok()) s = MigrateFrom1(db);
  if (s.ok()) s = MigrateFrom2(db);
  if (s.ok()) s = MigrateFrom3(db);
  for (const char* t : {"meta", "events", "games", "rulings", "checkpoints", "arrivals"}) {
    if (s.ok()) s = CreateAppendOnlyTriggers(db, t);
  }
  if (s.ok()) {
    s = db.Exec(absl::StrCat("INSERT OR IGNORE INTO meta(key, value) VALUES('schema_version', ",
                             kSchemaVersion, ");"));
  }
  if (s.ok()) {
    absl::StatusOr<Stmt> q = Stmt::Prepare(db, "SELECT value FROM meta WHERE key='schema_version'");
    s = q.status();
    if (s.ok()) {
      absl::StatusOr<bool> row = q->Step();
      if (!row.ok()) {
        s = row.status();
      } else if (!*row || q->Int(0) != kSchemaVersion) {
        s = absl::FailedPreconditionError(absl::StrCat(
            "ledger schema version ", *row ? q->Int(0) : 0, " is not ", kSchemaVersion));
      }
    }
  }
  if (!s.ok()) return s;
  return tx->Commit();
}

}  // namespace arbiter::ledger
