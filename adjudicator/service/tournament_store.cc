#include "adjudicator/service/tournament_store.h"

#include <optional>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/service/tournament_migration.h"
#include "ledger/stream.h"

namespace arbiter::tournament {

absl::StatusOr<std::unique_ptr<TournamentStore>> TournamentStore::Open(
    ledger::Ledger* ledger, const std::string& legacy_dir, const std::string& location) {
  if (!legacy_dir.empty()) {
    if (absl::Status s = MigrateLegacyTournaments(*ledger, legacy_dir); !s.ok()) return s;
  }
  std::unique_ptr<ledger::VenueProofs> venues;
  if (!location.empty()) {
    // Made here if absent, so a sync that comes later is seen.
    absl::StatusOr<std::unique_ptr<ledger::VenueProofs>> opened =
        ledger::VenueProofs::Open(location);
    if (!opened.ok()) return opened.status();
    venues = *std::move(opened);
  }
  return std::unique_ptr<TournamentStore>(new TournamentStore(ledger, std::move(venues)));
}

absl::Status TournamentStore::CheckNotAVenues(const std::string& tournament_id) {
  absl::MutexLock lock(&mu_);
  if (venues_ == nullptr || own_.contains(tournament_id)) return absl::OkStatus();
  auto it = synced_.find(tournament_id);
  if (it == synced_.end()) {
    absl::StatusOr<std::optional<ledger::VenueGame>> venue =
        venues_->Find(absl::StrCat(ledger::kTournamentStreamPrefix, tournament_id));
    if (!venue.ok()) return venue.status();
    if (!*venue) {
      own_.insert(tournament_id);
      return absl::OkStatus();
    }
    it = synced_.emplace(tournament_id, (*venue)->venue_id.substr(0, 16)).first;
  }
  return absl::FailedPreconditionError(
      absl::StrCat("tournament '", tournament_id, "' was synced from venue (key ", it->second,
                   "…): it is that venue's record, written only by its sync"));
}

absl::StatusOr<std::vector<v1::TournamentEvent>> TournamentStore::Load(
    const std::string& tournament_id) {
  return ledger_->ReadTournament(tournament_id);
}

absl::StatusOr<std::vector<std::string>> TournamentStore::Ids() {
  return ledger_->log().ListTournaments();
}

absl::Status TournamentStore::Append(const std::string& tournament_id, uint64_t expected,
                                     const std::vector<v1::TournamentEvent>& events) {
  if (expected > 0) {  // a new tournament is nobody's yet
    if (absl::Status s = CheckNotAVenues(tournament_id); !s.ok()) return s;
  }
  return ledger_
      ->AppendAndWait(ledger::AppendRequest::Tournament(
          tournament_id,
          expected == 0 ? ledger::ExpectedRevision::NoStream()
                        : ledger::ExpectedRevision::Exactly(expected),
          events))
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
  out.set_origin(ledger_->identity().origin());
  out.set_tree_size(signed_one->tree_size());
  out.set_root_hash(absl::Base64Escape(signed_one->root_hash()));
  return out;
}

}  // namespace arbiter::tournament
