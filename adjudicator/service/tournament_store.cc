#include "adjudicator/service/tournament_store.h"

#include <optional>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
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

absl::StatusOr<v1::ExportCheckpoint> TournamentStore::ExportCheckpoint(uint64_t tree_size) {
  absl::StatusOr<v1::Checkpoint> signed_one;
  if (tree_size == 0) {
    signed_one = ledger_->Checkpoint();
    if (!signed_one.ok()) return signed_one.status();
  } else {
    absl::StatusOr<std::optional<v1::Checkpoint>> of_size =
        ledger_->checkpoint_index().OfSize(tree_size);
    if (!of_size.ok()) return of_size.status();
    if (!of_size->has_value()) {
      return absl::NotFoundError(
          absl::StrCat("the log has no signed checkpoint of tree size ", tree_size));
    }
    signed_one = **of_size;
  }
  v1::ExportCheckpoint out;
  out.set_origin(ledger_->log_origin());
  out.set_tree_size(signed_one->tree_size());
  out.set_root_hash(absl::Base64Escape(signed_one->root_hash()));
  return out;
}

}  // namespace arbiter::tournament
