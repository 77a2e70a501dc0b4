// Incidents at the board: takebacks, capture errors, displaced stones,
// scattered boards and dropped stones (arts. 17.3, 17.5-17.6, 18.1-18.2).
//
// Handlers of the table of event kinds (adjudicator_kinds.cc) over the fold
// they change; each checks everything that can make its event bad input
// before it changes anything, so an error leaves the fold as it was.
#ifndef ARBITER_ADJUDICATOR_ENGINE_BOARD_INCIDENTS_H_
#define ARBITER_ADJUDICATOR_ENGINE_BOARD_INCIDENTS_H_

#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// The handlers of board incidents: a friend of Adjudicator, whose state they change.
class BoardIncidents {
 public:
  static absl::Status OnTakeback(Adjudicator& a, const v1::Takeback& t);
  static absl::Status OnCaptureError(Adjudicator& a, const v1::CaptureError& e);
  static absl::Status OnStonesDisplaced(Adjudicator& a, const v1::StonesDisplaced& d);
  static absl::Status OnBoardScattered(Adjudicator& a, const v1::BoardScattered& b);
  // Whether the stones at each `from` can be moved to their `to` (the
  // `to` points empty or themselves vacated), and moving them.
  static bool CanDisplace(const Adjudicator& a, const std::vector<std::pair<int, int>>& moves);
  static void Displace(Adjudicator& a, const std::vector<std::pair<int, int>>& moves);
  static absl::Status OnStoneDropped(Adjudicator& a, const v1::StoneDropped& d);
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_BOARD_INCIDENTS_H_
