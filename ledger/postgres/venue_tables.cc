#include "ledger/postgres/venue_tables.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace arbiter::ledger {
namespace {

// The advisory lock under which the venue tables are made; the ledger's
// own are others (postgres/log_reader.cc, postgres/store.cc).
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

class PgVenueTables final : public VenueTables {
 public:
  explicit PgVenueTables(PgConn conn) : conn_(std::move(conn)) {}
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

}  // namespace

std::unique_ptr<VenueTables> PgVenueTablesOn(PgConn conn) {
  return std::make_unique<PgVenueTables>(std::move(conn));
}

}  // namespace arbiter::ledger
