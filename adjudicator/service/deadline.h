// When the passing of time alone will decide something in a live game: the
// running clock's flag, or a lateness limit with a player still absent.
//
// The engine says when (Adjudicator::NextDeadline): the instant, and the
// `timeExpired` to append then. This adds what the server needs around it:
// only live games that are not over, only within `horizon`, the event
// stamped with the server's actor, and the ruling it will produce, found by
// applying the event to a copy of the fold; a deadline whose event would not
// rule at the engine's instant first is not acted on.
#ifndef ARBITER_ADJUDICATOR_SERVICE_DEADLINE_H_
#define ARBITER_ADJUDICATOR_SERVICE_DEADLINE_H_

#include <optional>

#include "absl/time/time.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/rulings.pb.h"

namespace arbiter::service {

struct Deadline {
  absl::Time fire_at;    // when the server appends `event` (its `at`)
  v1::Event event;       // the timeExpired to append
  v1::Ruling predicted;  // the ruling it will produce first
};

// The next deadline of a live game within `horizon` of its last event, or
// nullopt (not live, not started, over, clocks stopped, nobody absent).
std::optional<Deadline> NextDeadline(const Adjudicator& game,
                                     absl::Duration horizon = absl::Hours(24 * 30));

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_DEADLINE_H_
