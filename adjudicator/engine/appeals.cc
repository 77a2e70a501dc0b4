// Appeals against rulings (2002 arts. 16.3-16.4) and the confirmation of the
// result. An appeal is recorded and rules nothing; the chief arbiter's
// decision is a ruling that names the appealed one (`appealed`). Upheld, it
// records that the original stands. Overturned, it supersedes the original
// (`supersedes`; the original stays in the history) and lifts what it
// imposed: its warnings and penalty stones, and a result it caused, directly
// or through the 24.2 loss its warning led to: that result is withdrawn (the
// game goes on, the clocks restart at the decision) or, when the ruling had
// replaced an earlier result, that result is restored; a penalty stone a
// count included comes out of its margin (where the ruleset says warnings
// after the end apply: GameEnd::Recount). Once the result is
// confirmed (`resultConfirmed`) rulings up to then are no longer appealable;
// only a cheating misconduct (23.1) can change the result.
//
// The decision cites the clause of the ruling it upholds or supersedes: the
// rules data has no sanctioning for an appeal, because it sanctions nobody.
#include "adjudicator/engine/appeals.h"

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/game_end.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/ruling_text.h"

namespace arbiter {

namespace {

// Sanctions an overturn can lift: the disciplinary record and the result.
// Board and clock corrections (a void move, removed stones, deducted time)
// cannot be undone from the ruling alone.
bool Liftable(int sanction) {
  switch (sanction) {
    case v1::WARNING:
    case v1::PENALTY_STONE:
    case v1::LOSS:
    case v1::BOTH_LOSE:
    case v1::DRAW:
    case v1::REPLAY:
    case v1::NO_RESULT:
    case v1::ADVICE:
    case v1::REFERRED:
    case v1::CLOCK_UNCHANGED:
      return true;
    default:
      return false;
  }
}

}  // namespace

absl::Status Appeals::OnAppealLodged(Adjudicator& a, const v1::AppealLodged& lodged) {
  if (absl::Status s = Adjudicator::CheckColor(lodged.by_color(), "appealLodged.byColor"); !s.ok())
    return s;
  if (absl::Status s = a.history_.CheckAppealable(lodged.ruling(), "appealLodged"); !s.ok())
    return s;
  if (absl::Status s = a.history_.CheckNotAppealed(lodged.ruling()); !s.ok()) return s;
  a.SettleTime(true);
  a.history_.Lodge(lodged.ruling());
  return absl::OkStatus();
}

absl::Status Appeals::OnAppealDecided(Adjudicator& a, const v1::AppealDecided& d) {
  if (absl::Status s = a.history_.CheckAppealable(d.ruling(), "appealDecided"); !s.ok()) return s;
  if (absl::Status s = a.history_.CheckAppealAwaits(d.ruling()); !s.ok()) return s;
  const int index = static_cast<int>(d.ruling()) - 1;
  if (!d.upheld()) {
    if (absl::Status s = CheckOverturnable(a, index); !s.ok()) return s;
  }
  a.SettleTime(true);
  a.history_.Decide(d.ruling());
  const v1::Ruling appealed = a.history_.ruling(index);
  const int decision = IssueAppealRuling(a, appealed, appealed.number(),
                                         d.upheld() ? 0 : appealed.number(), d.note());
  if (d.upheld()) return absl::OkStatus();
  Overturn(a, index, decision);
  // The 24.2 loss the lifted warning led to goes with it, in a ruling of
  // its own so that the history shows each superseded ruling.
  if (const uint32_t f = a.history_.follow_on(appealed.number()); f != 0) {
    const v1::Ruling follow_on = a.history_.ruling(static_cast<int>(f) - 1);
    const int lifted =
        IssueAppealRuling(a, follow_on, appealed.number(), follow_on.number(), d.note());
    Overturn(a, static_cast<int>(follow_on.number()) - 1, lifted);
  }
  // A lifted penalty stone a count included comes out of its margin, where
  // the ruleset says warnings after the end apply.
  GameEnd::Recount(a, a.history_.ruling(decision).number());
  return absl::OkStatus();
}

absl::Status Appeals::CheckOverturnable(const Adjudicator& a, int index) {
  const v1::Ruling& r = a.history_.ruling(index);
  for (const int sanction : r.sanctions()) {
    if (!Liftable(sanction)) {
      return absl::FailedPreconditionError(
          absl::StrCat("appealDecided: overturning ruling ", r.number(), " would undo ",
                       v1::Sanction_Name(sanction),
                       ", a change to the board or the clock the engine cannot reverse; record the "
                       "correction as its own event"));
    }
  }
  if (a.history_.placed_stone(r.number())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "appealDecided: ruling ", r.number(),
        " put a dropped stone on the board, which the engine cannot take back; record the "
        "correction as its own event"));
  }
  const bool caused = a.result_.has_value() && a.result_->ruling() == r.number();
  if (caused &&
      (a.result_->reason() == v1::Result::TIME || a.result_->reason() == v1::Result::LATENESS)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "appealDecided: ruling ", r.number(),
        " ended the game on time or lateness; a fallen flag cannot be restored by the engine"));
  }
  const uint32_t f = a.history_.follow_on(r.number());
  const bool caused_follow_on = f != 0 && a.result_.has_value() && a.result_->ruling() == f;
  if (a.result_.has_value() && !caused && !caused_follow_on && Imposes(r, v1::PENALTY_STONE) &&
      a.result_->reason() == v1::Result::COUNT &&
      !a.rules_.params().warnings_after_the_end_apply()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "appealDecided: the count (", a.result_->sgf(), ") already included ruling ", r.number(),
        "'s penalty stones; overturning it needs a recount, which the engine does not redo"));
  }
  return absl::OkStatus();
}

