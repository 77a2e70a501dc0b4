// What a federation ledger keeps of the venues whose games were synced
// into it (`arbiter sync`, venue_sync.h), beside its own tables, in its
// PostgreSQL database or its SQLite file: which venue each
// synced game came from, with the venue's public key, and the venue's
// proofs of the game's events, so that the federation can prove its copy
// against the venue's own signed checkpoints years later
// (venue_audit.h).
//
// Two tables beside the ledger's, append-only like them (the same
// trigger refuses UPDATE and DELETE):
//   venue_games(game_id, venue_id, public_key): venue_id is the hex
//     SHA-256 of the venue's DER public key, i.e. the key_id its
//     checkpoints carry;
//   venue_proofs(game_id, revisions, proof): the venue's audit bundle of
//     the game's revisions 1..revisions (its signed checkpoint, key, rules
//     pin and every event's position and inclusion proof), with the event
//     bytes and rulings left out: those are the federation's own rows,
//     filled back in when the proof is checked, so what is proven is the
//     federation's copy itself. A game synced while it went on has one
//     proof per sync that added events.
#ifndef ARBITER_LEDGER_VENUE_PROOFS_H_
#define ARBITER_LEDGER_VENUE_PROOFS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"

namespace arbiter::ledger {

class VenueTables;  // venue_tables.h (internal)

// A synced game and the venue it came from.
struct VenueGame {
  std::string game_id;
  std::string venue_id;        // hex SHA-256 of public_key_der
  std::string public_key_der;  // the venue's Ed25519 key (SubjectPublicKeyInfo)
};

// The venue id of a public key: the hex key_id of its checkpoints.
std::string VenueId(const std::string& public_key_der);

// Puts the federation's own event bytes and rulings back into the entries
// of `bundle` that come without an event (a stored proof; the entries a
// venue pushing a game leaves out because the federation holds them), so
// that what a venue proof is checked against is the federation's copy.
// `held` is the federation's stream of the game, revision 1 first; entry i
// of the bundle must be revision i + 1. FAILED_PRECONDITION, naming the
// revision, when it is not, or when an entry without its event is one the
// federation does not hold; DATA_LOSS when an entry with its event is one
// the federation holds with other bytes.
absl::Status FillHeldEntries(v1::AuditBundle& bundle, const std::vector<v1::LedgerEntry>& held);

class VenueProofs {
 public:
  // Connects to the federation ledger at `location` (as OpenStore takes
  // it: a PostgreSQL URI, a SQLite data directory or its ledger.db) and creates the two tables if
  // absent. The ledger's own schema must exist (open the Ledger first):
  // FAILED_PRECONDITION if it does not; UNAVAILABLE if the database cannot
  // be reached.
  static absl::StatusOr<std::unique_ptr<VenueProofs>> Open(const std::string& location);
  // Connects to read only; a ledger with no venue tables reads as having no
  // synced game. UNAVAILABLE if the database cannot be reached.
  static absl::StatusOr<std::unique_ptr<VenueProofs>> OpenForReading(const std::string& location);
  ~VenueProofs();

  // The venue `game_id` was synced from; nullopt when it was not synced.
  absl::StatusOr<std::optional<VenueGame>> Find(const std::string& game_id);

  // Every synced game, by game id.
  absl::StatusOr<std::vector<VenueGame>> Games();

  // Stores the venue's bundle of its game's first N revisions (N = its
  // entries), without the event bytes and rulings. OK when the same proof
  // is already stored; ALREADY_EXISTS when another proof of the same
  // revisions is; FAILED_PRECONDITION when the game is not claimed.
  absl::Status Store(const v1::AuditBundle& bundle);

  // The stored proofs of `game_id`, fewest revisions first, events left out.
  absl::StatusOr<std::vector<v1::AuditBundle>> Proofs(const std::string& game_id);

 private:
  // The few statements, in the backend's dialect (Store::OpenVenueTables).
  VenueProofs(std::unique_ptr<VenueTables> store, bool tables);
  // A connection to the ledger at `location`, read-only if `read_only`.
  static absl::StatusOr<std::unique_ptr<VenueTables>> Connect(const std::string& location,
                                                              bool read_only);
  std::unique_ptr<VenueTables> store_;
  bool tables_;  // false: read-only on a ledger that never had a venue synced
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_VENUE_PROOFS_H_
