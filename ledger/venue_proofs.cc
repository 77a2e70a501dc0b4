#include "ledger/venue_proofs.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "ledger/pg.h"
#include "ledger/sqlite.h"
#include "proto/canonical/canonical_bytes.h"
#include "proto/canonical/sha256.h"

namespace arbiter::ledger {
namespace {

// The advisory lock under which the venue tables are made; the ledger's
// own are others (pg_log_reader.cc, pg_store.cc).
constexpr int64_t kVenueSchemaLock = 0x6172626974657204;  // "arbiter\x04"

constexpr const char* kPgTables = R"sql(
CREATE TABLE IF NOT EXISTS venue_games(
  game_id TEXT PRIMARY KEY,
  venue_id TEXT NOT NULL,
  public_key BYTEA NOT NULL);
CREATE TABLE IF NOT EXISTS venue_proofs(
  game_id TEXT NOT NULL REFERENCES venue_games(game_id),
  revisions BIGINT NOT NULL,
  proof BYTEA NOT NULL,
  PRIMARY KEY(game_id, revisions));
CREATE OR REPLACE TRIGGER venue_games_append_only BEFORE UPDATE OR DELETE ON venue_games
  FOR EACH ROW EXECUTE FUNCTION arbiter_append_only();
CREATE OR REPLACE TRIGGER venue_proofs_append_only BEFORE UPDATE OR DELETE ON venue_proofs
  FOR EACH ROW EXECUTE FUNCTION arbiter_append_only();
)sql";

// The same in the SQLite ledger's file, append-only as its own tables are.
constexpr const char* kSqliteTables = R"sql(
CREATE TABLE IF NOT EXISTS venue_games(
  game_id TEXT PRIMARY KEY,
  venue_id TEXT NOT NULL,
  public_key BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS venue_proofs(
  game_id TEXT NOT NULL REFERENCES venue_games(game_id),
  revisions INTEGER NOT NULL,
  proof BLOB NOT NULL,
  PRIMARY KEY(game_id, revisions));
CREATE TRIGGER IF NOT EXISTS venue_games_no_UPDATE BEFORE UPDATE ON venue_games
  BEGIN SELECT RAISE(ABORT, 'venue_games is append-only'); END;
CREATE TRIGGER IF NOT EXISTS venue_games_no_DELETE BEFORE DELETE ON venue_games
  BEGIN SELECT RAISE(ABORT, 'venue_games is append-only'); END;
CREATE TRIGGER IF NOT EXISTS venue_proofs_no_UPDATE BEFORE UPDATE ON venue_proofs
  BEGIN SELECT RAISE(ABORT, 'venue_proofs is append-only'); END;
CREATE TRIGGER IF NOT EXISTS venue_proofs_no_DELETE BEFORE DELETE ON venue_proofs
  BEGIN SELECT RAISE(ABORT, 'venue_proofs is append-only'); END;
)sql";

// The bundle as stored: every entry's place and proof, no event or ruling.
std::string StoredBytes(const v1::AuditBundle& bundle) {
  v1::AuditBundle proof = bundle;
  for (v1::ProvenEntry& p : *proof.mutable_entries()) {
    p.mutable_entry()->clear_event();
    p.mutable_entry()->clear_rulings();
  }
  return CanonicalBytes(proof);
}

}  // namespace

// The statements the two databases differ in. Rows are as in the tables.
class VenueProofs::Tables {
 public:
  virtual ~Tables() = default;
  virtual absl::StatusOr<bool> Exists(const char* table) = 0;
  virtual absl::Status CreateTables() = 0;
  // INSERT ... unless the key is there. (A game's venue_games row is
  // written with its first events: Ledger::AppendFromVenue.)
  virtual absl::Status InsertProof(const std::string& game, int64_t revisions,
                                   const std::string& proof) = 0;
  // venue_games rows, of `game` or (empty) all, by game id.
  virtual absl::StatusOr<std::vector<VenueGame>> Games(const std::string& game) = 0;
  // (revisions, proof) rows of `game`, fewest revisions first; only
  // `revisions`' if it is positive.
  virtual absl::StatusOr<std::vector<std::pair<int64_t, std::string>>> Proofs(
      const std::string& game, int64_t revisions) = 0;
};

