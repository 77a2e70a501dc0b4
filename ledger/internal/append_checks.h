// The checks every store makes of an append, whatever it is stored in
// (internal to the ledger): the append's own shape, and its fit to the
// stream as it stands.
#ifndef ARBITER_LEDGER_INTERNAL_APPEND_CHECKS_H_
#define ARBITER_LEDGER_INTERNAL_APPEND_CHECKS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/tournament.pb.h"
#include "ledger/expected_revision.h"
#include "ledger/judge.h"

namespace arbiter::ledger {

// INVALID_ARGUMENT for an empty game id or batch, a tournament's stream
// name (stream.h), an event with no kind, or an idempotency key used twice
// in the batch.
absl::Status ValidateAppend(const std::string& game_id, const std::vector<v1::Event>& events);

// A tournament's append (stream.h): INVALID_ARGUMENT for a stream name that
// is not "tournaments/{valid id}", an empty batch, or an event with no kind.
absl::Status ValidateTournamentAppend(const std::string& stream,
                                      const std::vector<v1::TournamentEvent>& events);

// A tournament's append against its stream at revision `current`, as
// CheckAgainstStream with `created` for gameCreated: NOT_FOUND when no
// stream and no `created` first, ALREADY_EXISTS for a `created` on a
// stream that exists, ABORTED when `expected` does not match,
// INVALID_ARGUMENT for a `created` after the first event or naming another
// tournament.
absl::Status CheckAgainstTournamentStream(const std::string& stream,
                                          const std::vector<v1::TournamentEvent>& events,
                                          uint64_t current, ExpectedRevision expected);

// The append against the stream at revision `current`: NOT_FOUND when no
// stream and no gameCreated first, ALREADY_EXISTS for a gameCreated on a
// stream that exists (both before `expected` is looked at), ABORTED when
// `expected` does not match, INVALID_ARGUMENT for a gameCreated after the
// first event or one naming another game.
absl::Status CheckAgainstStream(const std::string& game_id, const std::vector<v1::Event>& events,
                                uint64_t current, ExpectedRevision expected);

// Folds a stored stream again: `next` yields its events' bytes in revision
// order (nullopt at the end), `pin` the rules pin recorded at its creation
// (nullopt if none). FAILED_PRECONDITION when an event is refused or the
// rules no longer load as pinned.
absl::StatusOr<std::unique_ptr<GameJudge>> ReplayStream(
    Judge& judge, const std::string& game_id, const std::optional<std::string>& pin,
    const std::function<absl::StatusOr<std::optional<std::string>>()>& next);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_APPEND_CHECKS_H_
