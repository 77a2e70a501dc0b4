// Conduct: phones, smoking, misconduct, leaving the seat, wrong colours,
// time-wasting and withdrawal (arts. 12.4(7), 17.1, 22.7, 23).
//
// Handlers of the table of event kinds (adjudicator_kinds.cc) over the fold
// they change; each checks everything that can make its event bad input
// before it changes anything, so an error leaves the fold as it was.
#ifndef ARBITER_ADJUDICATOR_ENGINE_DISCIPLINE_INCIDENTS_H_
#define ARBITER_ADJUDICATOR_ENGINE_DISCIPLINE_INCIDENTS_H_

#include "absl/status/status.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// The handlers of discipline incidents: a friend of Adjudicator, whose state they change.
class DisciplineIncidents {
 public:
  // A phone ring, a look at a phone, smoking: an offence by `c`.
  static absl::Status OnOffence(Adjudicator& a, v1::Color c, v1::Incident incident,
                                absl::string_view color_field);
  static absl::Status OnMisconduct(Adjudicator& a, const v1::Misconduct& m);
  static absl::Status OnLeftSeat(Adjudicator& a, const v1::LeftSeat& l);
  static absl::Status OnWrongColors(Adjudicator& a);
  static absl::Status OnTimeWasting(Adjudicator& a, const v1::TimeWasting& t);
  static absl::Status OnWithdrew(Adjudicator& a, const v1::Withdrew& w);
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_DISCIPLINE_INCIDENTS_H_
