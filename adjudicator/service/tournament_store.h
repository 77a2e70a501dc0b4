// Tournament events, stored in the ledger: each tournament is a stream of
// the one signed log ("tournaments/{id}", ledger/stream.h), appended through
// the ledger's one write path, so `arbiter verify` checks it as it checks
// the games (ledger/README.md, "Tournament streams"). The ledger judges
// nothing of it: what may be written is decided here and in the service.
//
// A data folder of an earlier release kept them in tournaments.db beside
// the ledger; Open moves them into the ledger once (tournament_migration.h).
#ifndef ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_STORE_H_
#define ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_STORE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "adjudicator/service/tournament_at.h"
#include "arbiter/v1/tournament.pb.h"
#include "ledger/ledger.h"
#include "ledger/venue_proofs.h"

namespace arbiter::tournament {

class TournamentStore {
 public:
  // The tournaments of `ledger` (not owned; it must outlive the store).
  // When `legacy_dir` is not empty and holds a tournaments.db of an earlier
  // release, its tournaments are moved into the ledger first, once
  // (MigrateLegacyTournaments); its error, if any. With `location` (the
  // ledger's, as OpenStore takes it), a tournament a venue's sync copied in
  // (venue_proofs.h) is that venue's record: Append refuses it.
  static absl::StatusOr<std::unique_ptr<TournamentStore>> Open(ledger::Ledger* ledger,
                                                               const std::string& legacy_dir,
                                                               const std::string& location = "");

  // The tournament's events in order; NOT_FOUND when it has none.
  absl::StatusOr<std::vector<v1::TournamentEvent>> Load(const std::string& tournament_id);

  // The ids of every tournament stored, in order.
  absl::StatusOr<std::vector<std::string>> Ids();

  // Appends `events` at revisions expected+1..., atomically and durably.
  // ABORTED when the tournament's revision is not `expected` (someone else
  // appended since it was read); the ledger's other errors
  // (a tournament's AppendRequest); FAILED_PRECONDITION naming the venue for a
  // tournament synced from one (written only by its sync, so that the
  // venue's proofs go on covering every event).
  absl::Status Append(const std::string& tournament_id, uint64_t expected,
                      const std::vector<v1::TournamentEvent>& events);

  // OK unless `tournament_id`, which holds events, was synced from a venue
  // (FAILED_PRECONDITION naming it): this server writes nothing to it, not
  // even the standings it derives (standings_recorder.h), which the venue
  // records and its sync carries. The answer is kept: a claim is never
  // undone (the tables are append-only), and a sync claims a tournament only
  // with its first events.
  absl::Status CheckNotAVenues(const std::string& tournament_id);

  // The signed checkpoint an export is derived at (tournament_at.h), as the
  // export names it: for `tree_size` 0 one covering the whole log now
  // (signed at the head unless the head has not moved since the latest,
  // Ledger::Checkpoint), else the one of exactly `tree_size`, NOT_FOUND
  // when the log has none of that size.
  absl::StatusOr<v1::ExportCheckpoint> ExportCheckpoint(uint64_t tree_size);
  // The reads a derivation makes (tournament_at.h), on the ledger.
  LogReads Reads() { return ReadsOf(*ledger_); }

 private:
  TournamentStore(ledger::Ledger* ledger, std::unique_ptr<ledger::VenueProofs> venues)
      : ledger_(ledger), venues_(std::move(venues)) {}

  ledger::Ledger* const ledger_;
  absl::Mutex mu_;
  std::unique_ptr<ledger::VenueProofs> venues_ ABSL_GUARDED_BY(mu_);           // null: none checked
  absl::flat_hash_map<std::string, std::string> synced_ ABSL_GUARDED_BY(mu_);  // id -> venue id
  absl::flat_hash_set<std::string> own_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_STORE_H_
