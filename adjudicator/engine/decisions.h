// The arbiter's decision on a pending ruling (`arbiterDecision`): the option
// it picks is applied as the sanctioning says (20.3, 17.5-17.6, 22.8, 23).
//
// Handlers of the table of event kinds (adjudicator_kinds.cc) over the fold
// they change; each checks everything that can make its event bad input
// before it changes anything, so an error leaves the fold as it was.
#ifndef ARBITER_ADJUDICATOR_ENGINE_DECISIONS_H_
#define ARBITER_ADJUDICATOR_ENGINE_DECISIONS_H_

#include "absl/status/status.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// The handlers of decisions: a friend of Adjudicator, whose state they change.
class Decisions {
 public:
  static absl::Status OnArbiterDecision(Adjudicator& a, const v1::ArbiterDecision& d);

 private:
  // What the decision at `index` on the pending ruling `decided` does beyond
  // its sanctions: disputed displaced stones moved, a void move's pass, a
  // dropped stone played.
  static void CarryOut(Adjudicator& a, const RulingHistory::Pending& decided, int index);
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_DECISIONS_H_
