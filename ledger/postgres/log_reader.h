// Reads of a PostgreSQL ledger on a connection of its own (LogSource), and
// the schema such a ledger is made with.
#ifndef ARBITER_LEDGER_POSTGRES_LOG_READER_H_
#define ARBITER_LEDGER_POSTGRES_LOG_READER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "ledger/log_source.h"
#include "ledger/postgres/pg.h"

namespace arbiter::ledger {

// Creates the tables, indexes and append-only triggers if absent (under an
// advisory lock, so servers starting together do not race) and checks the
// schema version: FAILED_PRECONDITION if it differs.
absl::Status PreparePgSchema(PgConn& conn);

class PgLogReader final : public LogSource {
 public:
  // Connects to `uri`; UNAVAILABLE if it cannot.
  static absl::StatusOr<std::unique_ptr<PgLogReader>> Open(const std::string& uri);
  explicit PgLogReader(PgConn conn) : conn_(std::move(conn)) {}

  absl::StatusOr<uint64_t> Head() override;
  absl::StatusOr<std::vector<v1::LedgerEntry>> ReadLog(uint64_t after, size_t max) override;
  absl::StatusOr<std::vector<v1::LedgerEntry>> ReadGame(const std::string& game_id, uint64_t after,
                                                        size_t max) override;
  absl::StatusOr<std::optional<v1::LedgerEntry>> FindKey(const std::string& game_id,
                                                         const std::string& key) override;
  absl::StatusOr<uint64_t> GameRevision(const std::string& game_id) override;
  absl::StatusOr<std::vector<GameListing>> ListGames(uint64_t after, size_t max) override;
  absl::StatusOr<std::vector<std::string>> ListTournaments() override;
  absl::StatusOr<std::string> RulesPin(const std::string& game_id) override;
  absl::StatusOr<std::vector<v1::Checkpoint>> Checkpoints() override;
  absl::StatusOr<std::vector<v1::Checkpoint>> CheckpointsBetween(uint64_t first,
                                                                 uint64_t last) override;
  absl::StatusOr<std::vector<Hash>> LeafHashes(uint64_t tree_size, uint64_t after = 0) override;
  absl::StatusOr<std::string> RecordedPublicKey() override;
  absl::StatusOr<std::vector<Arrival>> Arrivals(uint64_t after, size_t max) override;

  PgConn& conn() { return conn_; }

 private:
  // Entries of `sql` (position, game_id, revision, event rows), with their
  // rulings, in one snapshot.
  absl::StatusOr<std::vector<v1::LedgerEntry>> Collect(const std::string& sql,
                                                       const PgParams& params);
  // Reconnects if the connection was lost (the server restarted).
  absl::Status Reconnect();

  std::string uri_;
  PgConn conn_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_POSTGRES_LOG_READER_H_
