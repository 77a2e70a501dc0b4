// The arbiter's decision on a pending ruling (`arbiterDecision`): the option
// it picks is applied as the sanctioning says (20.3, 17.5-17.6, 22.8, 23).
#include "adjudicator/engine/decisions.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/board_incidents.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/refusal_reason.h"
#include "adjudicator/engine/ruling_text.h"

namespace arbiter {

absl::Status Decisions::OnArbiterDecision(Adjudicator& a, const v1::ArbiterDecision& d) {
  if (d.ruling() == 0 || d.ruling() > a.history_.size()) {
    return absl::NotFoundError(absl::StrCat("arbiterDecision: there is no ruling ", d.ruling()));
  }
  const RulingHistory::Pending* it = a.history_.FindPending(d.ruling());
  if (it == nullptr) {
    return WithRefusalReason(absl::FailedPreconditionError(absl::StrCat(
                                 "arbiterDecision: ruling ", d.ruling(), " is not pending")),
                             "RULING_NOT_PENDING", {{"ruling", absl::StrCat(d.ruling())}});
  }
  const v1::Sanctioning* s = it->sanctioning;
  // Who decides is the rules' to say (the clause's decided_by): an event
  // recorded under an arbiter's authority does not decide what the rules
  // leave to the chief arbiter. Offline, and on a server that runs open,
  // events carry no authority and none is checked.
  if (a.event_->authority() == v1::ARBITER && s->decided_by() == v1::CHIEF_ARBITER) {
    return WithRefusalReason(absl::PermissionDeniedError(
                                 absl::StrCat("arbiterDecision: ruling ", d.ruling(), " (",
                                              s->clause(), ") is the chief arbiter's to decide")),
                             "CHIEF_ARBITERS_DECISION",
                             {{"ruling", absl::StrCat(d.ruling())}, {"clause", s->clause()}});
  }
  const v1::RulingOption* choice = FindOption(*s, d.choice());
  if (choice == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("arbiterDecision: ", s->clause(), " allows ",
                                                   OptionList(*s), "; not ", d.choice()));
  }
  const RulingHistory::Pending decided = *it;
  a.history_.Resolve(decided.number);
  a.SettleTime(true);
  // The option may name its own party (both players, or the one who lost on
  // time); otherwise the decision is against whom the pending ruling was.
  const v1::Ruling::Party party = choice->against() != v1::Ruling::PARTY_UNSPECIFIED
                                      ? choice->against()
                                      : a.history_.ruling(decided.number - 1).against();
  const v1::Color offender =
      choice->against() != v1::Ruling::PARTY_UNSPECIFIED ? PartyColor(party) : decided.offender;
  v1::Ruling r = RulingUnder(a.rules_, *s, party);
  r.set_pending(false);
  r.clear_options();
  r.mutable_sanctions()->CopyFrom(choice->sanctions());
  r.set_resolves(decided.number);
  r.set_choice(choice->id());
  r.set_note(d.note());
  ToProto(a.at_, r.mutable_at());
  const int index = a.Issue(std::move(r), offender, s);
  CarryOut(a, decided, index);
  return absl::OkStatus();
}

void Decisions::CarryOut(Adjudicator& a, const RulingHistory::Pending& decided, int index) {
  // Disputed displaced stones stand unless the decision restores them or
  // ends the game; the board may since have changed so that they cannot.
  if (!decided.displaced.empty() && !a.Imposed(index, v1::STONE_RESTORED) &&
      !a.result_.has_value() && BoardIncidents::CanDisplace(a, decided.displaced)) {
    BoardIncidents::Displace(a, decided.displaced);
  }
  // A repetition ruled a void move counts as the offender's pass.
  if (a.Imposed(index, v1::COUNTS_AS_PASS) && !a.result_.has_value() &&
      decided.offender == a.to_move_ && a.consecutive_passes_ < 2) {
    a.PlayPass(decided.offender);
  }
  // A dropped stone the decision does not void is its player's move, if it
  // still can be (17.3: 由裁判长裁决).
  if (decided.dropped_by != v1::COLOR_UNSPECIFIED && !a.Imposed(index, v1::MOVE_VOID) &&
      !a.result_.has_value() && decided.dropped_by == a.to_move_ && a.consecutive_passes_ < 2 &&
      a.abandoned_by_ == v1::COLOR_UNSPECIFIED &&
      a.board_->at(decided.dropped_at) == Stone::kEmpty) {
    a.EnsureStarted();
    if (a.clocks_.awaiting_press() && decided.dropped_by != a.clocks_.owner())
      a.clocks_.Press(a.clocks_.move_at());
    a.PlayMove(decided.dropped_by, decided.dropped_at);
    if (a.board_->at(decided.dropped_at) != Stone::kEmpty) {
      a.history_.PlacedStone(a.history_.ruling(index).number());
    }
  }
}

}  // namespace arbiter
