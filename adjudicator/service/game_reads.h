// What the reading methods answer, for whoever serves them: the gRPC
// service (arbiter_service.h) and the web console (console/) read a game
// through these, from the same read model and the same ledger, so a page
// and a call show the same game.
#ifndef ARBITER_ADJUDICATOR_SERVICE_GAME_READS_H_
#define ARBITER_ADJUDICATOR_SERVICE_GAME_READS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "adjudicator/service/game_folds.h"
#include "arbiter/v1/service.pb.h"
#include "ledger/ledger.h"

namespace arbiter::service {

// The game as last committed (GetGame): board, clocks, warnings, pending
// rulings, result, next live deadline. The read model's errors (NOT_FOUND
// for an unknown game, DATA_LOSS, the ledger's).
absl::Status FillGame(GameFolds& folds, const std::string& game_id, v1::Game* out);

// The game's whole record: its events with their rulings up to the revision
// the read model holds, the ruling history, the result. As FillGame, and
// DATA_LOSS for a stored event that no longer parses.
absl::StatusOr<v1::GameRecord> ReadRecord(ledger::Ledger& ledger, GameFolds& folds,
                                          const std::string& game_id);

// The audit of the ledger, the game re-adjudicated from its stored events
// by a judge of its own (VerifyGame). As FillGame; the audit's findings are
// in the answer, not in the status.
absl::StatusOr<v1::VerifyGameResponse> VerifyGame(ledger::Ledger& ledger, GameFolds& folds,
                                                  const std::string& game_id);

// The first signed checkpoint whose tree covers `position`; when none does
// yet, one signed now at the head. The ledger's errors.
absl::StatusOr<v1::Checkpoint> CheckpointCovering(ledger::Ledger& ledger, uint64_t position);

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_GAME_READS_H_
