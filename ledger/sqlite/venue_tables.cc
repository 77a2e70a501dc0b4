#include "ledger/sqlite/venue_tables.h"

#include <utility>

namespace arbiter::ledger {
namespace {

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

class SqliteVenueTables final : public VenueTables {
 public:
  explicit SqliteVenueTables(Db db) : db_(std::move(db)) {}
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

}  // namespace

std::unique_ptr<VenueTables> SqliteVenueTablesOn(Db db) {
  return std::make_unique<SqliteVenueTables>(std::move(db));
}

}  // namespace arbiter::ledger
