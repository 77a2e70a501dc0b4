// One append inside a store's batch transaction, written once for both
// stores (internal to the ledger): idempotency, the stream checks, judging on
// a working fold, the rows. What a store reads and writes for it, the only
// part that differs between SQLite and PostgreSQL, is an AppendRows.
#ifndef ARBITER_LEDGER_INTERNAL_APPEND_ROWS_H_
#define ARBITER_LEDGER_INTERNAL_APPEND_ROWS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/hash.h"
#include "ledger/internal/append_job.h"
#include "ledger/judge.h"

namespace arbiter::ledger {

// The rows of one store, inside its open transaction. Errors are the
// database's.
class AppendRows {
 public:
  virtual ~AppendRows() = default;

  // The event an idempotency key names in a game's stream.
  struct KeyedEvent {
    uint64_t position = 0;
    std::string event;  // canonical bytes
  };
  virtual absl::StatusOr<std::optional<KeyedEvent>> FindKey(const std::string& game_id,
                                                            const std::string& key) = 0;

  // The recorded entry at `position`, with its rulings; DATA_LOSS when a
  // ruling does not parse.
  virtual absl::StatusOr<v1::LedgerEntry> EntryAt(uint64_t position) = 0;

  // The committed revision of the game's stream (0: none). The PostgreSQL
  // store locks the stream's head until the COMMIT.
  virtual absl::StatusOr<uint64_t> CommittedRevision(const std::string& game_id) = 0;

  // The committed stream replayed into a fresh fold (ReplayStream).
  virtual absl::StatusOr<std::unique_ptr<GameJudge>> Replay(const std::string& game_id) = 0;

  // Before the append's rows: its stream now ends at `revision`. A store
  // that keeps each stream's head in a row of its own (PostgreSQL's
  // `streams`) writes it here; by default the head is the last revision
  // among the events, which the rows themselves record.
  virtual absl::Status AdvanceStream(const std::string& /*game_id*/, uint64_t /*revision*/) {
    return absl::OkStatus();
  }

  virtual absl::Status InsertGame(const std::string& game_id, uint64_t first_position,
                                  const std::string& rules_pin) = 0;

  // The venue tables (venue_proofs.h), for a venue's first append: the
  // public key of the venue that claimed `game_id`, if one did; and its
  // claim. Prepared on use: the tables exist only once a venue has synced.
  virtual absl::StatusOr<std::optional<std::string>> VenueKeyOf(const std::string& game_id) = 0;
  virtual absl::Status InsertVenueGame(const std::string& game_id, const std::string& venue_id,
                                       const std::string& public_key_der) = 0;
  // `key` empty: none (NULL).
  virtual absl::Status InsertEvent(uint64_t position, const std::string& game_id, uint64_t revision,
                                   const std::string& key, const std::string& canonical,
                                   const Hash& leaf) = 0;
  virtual absl::Status InsertRuling(uint64_t position, uint64_t seq,
                                    const std::string& canonical) = 0;
  // When the server received the event at `position` (the arrivals table,
  // log_source.h Arrival), in the event's transaction.
  virtual absl::Status InsertArrival(uint64_t position, absl::Time received_at) = 0;
};

// Appends `job` on top of `batch` through `rows`, judged by `judge`; the
// entries written (or, for a retry whose every key is recorded with the same
// bytes, the recorded ones; never for a venue's append, which claims the
// game with its first events). `batch` changes only when it succeeds; on an
// error the caller rolls the rows back, as it does for a dry run
// (job.dry_run), which leaves `batch` as it was and sets job.recorded and
// job.result. Errors: as Ledger::Append (ledger.h)
// and the rows'.
absl::StatusOr<std::vector<v1::LedgerEntry>> AppendOnto(AppendJob& job, AppendBatch& batch,
                                                        Judge& judge, AppendRows& rows);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_APPEND_ROWS_H_
