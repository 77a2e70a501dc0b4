#include "ledger/venue_audit.h"

#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ledger/stream.h"

namespace arbiter::ledger {
namespace {

bool Fail(VenueAuditReport& report, const std::string& game, std::string why) {
  report.intact = false;
  report.game_id = game;
  report.why = std::move(why);
  return false;
}

// One synced game: each of its proofs, then that the last covers it all.
bool CheckGame(VenueAuditReport& report, LogSource& federation, VenueProofs& proofs,
               const VenueGame& venue, const AuditOptions& options, absl::Status* error) {
  const std::string& game = venue.game_id;
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      federation.ReadGame(game, 0, std::numeric_limits<int64_t>::max());
  absl::StatusOr<std::vector<v1::AuditBundle>> stored = proofs.Proofs(game);
  if (!entries.ok() || !stored.ok()) {
    *error = !entries.ok() ? entries.status() : stored.status();
    return false;
  }
  uint64_t proven = 0;
  for (v1::AuditBundle& proof : *stored) {
    if (static_cast<size_t>(proof.entries_size()) > entries->size()) {
      return Fail(report, game,
                  absl::StrCat("a venue proof covers ", proof.entries_size(),
                               " event(s), the federation holds ", entries->size()));
    }
    if (absl::Status s = FillHeldEntries(proof, *entries); !s.ok()) {
      return Fail(report, game, std::string(s.message()));
    }
    AuditOptions bundle_options;
    bundle_options.public_key_der = venue.public_key_der;
    bundle_options.judge = options.judge;
    absl::StatusOr<AuditReport> r = AuditBundle(proof, bundle_options);
    if (!r.ok()) {
      *error = r.status();
      return false;
    }
    if (!r->intact) {
      return Fail(report, game,
                  absl::StrCat("not proven by venue ", venue.venue_id.substr(0, 16), "…",
                               r->first_bad_position > 0
                                   ? absl::StrCat(" (venue position ", r->first_bad_position, ")")
                                   : "",
                               ": ", r->why));
    }
    ++report.proofs;
    proven = proof.entries_size();
  }
  if (proven < entries->size()) {
    return Fail(report, game,
                absl::StrCat("revisions ", proven + 1, "..", entries->size(),
                             " are covered by no venue proof (a sync cut off: rerun it)"));
  }
  ++(IsTournamentStream(game) ? report.tournaments : report.games);
  report.events += proven;
  report.venues.insert(venue.venue_id);
  return true;
}

}  // namespace

absl::StatusOr<VenueAuditReport> AuditVenueProofs(LogSource& federation, VenueProofs& proofs,
                                                  const AuditOptions& options) {
  VenueAuditReport report;
  absl::StatusOr<std::vector<VenueGame>> games = proofs.Games();
  if (!games.ok()) return games.status();
  absl::Status error;
  for (const VenueGame& venue : *games) {
    if (options.game_id && *options.game_id != venue.game_id) continue;
    if (!CheckGame(report, federation, proofs, venue, options, &error)) {
      if (!error.ok()) return error;
      return report;
    }
  }
  return report;
}

}  // namespace arbiter::ledger
