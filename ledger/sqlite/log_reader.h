// Reads of the ledger on a connection of their own: the global log in pages
// from a position, one game's stream, checkpoints and leaf hashes. Each call
// reads one consistent snapshot of committed data.
#ifndef ARBITER_LEDGER_SQLITE_LOG_READER_H_
#define ARBITER_LEDGER_SQLITE_LOG_READER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/hash.h"
#include "ledger/log_source.h"
#include "ledger/sqlite.h"

namespace arbiter::ledger {

class LogReader final : public LogSource {
 public:
  // Opens the database file read-only (it must exist).
  static absl::StatusOr<LogReader> Open(const std::string& db_path, const char* vfs = nullptr);
  explicit LogReader(Db db) : db_(std::move(db)) {}

  // LogSource (log_source.h).
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

  Db& db() { return db_; }

 private:
  // Runs `q` (position-ordered event rows) and attaches rulings.
  absl::StatusOr<std::vector<v1::LedgerEntry>> Collect(Stmt& q);

  Db db_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SQLITE_LOG_READER_H_
