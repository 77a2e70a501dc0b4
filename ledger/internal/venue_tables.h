// The venue tables (venue_proofs.h) as each backend stores them: the few
// statements the two dialects differ in (internal to the ledger; a Store
// hands them out, Store::OpenVenueTables). Rows are as in the tables.
#ifndef ARBITER_LEDGER_INTERNAL_VENUE_TABLES_H_
#define ARBITER_LEDGER_INTERNAL_VENUE_TABLES_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ledger/venue_proofs.h"

namespace arbiter::ledger {

class VenueTables {
 public:
  virtual ~VenueTables() = default;
  // Whether `table` exists in the database.
  virtual absl::StatusOr<bool> Exists(const char* table) = 0;
  // Creates venue_games and venue_proofs, append-only, if absent.
  virtual absl::Status CreateTables() = 0;
  // INSERT ... unless the key is there. (A game's venue_games row is
  // written with its first events: AppendRequest::venue_key_der.)
  virtual absl::Status InsertProof(const std::string& game, int64_t revisions,
                                   const std::string& proof) = 0;
  // venue_games rows, of `game` or (empty) all, by game id.
  virtual absl::StatusOr<std::vector<VenueGame>> Games(const std::string& game) = 0;
  // (revisions, proof) rows of `game`, fewest revisions first; only
  // `revisions`' if it is positive.
  virtual absl::StatusOr<std::vector<std::pair<int64_t, std::string>>> Proofs(
      const std::string& game, int64_t revisions) = 0;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_VENUE_TABLES_H_
