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
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
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

absl::Status Adjudicator::OnAppealLodged(const v1::AppealLodged& a) {
  if (absl::Status s = CheckColor(a.by_color(), "appealLodged.byColor"); !s.ok()) return s;
  if (absl::Status s = history_.CheckAppealable(a.ruling(), "appealLodged"); !s.ok()) return s;
  if (absl::Status s = history_.CheckNotAppealed(a.ruling()); !s.ok()) return s;
  SettleTime(true);
  history_.Lodge(a.ruling());
  return absl::OkStatus();
}

absl::Status Adjudicator::OnAppealDecided(const v1::AppealDecided& d) {
  if (absl::Status s = history_.CheckAppealable(d.ruling(), "appealDecided"); !s.ok()) return s;
  if (absl::Status s = history_.CheckAppealAwaits(d.ruling()); !s.ok()) return s;
  const int index = static_cast<int>(d.ruling()) - 1;
  if (!d.upheld()) {
    if (absl::Status s = CheckOverturnable(index); !s.ok()) return s;
  }
  SettleTime(true);
  history_.Decide(d.ruling());
  const v1::Ruling appealed = history_.ruling(index);
  const int decision =
      IssueAppealRuling(appealed, appealed.number(), d.upheld() ? 0 : appealed.number(), d.note());
  if (d.upheld()) return absl::OkStatus();
  Overturn(index, decision);
  // The 24.2 loss the lifted warning led to goes with it, in a ruling of
  // its own so that the history shows each superseded ruling.
  if (const uint32_t f = history_.follow_on(appealed.number()); f != 0) {
    const v1::Ruling follow_on = history_.ruling(static_cast<int>(f) - 1);
    const int lifted =
        IssueAppealRuling(follow_on, appealed.number(), follow_on.number(), d.note());
    Overturn(static_cast<int>(follow_on.number()) - 1, lifted);
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::CheckOverturnable(int index) const {
  const v1::Ruling& r = history_.ruling(index);
  for (const int sanction : r.sanctions()) {
    if (!Liftable(sanction)) {
      return absl::FailedPreconditionError(
          absl::StrCat("appealDecided: overturning ruling ", r.number(), " would undo ",
                       v1::Sanction_Name(sanction),
                       ", a change to the board or the clock the engine cannot reverse; record the "
                       "correction as its own event"));
    }
  }
  if (history_.placed_stone(r.number())) {
    return absl::FailedPreconditionError(absl::StrCat(
        "appealDecided: ruling ", r.number(),
        " put a dropped stone on the board, which the engine cannot take back; record the "
        "correction as its own event"));
  }
  const bool caused = result_.has_value() && result_->ruling() == r.number();
  if (caused &&
      (result_->reason() == v1::Result::TIME || result_->reason() == v1::Result::LATENESS)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "appealDecided: ruling ", r.number(),
        " ended the game on time or lateness; a fallen flag cannot be restored by the engine"));
  }
  const uint32_t f = history_.follow_on(r.number());
  const bool caused_follow_on = f != 0 && result_.has_value() && result_->ruling() == f;
  if (result_.has_value() && !caused && !caused_follow_on && Imposes(r, v1::PENALTY_STONE) &&
      result_->reason() == v1::Result::COUNT) {
    return absl::FailedPreconditionError(absl::StrCat(
        "appealDecided: the count (", result_->sgf(), ") already included ruling ", r.number(),
        "'s penalty stones; overturning it needs a recount, which the engine does not redo"));
  }
  return absl::OkStatus();
}

int Adjudicator::IssueAppealRuling(const v1::Ruling& cited, uint32_t appealed, uint32_t supersedes,
                                   const std::string& note) {
  v1::Ruling r;
  r.set_event(events_ + 1);
  ToProto(at_, r.mutable_at());
  r.set_clause(cited.clause());
  r.mutable_also_cites()->CopyFrom(cited.also_cites());
  r.set_against(cited.against());
  r.set_decided_by(v1::CHIEF_ARBITER);
  r.set_appealed(appealed);
  r.set_supersedes(supersedes);
  r.set_note(note);
  r.set_text_zh(cited.text_zh());
  r.set_text_en(cited.text_en());
  const int index = history_.Record(std::move(r));
  history_.AppealRuling(history_.ruling(index).number());
  return index;
}

void Adjudicator::Overturn(int index, int decision) {
  const v1::Ruling& r = history_.ruling(index);
  const v1::Color offender = PartyColor(r.against());
  if (offender != v1::COLOR_UNSPECIFIED) {
    for (const int sanction : r.sanctions()) {
      if (sanction == v1::WARNING) discipline_.LiftWarning(offender);
      if (sanction == v1::PENALTY_STONE) discipline_.LiftPenaltyStone(offender);
    }
  }
  // The decision's warnings count is the party's after the lift.
  if (offender != v1::COLOR_UNSPECIFIED)
    history_.mutable_ruling(decision).set_warnings(discipline_.warnings(offender));
  // The incident is held not to have happened: the next one escalates from
  // one occurrence fewer. (A decision on a pending ruling counted the
  // pending ruling's occurrence.) Later rulings of the same incident stand
  // as ruled; each can be appealed in its turn.
  const uint32_t counted = r.resolves() != 0 ? r.resolves() : r.number();
  if (const auto it = history_.TakeCounted(counted); it.has_value()) {
    const auto [incident, by] = *it;
    if (by == v1::COLOR_UNSPECIFIED) {
      discipline_.Unrecord(v1::BLACK, incident);
      discipline_.Unrecord(v1::WHITE, incident);
    } else {
      discipline_.Unrecord(by, incident);
    }
  }
  history_.Supersede(r.number());
  if (!result_.has_value() || result_->ruling() != r.number()) return;
  // Back to the result the ruling had replaced, skipping any that a ruling
  // overturned meanwhile gave.
  std::optional<v1::Result> restored = history_.ResultBefore(r.number());
  if (restored.has_value()) {
    result_ = std::move(restored);
    return;
  }
  result_.reset();
  // The game goes on from the decision: the time between the ruling and the
  // decision is nobody's, as during an adjournment.
  if (started_ && !clocks_.adjourned() && consecutive_passes_ < 2) {
    clocks_.Run(at_);
    clocks_.RestartTurn(at_);
  }
}

absl::Status Adjudicator::OnResultConfirmed() {
  if (!result_.has_value()) {
    return absl::FailedPreconditionError("resultConfirmed: the game has no result yet");
  }
  if (absl::Status s = history_.CheckConfirmable(); !s.ok()) return s;
  history_.Confirm();
  return absl::OkStatus();
}

}  // namespace arbiter
