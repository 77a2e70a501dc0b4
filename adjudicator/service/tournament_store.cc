#include "adjudicator/service/tournament_store.h"

#include "adjudicator/service/tournament_migration.h"

namespace arbiter::tournament {

absl::StatusOr<std::unique_ptr<TournamentStore>> TournamentStore::Open(
    ledger::Ledger* ledger, const std::string& legacy_dir) {
  if (!legacy_dir.empty()) {
    if (absl::Status s = MigrateLegacyTournaments(*ledger, legacy_dir); !s.ok()) return s;
  }
  return std::unique_ptr<TournamentStore>(new TournamentStore(ledger));
}

absl::StatusOr<std::vector<v1::TournamentEvent>> TournamentStore::Load(
    const std::string& tournament_id) {
  return ledger_->ReadTournament(tournament_id);
}

absl::StatusOr<std::vector<std::string>> TournamentStore::Ids() {
  return ledger_->ListTournaments();
}

absl::Status TournamentStore::Append(const std::string& tournament_id, uint64_t expected,
                                     const std::vector<v1::TournamentEvent>& events) {
  return ledger_
      ->AppendTournament(tournament_id,
                         expected == 0 ? ledger::ExpectedRevision::NoStream()
                                       : ledger::ExpectedRevision::Exactly(expected),
                         events)
      .status();
}

}  // namespace arbiter::tournament
