#include "adjudicator/service/venue_games.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/field_bounds.h"
#include "ledger/stream.h"
#include "ledger/venue_sync.h"

namespace arbiter::service {

absl::StatusOr<std::unique_ptr<VenueGames>> VenueGames::Open(const std::string& ledger, Keys keys) {
  absl::StatusOr<std::unique_ptr<ledger::VenueProofs>> reads = ledger::VenueProofs::Open(ledger);
  if (!reads.ok()) return reads.status();
  absl::StatusOr<std::unique_ptr<ledger::VenueProofs>> writes = ledger::VenueProofs::Open(ledger);
  if (!writes.ok()) return writes.status();
  return std::unique_ptr<VenueGames>(
      new VenueGames(ledger, std::move(keys), *std::move(reads), *std::move(writes)));
}

std::string VenueGames::NameOf(const std::string& der) const {
  for (const auto& [name, key] : keys_) {
    if (key == der) return name;
  }
  return "";
}

absl::Status VenueGames::CheckWritable(const std::string& game_id,
                                       const std::function<absl::StatusOr<bool>()>& recorded) {
  absl::MutexLock lock(&read_mu_);
  if (writable_.contains(game_id)) return absl::OkStatus();
  auto it = synced_.find(game_id);
  if (it == synced_.end()) {
    // Asked first: held events then, and no claim after, is final.
    absl::StatusOr<bool> held = recorded();
    if (!held.ok()) return held.status();
    absl::StatusOr<std::optional<ledger::VenueGame>> venue = reads_->Find(game_id);
    if (!venue.ok()) {
      // The database restarted: reconnect, as the ledger does on its next batch.
      absl::StatusOr<std::unique_ptr<ledger::VenueProofs>> again =
          ledger::VenueProofs::OpenForReading(location_);
      if (!again.ok()) return venue.status();
      reads_ = *std::move(again);
      venue = reads_->Find(game_id);
      if (!venue.ok()) return venue.status();
    }
    if (!*venue) {
      if (*held) writable_.insert(game_id);
      return absl::OkStatus();
    }
    const std::string name = NameOf((*venue)->public_key_der);
    it = synced_
             .emplace(game_id, absl::StrCat(name.empty() ? "" : absl::StrCat("'", name, "' "),
                                            "(key ", (*venue)->venue_id.substr(0, 16), "…)"))
             .first;
  }
  return absl::FailedPreconditionError(
      absl::StrCat("game '", game_id, "' was synced from venue ", it->second,
                   ": it is that venue's record, written only by its sync"));
}

namespace {

// INVALID_ARGUMENT unless `bundle` holds entries, a stream id and at most a
// request's worth of event and ruling bytes.
absl::Status CheckBundleSize(const v1::AuditBundle& bundle) {
  if (bundle.entries_size() == 0) {
    return absl::InvalidArgumentError("bundle: no entries");
  }
  if (bundle.game_id().empty() || bundle.game_id().size() > kMaxKeyBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("bundle.gameId: ", bundle.game_id().size(), " bytes, 1 to ", kMaxKeyBytes));
  }
  size_t bytes = 0;
  for (const v1::ProvenEntry& p : bundle.entries()) {
    if (p.entry().event().size() > kMaxEventBytes) {
      return absl::InvalidArgumentError(absl::StrCat("bundle: revision ", p.entry().revision(),
                                                     ": ", p.entry().event().size(),
                                                     " bytes, at most ", kMaxEventBytes));
    }
    bytes += p.entry().event().size();
    for (const v1::Ruling& r : p.entry().rulings()) bytes += r.ByteSizeLong();
  }
  if (bytes > kMaxBatchBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bundle: ", bytes, " bytes of events and rulings in one request, at most ", kMaxBatchBytes,
        "; leave out those the federation holds and send the rest in parts "
        "(partial)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<v1::SyncVenueGameResponse> VenueGames::Sync(const v1::SyncVenueGameRequest& request,
                                                           ledger::Ledger& federation) {
  const v1::AuditBundle& bundle = request.bundle();
  if (absl::Status s = CheckBundleSize(bundle); !s.ok()) return s;
  absl::MutexLock lock(&write_mu_);
  const std::string venue = NameOf(bundle.public_key());
  if (venue.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "bundle: its key ", ledger::VenueId(bundle.public_key()).substr(0, 16),
        "… is not a venue key this server accepts (`arbiter serve --venue-key NAME=FILE`)"));
  }
  ledger::VenueSyncOptions options;
  options.venue_key_der = keys_.at(venue);
  options.judge = &judge_;
  options.partial = request.partial();
  if (absl::StatusOr<std::optional<ledger::VenueGame>> alive = writes_->Find(bundle.game_id());
      !alive.ok()) {
    absl::StatusOr<std::unique_ptr<ledger::VenueProofs>> again =
        ledger::VenueProofs::Open(location_);  // the database restarted: reconnect
    if (!again.ok()) return again.status();
    writes_ = *std::move(again);
  }
  // A tournament's stream ("tournaments/{id}") comes whole, after its
  // games: checked and copied as the venue's record of it.
  const bool tournament = ledger::IsTournamentStream(bundle.game_id());
  if (tournament && request.partial()) {
    return absl::InvalidArgumentError(
        absl::StrCat("bundle: tournament '", bundle.game_id(), "' is synced whole, not in parts"));
  }
  absl::StatusOr<ledger::VenueSyncResult> r =
      tournament ? ledger::SyncVenueTournament(bundle, federation, *writes_, options)
                 : ledger::SyncVenueGame(bundle, federation, *writes_, options);
  if (!r.ok()) return r.status();
  v1::SyncVenueGameResponse out;
  out.set_appended(r->appended);
  out.set_already(r->already);
  out.set_revision(r->revision);
  out.set_venue_tree_size(r->venue_tree_size);
  out.set_venue(venue);
  out.set_deferred(r->deferred);
  return out;
}

}  // namespace arbiter::service
