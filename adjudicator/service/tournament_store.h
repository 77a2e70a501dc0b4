// Tournament events, stored: tournaments.db, an SQLite file beside the
// ledger in the server's data directory (whose lock file already keeps a
// second server out).
//
// Why not the ledger itself: the ledger's streams are games. Every append is
// judged by the adjudicator, a stream must begin with gameCreated, and its
// Merkle tree and checkpoints certify what happened at the board. Tournament
// events (created, player added, round paired, replay scheduled, tie-break
// decided, player withdrawn) are the organiser's administrative record; they
// refer to games by id and adjudicate nothing, so they get their own
// event-sourced table with the same discipline: append-only, one contiguous
// revision per tournament, an append that checks the revision the writer
// folded (optimistic concurrency), WAL with synchronous=FULL.
#ifndef ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_STORE_H_
#define ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_STORE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "arbiter/v1/tournament.pb.h"
#include "ledger/sqlite.h"

namespace arbiter::tournament {

class TournamentStore {
 public:
  // Opens (creating if absent) `dir`/tournaments.db.
  static absl::StatusOr<std::unique_ptr<TournamentStore>> Open(const std::string& dir);

  // The tournament's events in order; NOT_FOUND when it has none.
  absl::StatusOr<std::vector<v1::TournamentEvent>> Load(const std::string& tournament_id);

  // The ids of every tournament stored, in order.
  absl::StatusOr<std::vector<std::string>> Ids();

  // Appends `events` at revisions expected+1..., atomically and durably.
  // ABORTED when the tournament's revision is not `expected` (someone else
  // appended since it was read).
  absl::Status Append(const std::string& tournament_id, uint64_t expected,
                      const std::vector<v1::TournamentEvent>& events);

 private:
  explicit TournamentStore(ledger::Db db) : db_(std::move(db)) {}
  absl::Mutex mu_;
  ledger::Db db_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_STORE_H_
