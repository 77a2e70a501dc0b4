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

#include "absl/status/statusor.h"
#include "adjudicator/service/tournament_at.h"
#include "arbiter/v1/tournament.pb.h"
#include "ledger/ledger.h"

namespace arbiter::tournament {

class TournamentStore {
 public:
  // The tournaments of `ledger` (not owned; it must outlive the store).
  // When `legacy_dir` is not empty and holds a tournaments.db of an earlier
  // release, its tournaments are moved into the ledger first, once
  // (MigrateLegacyTournaments); its error, if any.
  static absl::StatusOr<std::unique_ptr<TournamentStore>> Open(ledger::Ledger* ledger,
                                                               const std::string& legacy_dir);

  // The tournament's events in order; NOT_FOUND when it has none.
  absl::StatusOr<std::vector<v1::TournamentEvent>> Load(const std::string& tournament_id);

  // The ids of every tournament stored, in order.
  absl::StatusOr<std::vector<std::string>> Ids();

  // Appends `events` at revisions expected+1..., atomically and durably.
  // ABORTED when the tournament's revision is not `expected` (someone else
  // appended since it was read); the ledger's other errors
  // (Ledger::AppendTournament).
  absl::Status Append(const std::string& tournament_id, uint64_t expected,
                      const std::vector<v1::TournamentEvent>& events);

  // The signed checkpoint an export is derived at (tournament_at.h), as the
  // export names it: for `tree_size` 0 one covering the whole log now
  // (signed at the head unless the head has not moved since the latest,
  // Ledger::Checkpoint), else the one of exactly `tree_size`, NOT_FOUND
  // when the log has none of that size.
  absl::StatusOr<v1::ExportCheckpoint> ExportCheckpoint(uint64_t tree_size);
  // The reads a derivation makes (tournament_at.h), on the ledger.
  LogReads Reads() { return ReadsOf(*ledger_); }

 private:
  explicit TournamentStore(ledger::Ledger* ledger) : ledger_(ledger) {}
  ledger::Ledger* const ledger_;
};

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_SERVICE_TOURNAMENT_STORE_H_
