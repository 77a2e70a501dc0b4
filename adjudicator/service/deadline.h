// When the passing of time alone will decide something in a live game: the
// running clock's flag, or a lateness limit with a player still absent.
//
// The adjudicator already rules such instants itself when the next event
// comes (a flag that fell rules at the flag's instant, whatever the event
// is). The deadline is found by asking it: a copy of the fold is shown a
// neutral event far in the future, and the first ruling that time alone
// produced is the deadline, with its exact instant. No clock arithmetic is
// duplicated here, so the server's timer and the engine cannot disagree.
//
// The event the server then appends is `timeExpired` for the player the
// ruling is against, at the flag's instant; for a lateness forfeit, which
// the rules decide only strictly after the limit ("one second more loses"),
// one second past it. The candidate is checked on another copy to produce
// exactly the predicted ruling first; if not, there is no deadline to act on.
#ifndef ARBITER_ADJUDICATOR_SERVICE_DEADLINE_H_
#define ARBITER_ADJUDICATOR_SERVICE_DEADLINE_H_

#include <optional>

#include "absl/time/time.h"
#include "adjudicator/adjudicator.h"
#include "arbiter/v1/events.pb.h"
#include "arbiter/v1/rulings.pb.h"

namespace arbiter::service {

struct Deadline {
  absl::Time fire_at;   // when the server appends `event` (its `at`)
  v1::Event event;      // the timeExpired to append
  v1::Ruling predicted; // the ruling it will produce first
};

// The next deadline of a live game within `horizon` of its last event, or
// nullopt (not live, not started, over, clocks stopped, nobody absent).
std::optional<Deadline> NextDeadline(const Adjudicator& game,
                                     absl::Duration horizon = absl::Hours(24 * 30));

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_DEADLINE_H_
