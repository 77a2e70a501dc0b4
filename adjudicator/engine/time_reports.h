// Reported flag falls and clock malfunctions (arts. 12.4, 22.5, 22.8, 22.9).
//
// Handlers of the table of event kinds (adjudicator_kinds.cc) over the fold
// they change; each checks everything that can make its event bad input
// before it changes anything, so an error leaves the fold as it was.
#ifndef ARBITER_ADJUDICATOR_ENGINE_TIME_REPORTS_H_
#define ARBITER_ADJUDICATOR_ENGINE_TIME_REPORTS_H_

#include "absl/status/status.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// The handlers of time reports: a friend of Adjudicator, whose state they change.
class TimeReports {
 public:
  static absl::Status OnTimeExpired(Adjudicator& a, const v1::TimeExpired& t);
  static absl::Status OnClockMalfunction(Adjudicator& a, const v1::ClockMalfunction& m);
  static absl::Status OnFirstHalfUnrecorded(Adjudicator& a);

 private:
  // Why a flag report for `c` is contradicted by the record (an untimed
  // game; a player whose clock is not running), or OK.
  static absl::Status CheckFlagReport(const Adjudicator& a, v1::Color c);
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_TIME_REPORTS_H_
