#include "ledger/venue_proofs.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "proto/canonical/canonical_bytes.h"
#include "proto/canonical/sha256.h"

namespace arbiter::ledger {
namespace {

// The advisory lock under which the venue tables are made; the ledger's
// own are others (pg_log_reader.cc, pg_store.cc).
constexpr int64_t kVenueSchemaLock = 0x6172626974657203;  // "arbiter\x03"

constexpr const char* kTables = R"sql(
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

// The bundle as stored: every entry's place and proof, no event or ruling.
std::string StoredBytes(const v1::AuditBundle& bundle) {
  v1::AuditBundle proof = bundle;
  for (v1::ProvenEntry& p : *proof.mutable_entries()) {
    p.mutable_entry()->clear_event();
    p.mutable_entry()->clear_rulings();
  }
  return CanonicalBytes(proof);
}

// Whether `table` exists in the database.
absl::StatusOr<bool> Exists(PgConn& conn, const char* table) {
  absl::StatusOr<PgResult> r =
      conn.Exec(absl::StrCat("SELECT (to_regclass('", table, "') IS NOT NULL)::int"));
  if (!r.ok()) return r.status();
  return r->Int(0, 0) == 1;
}

}  // namespace

std::string VenueId(const std::string& public_key_der) { return ToHex(Sha256(public_key_der)); }

absl::StatusOr<std::unique_ptr<VenueProofs>> VenueProofs::Open(const std::string& uri) {
  absl::StatusOr<PgConn> conn = PgConn::Connect(uri);
  if (!conn.ok()) return conn.status();
  absl::StatusOr<bool> ledger = Exists(*conn, "events");
  if (!ledger.ok()) return ledger.status();
  if (!*ledger) {
    return absl::FailedPreconditionError(absl::StrCat("no ledger at ", uri));
  }
  {
    // One sync at a time makes the tables (CREATE ... IF NOT EXISTS races).
    absl::StatusOr<PgTransaction> tx = PgTransaction::Begin(*conn);
    if (!tx.ok()) return tx.status();
    absl::StatusOr<PgResult> lock =
        conn->Exec("SELECT pg_advisory_xact_lock($1)", PgParams().Int(kVenueSchemaLock));
    if (!lock.ok()) return lock.status();
    if (absl::Status s = conn->Run(kTables); !s.ok()) return s;
    if (absl::Status s = tx->Commit(); !s.ok()) return s;
  }
  return std::unique_ptr<VenueProofs>(new VenueProofs(*std::move(conn), true));
}

absl::StatusOr<std::unique_ptr<VenueProofs>> VenueProofs::OpenForReading(const std::string& uri) {
  absl::StatusOr<PgConn> conn = PgConn::Connect(uri);
  if (!conn.ok()) return conn.status();
  absl::StatusOr<bool> tables = Exists(*conn, "venue_proofs");
  if (!tables.ok()) return tables.status();
  return std::unique_ptr<VenueProofs>(new VenueProofs(*std::move(conn), *tables));
}

absl::StatusOr<std::optional<VenueGame>> VenueProofs::Find(const std::string& game_id) {
  if (!tables_) return std::nullopt;
  absl::StatusOr<PgResult> r = conn_.Exec(
      "SELECT venue_id, public_key FROM venue_games WHERE game_id = $1", PgParams().Text(game_id));
  if (!r.ok()) return r.status();
  if (r->rows() == 0) return std::nullopt;
  return VenueGame{game_id, r->Bytes(0, 0), r->Bytes(0, 1)};
}

absl::Status VenueProofs::Claim(const std::string& game_id, const std::string& public_key_der) {
  const std::string venue = VenueId(public_key_der);
  absl::StatusOr<PgResult> r = conn_.Exec(
      "INSERT INTO venue_games(game_id, venue_id, public_key) VALUES($1, $2, $3) "
      "ON CONFLICT (game_id) DO NOTHING",
      PgParams().Text(game_id).Text(venue).Bytes(public_key_der));
  if (!r.ok()) return r.status();
  absl::StatusOr<std::optional<VenueGame>> held = Find(game_id);
  if (!held.ok()) return held.status();
  if (!*held || (*held)->public_key_der != public_key_der) {
    return absl::AlreadyExistsError(
        absl::StrCat("game '", game_id, "' was synced from another venue (",
                     *held ? (*held)->venue_id.substr(0, 16) : std::string("?"), "…), not from ",
                     venue.substr(0, 16), "…"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<VenueGame>> VenueProofs::Games() {
  std::vector<VenueGame> out;
  if (!tables_) return out;
  absl::StatusOr<PgResult> r =
      conn_.Exec("SELECT game_id, venue_id, public_key FROM venue_games ORDER BY game_id");
  if (!r.ok()) return r.status();
  for (int i = 0; i < r->rows(); ++i) {
    out.push_back(VenueGame{r->Bytes(i, 0), r->Bytes(i, 1), r->Bytes(i, 2)});
  }
  return out;
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
  absl::StatusOr<PgResult> r = conn_.Exec(
      "INSERT INTO venue_proofs(game_id, revisions, proof) VALUES($1, $2, $3) "
      "ON CONFLICT (game_id, revisions) DO NOTHING",
      PgParams().Text(bundle.game_id()).Int(revisions).Bytes(bytes));
  if (!r.ok()) return r.status();
  absl::StatusOr<PgResult> stored =
      conn_.Exec("SELECT proof FROM venue_proofs WHERE game_id = $1 AND revisions = $2",
                 PgParams().Text(bundle.game_id()).Int(revisions));
  if (!stored.ok()) return stored.status();
  if (stored->rows() != 1 || stored->Bytes(0, 0) != bytes) {
    return absl::AlreadyExistsError(absl::StrCat("another venue proof of the first ", revisions,
                                                 " revision(s) of game '", bundle.game_id(),
                                                 "' is stored"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<v1::AuditBundle>> VenueProofs::Proofs(const std::string& game_id) {
  std::vector<v1::AuditBundle> out;
  if (!tables_) return out;
  absl::StatusOr<PgResult> r =
      conn_.Exec("SELECT revisions, proof FROM venue_proofs WHERE game_id = $1 ORDER BY revisions",
                 PgParams().Text(game_id));
  if (!r.ok()) return r.status();
  for (int i = 0; i < r->rows(); ++i) {
    if (!out.emplace_back().ParseFromString(r->Bytes(i, 1))) {
      return absl::DataLossError(absl::StrCat("the venue proof of the first ", r->Int(i, 0),
                                              " revision(s) of game '", game_id,
                                              "' does not parse"));
    }
  }
  return out;
}

}  // namespace arbiter::ledger