int Appeals::IssueAppealRuling(Adjudicator& a, const v1::Ruling& cited, uint32_t appealed,
                               uint32_t supersedes, const std::string& note) {
  v1::Ruling r;
  r.set_event(a.events_ + 1);
  ToProto(a.at_, r.mutable_at());
  r.set_clause(cited.clause());
  r.mutable_also_cites()->CopyFrom(cited.also_cites());
  r.set_against(cited.against());
  r.set_decided_by(v1::CHIEF_ARBITER);
  r.set_appealed(appealed);
  r.set_supersedes(supersedes);
  r.set_note(note);
  r.set_text_zh(cited.text_zh());
  r.set_text_en(cited.text_en());
  const int index = a.history_.Record(std::move(r));
  a.history_.AppealRuling(a.history_.ruling(index).number());
  return index;
}

void Appeals::Overturn(Adjudicator& a, int index, int decision) {
  const v1::Ruling& r = a.history_.ruling(index);
  const v1::Color offender = PartyColor(r.against());
  if (offender != v1::COLOR_UNSPECIFIED) {
    for (const int sanction : r.sanctions()) {
      if (sanction == v1::WARNING) a.discipline_.LiftWarning(offender);
      if (sanction == v1::PENALTY_STONE) a.discipline_.LiftPenaltyStone(offender);
    }
  }
  // The decision's warnings count is the party's after the lift.
  if (offender != v1::COLOR_UNSPECIFIED)
    a.history_.mutable_ruling(decision).set_warnings(a.discipline_.warnings(offender));
  // The incident is held not to have happened: the next one escalates from
  // one occurrence fewer. (A decision on a pending ruling counted the
  // pending ruling's occurrence.) Later rulings of the same incident stand
  // as ruled; each can be appealed in its turn.
  const uint32_t counted = r.resolves() != 0 ? r.resolves() : r.number();
  if (const auto it = a.history_.TakeCounted(counted); it.has_value()) {
    const auto [incident, by] = *it;
    if (by == v1::COLOR_UNSPECIFIED) {
      a.discipline_.Unrecord(v1::BLACK, incident);
      a.discipline_.Unrecord(v1::WHITE, incident);
    } else {
      a.discipline_.Unrecord(by, incident);
    }
  }
  a.history_.Supersede(r.number());
  if (!a.result_.has_value() || a.result_->ruling() != r.number()) return;
  // Back to the result the ruling had replaced, skipping any that a ruling
  // overturned meanwhile gave.
  std::optional<v1::Result> restored = a.history_.ResultBefore(r.number());
  if (restored.has_value()) {
    a.result_ = std::move(restored);
    return;
  }
  a.result_.reset();
  // The game goes on from the decision: the time between the ruling and the
  // decision is nobody's, as during an adjournment.
  if (a.started_ && !a.clocks_.adjourned() && a.consecutive_passes_ < 2) {
    a.clocks_.Run(a.at_);
    a.clocks_.RestartTurn(a.at_);
  }
}

absl::Status Appeals::OnResultConfirmed(Adjudicator& a) {
  if (!a.result_.has_value()) {
    return absl::FailedPreconditionError("resultConfirmed: the game has no result yet");
  }
  if (absl::Status s = a.history_.CheckConfirmable(); !s.ok()) return s;
  a.history_.Confirm();
  return absl::OkStatus();
}

}  // namespace arbiter
