// Appeals against rulings (2002 arts. 16.3-16.4) and the confirmation of the
// result. An appeal is recorded and rules nothing; the chief arbiter's
// decision is a ruling that names the appealed one (`appealed`). Upheld, it
// records that the original stands. Overturned, it supersedes the original
// (`supersedes`; the original stays in the history) and lifts what it
// imposed: its warnings and penalty stones, and a result it caused, directly
// or through the 24.2 loss its warning led to: that result is withdrawn (the
// game goes on, the clocks restart at the decision) or, when the ruling had
// replaced an earlier result, that result is restored. Once the result is
// confirmed (`resultConfirmed`) rulings up to then are no longer appealable;
// only a cheating misconduct (23.1) can change the result.
//
// The decision cites the clause of the ruling it upholds or supersedes: the
// rules data has no sanctioning for an appeal, because it sanctions nobody.
//
// Handlers of the table of event kinds (adjudicator_kinds.cc) over the fold
// they change; each checks everything that can make its event bad input
// before it changes anything, so an error leaves the fold as it was.
#ifndef ARBITER_ADJUDICATOR_ENGINE_APPEALS_H_
#define ARBITER_ADJUDICATOR_ENGINE_APPEALS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

// The handlers of appeals: a friend of Adjudicator, whose state they change.
class Appeals {
 public:
  static absl::Status OnAppealLodged(Adjudicator& a, const v1::AppealLodged& lodged);
  static absl::Status OnAppealDecided(Adjudicator& a, const v1::AppealDecided& d);
  static absl::Status OnResultConfirmed(Adjudicator& a);

 private:
  // Why overturning the ruling at `index` cannot be carried out, or OK.
  static absl::Status CheckOverturnable(const Adjudicator& a, int index);
  // Issues the chief arbiter's decision on the appeal against ruling
  // `appealed`, citing `cited` (the ruling it upholds or supersedes);
  // `supersedes` is the overturned ruling, 0 when upheld. Returns its index.
  static int IssueAppealRuling(Adjudicator& a, const v1::Ruling& cited, uint32_t appealed,
                               uint32_t supersedes, const std::string& note);
  // Lifts the warnings and penalty stones the ruling at `index` imposed and
  // withdraws or restores the result it caused; `decision` is the index of
  // the ruling that overturns it.
  static void Overturn(Adjudicator& a, int index, int decision);
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_APPEALS_H_
