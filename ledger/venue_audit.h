// The check that a federation can still prove each synced game against the
// venue's own signed checkpoints (`arbiter verify --db postgresql://...`):
// every stored venue proof (venue_proofs.h), filled back in with the
// federation's own event bytes and rulings at its revisions, is audited as
// a bundle (audit.h) under the venue's key: the venue's signature, every
// event's inclusion in the venue's signed root, and, with a judge, the
// rulings re-derived under the game's pinned rules. And the latest proof of
// a game must cover every event the federation holds of it: an event no
// venue proof covers is one the venue never signed.
#ifndef ARBITER_LEDGER_VENUE_AUDIT_H_
#define ARBITER_LEDGER_VENUE_AUDIT_H_

#include <cstdint>
#include <set>
#include <string>

#include "absl/status/statusor.h"
#include "ledger/audit.h"
#include "ledger/log_source.h"
#include "ledger/venue_proofs.h"

namespace arbiter::ledger {

struct VenueAuditReport {
  bool intact = true;
  std::string game_id;  // the first game not proven; empty when intact
  std::string why;
  uint64_t games = 0;        // synced games checked
  uint64_t tournaments = 0;  // synced tournaments (stream.h) checked, as games are
  uint64_t events = 0;       // their events, each proven in its venue's signed log
  uint64_t proofs = 0;
  std::set<std::string> venues;  // venue ids (hex key ids) of the games checked
};

// Checks every synced game and tournament of the federation behind
// `federation` (or only `options.game_id`, if it is one; a tournament's
// game_id is its stream name, "tournaments/{id}"); `options.judge` re-adjudicates, the
// key in `options` is ignored (each game's venue key is stored with it).
// A Status error only when the database cannot be read; every finding is
// in the report.
absl::StatusOr<VenueAuditReport> AuditVenueProofs(LogSource& federation, VenueProofs& proofs,
                                                  const AuditOptions& options);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_VENUE_AUDIT_H_