class VenueProofs::PgTables final : public VenueProofs::Tables {
 public:
  explicit PgTables(PgConn conn) : conn_(std::move(conn)) {}
  absl::StatusOr<bool> Exists(const char* table) override {
    absl::StatusOr<PgResult> r =
        conn_.Exec(absl::StrCat("SELECT (to_regclass('", table, "') IS NOT NULL)::int"));
    if (!r.ok()) return r.status();
    return r->Int(0, 0) == 1;
  }
  absl::Status CreateTables() override {
    // One sync at a time makes the tables (CREATE ... IF NOT EXISTS races).
    absl::StatusOr<PgTransaction> tx = PgTransaction::Begin(conn_);
    if (!tx.ok()) return tx.status();
    absl::StatusOr<PgResult> lock =
        conn_.Exec("SELECT pg_advisory_xact_lock($1)", PgParams().Int(kVenueSchemaLock));
    if (!lock.ok()) return lock.status();
    if (absl::Status s = conn_.Run(kPgTables); !s.ok()) return s;
    return tx->Commit();
  }
  absl::Status InsertProof(const std::string& game, int64_t revisions,
                           const std::string& proof) override {
    return conn_
        .Exec(
            "INSERT INTO venue_proofs(game_id, revisions, proof) VALUES($1, $2, $3) "
            "ON CONFLICT (game_id, revisions) DO NOTHING",
            PgParams().Text(game).Int(revisions).Bytes(proof))
        .status();
  }
  absl::StatusOr<std::vector<VenueGame>> Games(const std::string& game) override {
    absl::StatusOr<PgResult> r =
        game.empty()
            ? conn_.Exec("SELECT game_id, venue_id, public_key FROM venue_games ORDER BY game_id")
            : conn_.Exec("SELECT game_id, venue_id, public_key FROM venue_games WHERE game_id = $1",
                         PgParams().Text(game));
    if (!r.ok()) return r.status();
    std::vector<VenueGame> out;
    for (int i = 0; i < r->rows(); ++i) {
      out.push_back(VenueGame{r->Bytes(i, 0), r->Bytes(i, 1), r->Bytes(i, 2)});
    }
    return out;
  }
  absl::StatusOr<std::vector<std::pair<int64_t, std::string>>> Proofs(const std::string& game,
                                                                      int64_t revisions) override {
    absl::StatusOr<PgResult> r = conn_.Exec(
        "SELECT revisions, proof FROM venue_proofs WHERE game_id = $1 AND ($2 <= 0 OR "
        "revisions = $2) ORDER BY revisions",
        PgParams().Text(game).Int(revisions));
    if (!r.ok()) return r.status();
    std::vector<std::pair<int64_t, std::string>> out;
    for (int i = 0; i < r->rows(); ++i) out.emplace_back(r->Int(i, 0), r->Bytes(i, 1));
    return out;
  }

 private:
  PgConn conn_;
};

