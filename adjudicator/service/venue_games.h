// A federation's server and the venues whose games sync into it through it
// (`arbiter serve --venue-key NAME=FILE`, `arbiter sync --to ADDR`): the
// SyncVenueGame method (a game's bundle, or a tournament stream's), and the
// guard that keeps a synced game the venue's.
//
// A venue pushes each game as its audit bundle; it is checked and copied
// by the same code as a pull (ledger/venue_sync.h), under the key of the
// venue the server was configured with whose key the bundle names: a
// bundle under any other key is refused before it is looked at. A synced
// game's stream is the venue's, byte for byte, and its proof holds only as
// long as nobody else writes it: the recorder asks CheckWritable before
// every append (AppendEvents, CreateGame, Decide, the console), whatever
// the caller's role. The venue tables live beside the ledger's own, in its
// PostgreSQL database or its SQLite file (ledger/venue_proofs.h).
#ifndef ARBITER_ADJUDICATOR_SERVICE_VENUE_GAMES_H_
#define ARBITER_ADJUDICATOR_SERVICE_VENUE_GAMES_H_

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "arbiter/v1/service.pb.h"
#include "ledger/ledger.h"
#include "ledger/venue_proofs.h"

namespace arbiter::service {

class VenueGames {
 public:
  // The venues a server accepts: name → public key (DER).
  using Keys = std::map<std::string, std::string>;

  // `ledger`: the server's ledger, opened already: its PostgreSQL URI or
  // its SQLite ledger.db (the venue tables are made there if absent).
  // UNAVAILABLE when the database cannot be reached.
  static absl::StatusOr<std::unique_ptr<VenueGames>> Open(const std::string& ledger, Keys keys);

  // OK when `game_id` may be written by anyone but a venue's sync;
  // FAILED_PRECONDITION naming its venue when it was synced from one;
  // UNAVAILABLE when the database cannot be read, and `recorded`'s errors.
  //
  // The answer is remembered, so a game's appends after its first ask
  // nothing of the database: a synced game stays synced (the tables are
  // append-only), and a game that already held events when it was found
  // unclaimed stays writable, because a sync claims a game in the same
  // transaction as its first events (AppendRequest::venue_key_der) and never
  // claims a game that holds events. `recorded`
  // says whether the game holds committed events; it is asked only when
  // the answer is not remembered, before the venue tables are read.
  absl::Status CheckWritable(const std::string& game_id,
                             const std::function<absl::StatusOr<bool>()>& recorded);

  // SyncVenueGame (proto/arbiter/v1/service.proto) into `federation`, whose
  // errors it documents; a bundle of a tournament's stream
  // ("tournaments/{id}", sent whole: INVALID_ARGUMENT when partial) is copied as
  // ledger::SyncVenueTournament copies it.
  absl::StatusOr<v1::SyncVenueGameResponse> Sync(const v1::SyncVenueGameRequest& request,
                                                 ledger::Ledger& federation);

 private:
  VenueGames(std::string location, Keys keys, std::unique_ptr<ledger::VenueProofs> reads,
             std::unique_ptr<ledger::VenueProofs> writes)
      : location_(std::move(location)),
        keys_(std::move(keys)),
        reads_(std::move(reads)),
        writes_(std::move(writes)) {}

  // The name of the venue whose key is `der`, or "" if none.
  std::string NameOf(const std::string& der) const;

  const std::string location_;  // the ledger's database, to reconnect to
  const Keys keys_;
  absl::Mutex read_mu_;
  // One connection each, so that a long sync does not hold up the checks.
  std::unique_ptr<ledger::VenueProofs> reads_ ABSL_GUARDED_BY(read_mu_);
  // Synced games never stop being synced (the tables are append-only): the
  // venue each came from, as messages name it.
  absl::flat_hash_map<std::string, std::string> synced_ ABSL_GUARDED_BY(read_mu_);
  // Games found unclaimed once they held events: never claimable again.
  absl::flat_hash_set<std::string> writable_ ABSL_GUARDED_BY(read_mu_);
  absl::Mutex write_mu_;
  std::unique_ptr<ledger::VenueProofs> writes_ ABSL_GUARDED_BY(write_mu_);
  AdjudicatorJudge judge_ ABSL_GUARDED_BY(write_mu_);  // re-derives the venue's rulings
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_VENUE_GAMES_H_
