// One venue game copied into a federation ledger (`arbiter sync`): the
// venue's events, byte for byte, so that the venue's signed checkpoints
// still prove the federation's copy, and the venue's proof stored beside
// them (venue_proofs.h).
//
// The unit is the venue's audit bundle of the game (bundle.h): its events
// with rulings and actors, each with an inclusion proof against the
// venue's signed checkpoint. It is checked before anything is written
// (signature, every inclusion proof, the venue's rulings re-derived under
// the game's pinned rules and equal to the recorded ones). The game keeps
// its venue game id (its gameCreated names it, and renaming would change
// the bytes the venue signed) and the federation stream mirrors the
// venue's revision for revision, so the stream's revision is the resume
// point and the idempotency check: events after the federation's revision
// are appended with that revision expected, those before it must be the
// venue's bytes. Rerun, or cut off and rerun, nothing is duplicated or
// lost; two syncs of one game at once: one append wins, the other is
// ABORTED and its rerun finds nothing to add.
#ifndef ARBITER_LEDGER_VENUE_SYNC_H_
#define ARBITER_LEDGER_VENUE_SYNC_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/judge.h"
#include "ledger/ledger.h"
#include "ledger/venue_proofs.h"

namespace arbiter::ledger {

struct VenueSyncOptions {
  // The venue's public key (DER) the bundle must be signed with. Empty:
  // the key the bundle carries, which must then be the key the game was
  // first synced under (the federation pins it per game).
  std::string venue_key_der;
  // Required: re-derives the venue's rulings (audit.h's re-adjudication).
  Judge* judge = nullptr;
  // Events per append (one transaction each).
  size_t batch = 256;
  // Called after each append with the events this call appended so far.
  std::function<void(uint64_t)> appended;
  // The bundle is the venue's first revisions only, the game having more
  // (a chunk of a game too large for one request): its events are copied,
  // the venue's proof is stored by the sync of the whole. A live game is
  // refused in parts (FAILED_PRECONDITION): whether it has ended is known
  // only from the whole.
  bool partial = false;
};

struct VenueSyncResult {
  uint64_t appended = 0;  // events new to the federation
  uint64_t already = 0;   // events it held already (a rerun)
  uint64_t venue_tree_size = 0;
  uint64_t revision = 0;  // the federation's revision of the game after it
  // Non-empty: why nothing was written this time (a live game in progress:
  // its clock is the venue server's, and a federation server would time it
  // too). A later sync copies it.
  std::string deferred;
};

// Copies `bundle`'s game into `federation` and stores its proof in
// `proofs`. Entries without their event bytes are the federation's own
// revisions, filled in from it before the bundle is checked
// (FillHeldEntries). Errors (nothing written in the first four cases):
//  - DATA_LOSS: the bundle does not prove its events (a tampered event, a
//    forged signature, a key other than `venue_key_der` or than the one the
//    game was first synced under, rulings that re-derive otherwise), or the
//    federation's copy differs from the venue's events;
//  - ALREADY_EXISTS: the game id is another venue's, or the federation's own
//    (also when it was created here while the sync ran: the venue's claim
//    is written with the game's first events, so none is left behind);
//  - FAILED_PRECONDITION: an entry without its event that the federation
//    does not hold; another rules version here; a live game in parts;
//  - INVALID_ARGUMENT: no judge, no entries;
//  - ABORTED: another writer appended to the game meanwhile (rerun);
//  - the ledger's and the database's errors (rerun resumes).
absl::StatusOr<VenueSyncResult> SyncVenueGame(v1::AuditBundle bundle, Ledger& federation,
                                              VenueProofs& proofs, const VenueSyncOptions& options);

// Copies `bundle`'s tournament (its game_id the stream's name,
// "tournaments/{id}", stream.h) into `federation` as SyncVenueGame copies a
// game: the bundle audited first (the venue's signature and every event's
// inclusion under the venue's key, the stream's shape), then the events
// the federation lacks appended byte for byte under the venue's tournament
// id (the first batch claiming the stream for the venue, in its
// transaction), then the proof stored. A tournament has no rulings, rules
// pin or end: nothing is re-derived (a recorded standings event is copied
// as any other), and every covered event is copied. Errors as
// SyncVenueGame's (DATA_LOSS, ALREADY_EXISTS, FAILED_PRECONDITION,
// INVALID_ARGUMENT, ABORTED); `options.judge` and `partial` are not used.
absl::StatusOr<VenueSyncResult> SyncVenueTournament(v1::AuditBundle bundle, Ledger& federation,
                                                    VenueProofs& proofs,
                                                    const VenueSyncOptions& options);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_VENUE_SYNC_H_