class VenueProofs::SqliteTables final : public VenueProofs::Tables {
 public:
  explicit SqliteTables(Db db) : db_(std::move(db)) {}
  absl::StatusOr<bool> Exists(const char* table) override {
    absl::StatusOr<Stmt> st =
        Stmt::Prepare(db_, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
    if (!st.ok()) return st.status();
    st->Bind(1, absl::string_view(table));
    absl::StatusOr<bool> row = st->Step();
    if (!row.ok()) return row.status();
    return *row && st->Int(0) > 0;
  }
  absl::Status CreateTables() override {
    absl::StatusOr<Transaction> tx = Transaction::Write(db_);
    if (!tx.ok()) return tx.status();
    if (absl::Status s = db_.Exec(kSqliteTables); !s.ok()) return s;
    return tx->Commit();
  }
  absl::Status InsertProof(const std::string& game, int64_t revisions,
                           const std::string& proof) override {
    absl::StatusOr<Stmt> st = Stmt::Prepare(
        db_, "INSERT OR IGNORE INTO venue_proofs(game_id, revisions, proof) VALUES(?, ?, ?)");
    if (!st.ok()) return st.status();
    return st->Bind(1, game).Bind(2, revisions).BindBlob(3, proof).Run();
  }
  absl::StatusOr<std::vector<VenueGame>> Games(const std::string& game) override {
    absl::StatusOr<Stmt> st = Stmt::Prepare(
        db_,
        "SELECT game_id, venue_id, public_key FROM venue_games WHERE ? = '' OR game_id = ? "
        "ORDER BY game_id");
    if (!st.ok()) return st.status();
    st->Bind(1, game).Bind(2, game);
    std::vector<VenueGame> out;
    for (;;) {
      absl::StatusOr<bool> row = st->Step();
      if (!row.ok()) return row.status();
      if (!*row) return out;
      out.push_back(VenueGame{st->Text(0), st->Text(1), st->Text(2)});
    }
  }
  absl::StatusOr<std::vector<std::pair<int64_t, std::string>>> Proofs(const std::string& game,
                                                                      int64_t revisions) override {
    absl::StatusOr<Stmt> st =
        Stmt::Prepare(db_,
                      "SELECT revisions, proof FROM venue_proofs WHERE game_id = ? AND (? <= 0 OR "
                      "revisions = ?) ORDER BY revisions");
    if (!st.ok()) return st.status();
    st->Bind(1, game).Bind(2, revisions).Bind(3, revisions);
    std::vector<std::pair<int64_t, std::string>> out;
    for (;;) {
      absl::StatusOr<bool> row = st->Step();
      if (!row.ok()) return row.status();
      if (!*row) return out;
      out.emplace_back(st->Int(0), st->Text(1));
    }
  }

 private:
  Db db_;
};

std::string VenueId(const std::string& public_key_der) { return ToHex(Sha256(public_key_der)); }

absl::Status FillHeldEntries(v1::AuditBundle& bundle, const std::vector<v1::LedgerEntry>& held) {
  for (int i = 0; i < bundle.entries_size(); ++i) {
    v1::LedgerEntry* e = bundle.mutable_entries(i)->mutable_entry();
    if (e->revision() != static_cast<uint64_t>(i) + 1) {
      return absl::FailedPreconditionError(
          absl::StrCat("the venue's entry ", i + 1, " is revision ", e->revision()));
    }
    if (!e->event().empty()) {
      if (static_cast<size_t>(i) < held.size() && held[i].event() != e->event()) {
        return absl::DataLossError(absl::StrCat("the federation's copy of game '", bundle.game_id(),
                                                "' differs from the venue's at "
                                                "revision ",
                                                i + 1));
      }
      continue;
    }
    if (static_cast<size_t>(i) >= held.size()) {
      return absl::FailedPreconditionError(
          absl::StrCat("revision ", i + 1, " comes without its event, and the federation holds ",
                       held.size(), " event(s) of game '", bundle.game_id(), "'"));
    }
    e->set_event(held[i].event());
    *e->mutable_rulings() = held[i].rulings();
  }
  return absl::OkStatus();
}

VenueProofs::VenueProofs(std::unique_ptr<Tables> store, bool tables)
    : store_(std::move(store)), tables_(tables) {}

VenueProofs::~VenueProofs() = default;

absl::StatusOr<std::unique_ptr<VenueProofs::Tables>> VenueProofs::Connect(
    const std::string& location, bool read_only) {
  if (IsPostgresUri(location)) {
    absl::StatusOr<PgConn> conn = PgConn::Connect(location);
    if (!conn.ok()) return conn.status();
    return std::make_unique<PgTables>(*std::move(conn));
  }
  absl::StatusOr<Db> db =
      read_only ? Db::OpenReadOnly(location) : Db::Open(location, SQLITE_OPEN_READWRITE);
  if (!db.ok()) return db.status();
  return std::make_unique<SqliteTables>(*std::move(db));
}

absl::StatusOr<std::unique_ptr<VenueProofs>> VenueProofs::Open(const std::string& location) {
  absl::StatusOr<std::unique_ptr<Tables>> connected = Connect(location, false);
  if (!connected.ok()) return connected.status();
  std::unique_ptr<Tables> store = *std::move(connected);
  absl::StatusOr<bool> ledger = store->Exists("events");
  if (!ledger.ok()) return ledger.status();
  if (!*ledger) {
    return absl::FailedPreconditionError(absl::StrCat("no ledger at ", location));
  }
  if (absl::Status s = store->CreateTables(); !s.ok()) return s;
  return std::unique_ptr<VenueProofs>(new VenueProofs(std::move(store), true));
}

absl::StatusOr<std::unique_ptr<VenueProofs>> VenueProofs::OpenForReading(
    const std::string& location) {
  absl::StatusOr<std::unique_ptr<Tables>> connected = Connect(location, true);
  if (!connected.ok()) return connected.status();
  std::unique_ptr<Tables> store = *std::move(connected);
  absl::StatusOr<bool> tables = store->Exists("venue_proofs");
  if (!tables.ok()) return tables.status();
  return std::unique_ptr<VenueProofs>(new VenueProofs(std::move(store), *tables));
}

absl::StatusOr<std::optional<VenueGame>> VenueProofs::Find(const std::string& game_id) {
  if (!tables_ || game_id.empty()) return std::nullopt;
  absl::StatusOr<std::vector<VenueGame>> rows = store_->Games(game_id);
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return std::nullopt;
  return rows->front();
}

absl::StatusOr<std::vector<VenueGame>> VenueProofs::Games() {
  if (!tables_) return std::vector<VenueGame>();
  return store_->Games("");
}

absl::Status VenueProofs::Store(const v1::AuditBundle& bundle) {
  const std::string bytes = StoredBytes(bundle);
  const int64_t revisions = bundle.entries_size();
  absl::StatusOr<std::optional<VenueGame>> held = Find(bundle.game_id());
  if (!held.ok()) return held.status();
  if (!*held) {
    return absl::FailedPreconditionError(
        absl::StrCat("game '", bundle.game_id(), "' is not a synced game"));
  }
  if (absl::Status s = store_->InsertProof(bundle.game_id(), revisions, bytes); !s.ok()) return s;
  absl::StatusOr<std::vector<std::pair<int64_t, std::string>>> stored =
      store_->Proofs(bundle.game_id(), revisions);
  if (!stored.ok()) return stored.status();
  if (stored->size() != 1 || stored->front().second != bytes) {
    return absl::AlreadyExistsError(absl::StrCat("another venue proof of the first ", revisions,
                                                 " revision(s) of game '", bundle.game_id(),
                                                 "' is stored"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<v1::AuditBundle>> VenueProofs::Proofs(const std::string& game_id) {
  std::vector<v1::AuditBundle> out;
  if (!tables_) return out;
  absl::StatusOr<std::vector<std::pair<int64_t, std::string>>> rows = store_->Proofs(game_id, 0);
  if (!rows.ok()) return rows.status();
  for (const auto& [revisions, proof] : *rows) {
    if (!out.emplace_back().ParseFromString(proof)) {
      return absl::DataLossError(absl::StrCat("the venue proof of the first ", revisions,
                                              " revision(s) of game '", game_id,
                                              "' does not parse"));
    }
  }
  return out;
}

}  // namespace arbiter::ledger
