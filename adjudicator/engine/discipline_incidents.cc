// Conduct: phones, smoking, misconduct, leaving the seat, wrong colours,
// time-wasting and withdrawal (arts. 12.4(7), 17.1, 22.7, 23).
#include "adjudicator/engine/discipline_incidents.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/ruling_text.h"

namespace arbiter {

absl::Status DisciplineIncidents::OnOffence(Adjudicator& a, v1::Color c, v1::Incident incident,
                                            absl::string_view color_field) {
  if (absl::Status s = Adjudicator::CheckColor(c, color_field); !s.ok()) return s;
  a.SettleTime(true);
  if (!a.result_.has_value()) a.Rule(incident, c);
  return absl::OkStatus();
}

absl::Status DisciplineIncidents::OnMisconduct(Adjudicator& a, const v1::Misconduct& m) {
  if (absl::Status s = Adjudicator::CheckColor(m.color(), "misconduct.color"); !s.ok()) return s;
  v1::Incident incident;
  switch (m.kind()) {
    case v1::Misconduct::DISTURBANCE:
      incident = v1::MISCONDUCT_DISTURBANCE;
      break;
    case v1::Misconduct::DISCUSSION:
      incident = v1::MISCONDUCT_DISCUSSION;
      break;
    case v1::Misconduct::TALK:
      incident = v1::MISCONDUCT_TALK;
      break;
    case v1::Misconduct::CHEATING:
      incident = v1::MISCONDUCT_CHEATING;
      break;
    case v1::Misconduct::WALKOUT:
      incident = v1::MISCONDUCT_WALKOUT;
      break;
    default:
      return absl::InvalidArgumentError(
          "misconduct.kind must be DISTURBANCE, DISCUSSION, TALK, CHEATING or WALKOUT");
  }
  const int occurrence = a.discipline_.Count(m.color(), incident) + 1;
  const v1::Sanctioning* s = a.rules_.Find(incident, occurrence, a.game_.venue());
  const v1::RulingOption* choice = nullptr;
  if (!m.decision().empty()) {
    if (s == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("misconduct.decision: ", a.rules_.id(),
                                                     " has no clause for ",
                                                     v1::Incident_Name(incident)));
    }
    choice = FindOption(*s, m.decision());
    if (choice == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("misconduct.decision: ", s->clause(),
                                                     " allows ", OptionList(*s), "; not ",
                                                     m.decision()));
    }
  }
  // After a result only cheating gets here (23.1 reopens even a confirmed
  // result); otherwise a flag that fell first ends the game before it.
  const bool over_before = a.result_.has_value();
  a.SettleTime(true);
  if (!over_before && a.result_.has_value()) return absl::OkStatus();
  a.discipline_.Record(m.color(), incident);
  if (s != nullptr) {
    const int index = a.RuleWith(*s, m.color(), a.at_, choice);
    a.history_.Counted(static_cast<uint32_t>(index) + 1, incident, m.color());
  }
  return absl::OkStatus();
}

absl::Status DisciplineIncidents::OnLeftSeat(Adjudicator& a, const v1::LeftSeat& l) {
  const v1::Color c = l.color();
  if (absl::Status s = Adjudicator::CheckColor(c, "leftSeat.color"); !s.ok()) return s;
  // 22.7 (1988 23.6): leaving in byo-yomi during the opponent's time needs
  // the arbiter's permission, given as often as the ruleset allows.
  const bool needs_permission = a.clocks_.InByoYomiInOpponentsTime(c);
  if (l.permitted() && needs_permission) {
    if (absl::Status s = a.Refusal(v1::SEAT_LEAVE_PERMITTED, c, "leftSeat.permitted"); !s.ok()) {
      return s;
    }
  }
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  // The clock runs as usual either way; the ruleset says whether leaving
  // without permission is also a ruling.
  if (!l.permitted()) {
    a.Rule(v1::LEFT_SEAT_UNPERMITTED, c);
  } else if (needs_permission) {
    a.Rule(v1::SEAT_LEAVE_PERMITTED, c);
  }
  return absl::OkStatus();
}

absl::Status DisciplineIncidents::OnWrongColors(Adjudicator& a) {
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  // 17.1: found within the correctable moves, the colours are put right;
  // later, the game goes on as it stands.
  a.Rule(a.move_number_ <= a.rules_.params().wrong_colors_correctable_moves()
             ? v1::WRONG_COLORS_CORRECTED
             : v1::WRONG_COLORS_STAND,
         v1::COLOR_UNSPECIFIED);
  return absl::OkStatus();
}

absl::Status DisciplineIncidents::OnTimeWasting(Adjudicator& a, const v1::TimeWasting& t) {
  if (absl::Status s = Adjudicator::CheckColor(t.color(), "timeWasting.color"); !s.ok()) return s;
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  // 12.4(7) is a rule of absolute time; elsewhere it is a violation no clause
  // names, for the ruleset's catch-all.
  a.Rule(a.clocks_.Absolute() ? v1::TIME_WASTING : v1::UNCOVERED_VIOLATION, t.color());
  return absl::OkStatus();
}

absl::Status DisciplineIncidents::OnWithdrew(Adjudicator& a, const v1::Withdrew& w) {
  if (absl::Status s = Adjudicator::CheckColor(w.color(), "withdrew.color"); !s.ok()) return s;
  a.SettleTime(true);
  (w.color() == v1::BLACK ? a.withdrew_black_ : a.withdrew_white_) = true;
  if (!a.result_.has_value()) a.Rule(v1::WITHDRAWAL, w.color());
  return absl::OkStatus();
}

}  // namespace arbiter
