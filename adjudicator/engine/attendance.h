// Setting up, starting, adjourning and resuming a game, and who is late
// (arts. 14, 22.1-22.4; 1988 art. 23).
//
// Handlers of the table of event kinds (adjudicator_kinds.cc) over the fold
// they change; each checks everything that can make its event bad input
// before it changes anything, so an error leaves the fold as it was.
#ifndef ARBITER_ADJUDICATOR_ENGINE_ATTENDANCE_H_
#define ARBITER_ADJUDICATOR_ENGINE_ATTENDANCE_H_

#include "absl/status/status.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// The handlers of attendance: a friend of Adjudicator, whose state they change.
class Attendance {
 public:
  // One handler per event kind, called from its row of the table. Each
  // checks everything that can make the event bad input before it changes
  // anything.
  static absl::Status OnGameCreated(Adjudicator& a, const v1::GameCreated& g);
  static absl::Status OnGameStarted(Adjudicator& a, const v1::GameStarted& g);
  static absl::Status OnPlayerArrived(Adjudicator& a, const v1::PlayerArrived& p);
  static absl::Status OnAdjourned(Adjudicator& a);
  static absl::Status OnResumed(Adjudicator& a);
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_ATTENDANCE_H_
