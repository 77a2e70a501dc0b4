// The reads of committed ledger data, whatever stores it: the SQLite file
// (LogReader) or a PostgreSQL database (PgLogReader). The ledger's read
// methods, its bundles, proofs and subscriptions are written against this;
// each call reads one consistent snapshot of committed data.
#ifndef ARBITER_LEDGER_LOG_SOURCE_H_
#define ARBITER_LEDGER_LOG_SOURCE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/hash.h"

namespace arbiter::ledger {

// A game as the ledger lists it.
struct GameListing {
  std::string game_id;
  uint64_t first_position = 0;  // where its gameCreated stands in the log
};

// When the server received the event at `position` (its clock as the
// ledger took the append), kept beside the log: not hashed, not signed,
// not in bundles (DOMAIN.md, "The public broadcast"). Events recorded
// before the ledger kept arrivals have none.
struct Arrival {
  uint64_t position = 0;
  absl::Time received_at;
};

class LogSource {
 public:
  virtual ~LogSource() = default;

  // The number of committed events (the last position).
  virtual absl::StatusOr<uint64_t> Head() = 0;

  // Up to `max` entries with position > `after`, in order, with rulings.
  virtual absl::StatusOr<std::vector<v1::LedgerEntry>> ReadLog(uint64_t after, size_t max) = 0;

  // Up to `max` entries of `game_id` with revision > `after`, in order.
  virtual absl::StatusOr<std::vector<v1::LedgerEntry>> ReadGame(const std::string& game_id,
                                                                uint64_t after, size_t max) = 0;

  // The entry `key` names in `game_id`'s stream (idempotency keys are per
  // game), with its rulings; nullopt when none does.
  virtual absl::StatusOr<std::optional<v1::LedgerEntry>> FindKey(const std::string& game_id,
                                                                 const std::string& key) = 0;

  // The game's last revision; 0 when it has no stream.
  virtual absl::StatusOr<uint64_t> GameRevision(const std::string& game_id) = 0;

  // Up to `max` games created after global position `after`, in the order
  // of their creation (resume after the last one's first_position).
  virtual absl::StatusOr<std::vector<GameListing>> ListGames(uint64_t after, size_t max) = 0;

  // The ids of every tournament with a stream in the log (stream.h), in
  // byte order ("T1", not "tournaments/T1").
  virtual absl::StatusOr<std::vector<std::string>> ListTournaments() = 0;

  // The rules pin recorded at the game's creation; NOT_FOUND if none.
  virtual absl::StatusOr<std::string> RulesPin(const std::string& game_id) = 0;

  // All checkpoints, by tree size.
  virtual absl::StatusOr<std::vector<v1::Checkpoint>> Checkpoints() = 0;
  // Those whose tree size is in [first, last], by size (what the checkpoint
  // index reads: the ones signed since it last looked, or one).
  virtual absl::StatusOr<std::vector<v1::Checkpoint>> CheckpointsBetween(uint64_t first,
                                                                         uint64_t last) {
    absl::StatusOr<std::vector<v1::Checkpoint>> all = Checkpoints();
    if (!all.ok()) return all.status();
    std::vector<v1::Checkpoint> out;
    for (v1::Checkpoint& c : *all) {
      if (c.tree_size() >= first && c.tree_size() <= last) out.push_back(std::move(c));
    }
    return out;
  }

  // The stored leaf hashes of positions after + 1 .. tree_size.
  virtual absl::StatusOr<std::vector<Hash>> LeafHashes(uint64_t tree_size, uint64_t after = 0) = 0;

  // The public key recorded when the ledger was made (DER); NOT_FOUND if none.
  virtual absl::StatusOr<std::string> RecordedPublicKey() = 0;

  // Up to `max` arrivals of positions > `after`, in position order (a
  // position recorded before arrivals were kept has none: skipped).
  virtual absl::StatusOr<std::vector<Arrival>> Arrivals(uint64_t after, size_t max) = 0;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_LOG_SOURCE_H_
