// Conduct and the arbiter: phones, smoking, misconduct, leaving the seat,
// displaced stones, scattered boards, dropped stones, wrong colours,
// time-wasting, withdrawal and decisions on pending rulings (arts. 12.4(7),
// 17.1, 17.3, 17.5-17.6, 22.7, 23). Each handler checks first,
// then changes state: a handler that returns an error has changed nothing.
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

bool Adjudicator::CanDisplace(const std::vector<std::pair<int, int>>& moves) const {
  std::set<int> from_seen;
  std::set<int> to_seen;
  for (const auto& [from, to] : moves) {
    if (board_->at(from) == Stone::kEmpty || !from_seen.insert(from).second) return false;
  }
  for (const auto& [from, to] : moves) {
    if (to < 0) continue;
    if (!to_seen.insert(to).second) return false;
    if (board_->at(to) != Stone::kEmpty && from_seen.count(to) == 0) return false;
  }
  return true;
}

void Adjudicator::Displace(const std::vector<std::pair<int, int>>& moves) {
  std::vector<std::pair<int, Stone>> placed;
  for (const auto& [from, to] : moves) placed.emplace_back(to, board_->at(from));
  for (const auto& [from, to] : moves) board_->Remove(from);
  for (const auto& [to, stone] : placed) {
    if (to < 0) continue;
    const v1::Color c = stone == Stone::kWhite ? v1::WHITE : v1::BLACK;
    board_->Place(c, to);
  }
}

absl::Status Adjudicator::OnStonesDisplaced(const v1::StonesDisplaced& d) {
  const bool by_someone = d.by_color() != v1::COLOR_UNSPECIFIED;
  if (by_someone) {
    if (absl::Status s = CheckColor(d.by_color(), "stonesDisplaced.byColor"); !s.ok()) return s;
  }
  if (d.deliberate() && !by_someone) {
    return absl::InvalidArgumentError("stonesDisplaced: deliberate needs byColor");
  }
  if (d.points_size() == 0) return absl::InvalidArgumentError("stonesDisplaced: no points");
  std::vector<std::pair<int, int>> moves;  // from, to (-1: off the board)
  for (const v1::Displacement& p : d.points()) {
    absl::StatusOr<int> from = ParsePointField(p.from(), board_->size(), "stonesDisplaced.from");
    if (!from.ok()) return from.status();
    // Without the moves recorded there is no board to check or move them
    // on: 17.5 is ruled on the arbiter's word (agreed stones simply go
    // where the players agree; a dispute is the chief arbiter's).
    if (play_recorded_ && board_->at(*from) == Stone::kEmpty) {
      return absl::InvalidArgumentError(absl::StrCat("stonesDisplaced: no stone at ", p.from()));
    }
    int to = -1;
    if (!p.to().empty()) {
      absl::StatusOr<int> t = ParsePointField(p.to(), board_->size(), "stonesDisplaced.to");
      if (!t.ok()) return t.status();
      to = *t;
    }
    moves.emplace_back(*from, to);
  }
  if (!play_recorded_) moves.clear();
  if (!CanDisplace(moves)) {
    return absl::InvalidArgumentError(
        "stonesDisplaced: the stones cannot all move where stated (a point is occupied or named "
        "twice)");
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  if (d.deliberate()) {
    Rule(v1::STONES_DISPLACED_DELIBERATE, d.by_color());
  } else if (d.agreement() == v1::StonesDisplaced::STANDS) {
    Displace(moves);  // both players agree the moved stones stay (17.5)
  } else if (d.agreement() != v1::StonesDisplaced::RESTORE) {
    // No agreement: the chief arbiter rules. RESTORE changes nothing: the
    // stones go back where the rules' board already has them.
    const int index = Rule(v1::STONES_DISPLACED_DISPUTED, d.by_color());
    if (index >= 0 && history_.ruling(index).pending())
      history_.last_pending().displaced = std::move(moves);
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnBoardScattered(const v1::BoardScattered& b) {
  const v1::BoardScattered::Cause cause = b.cause();
  if (cause != v1::BoardScattered::EXTERNAL && cause != v1::BoardScattered::PLAYER_ACCIDENT &&
      cause != v1::BoardScattered::PLAYER_DELIBERATE) {
    return absl::InvalidArgumentError(
        "boardScattered.cause must be EXTERNAL, PLAYER_ACCIDENT or PLAYER_DELIBERATE");
  }
  if (cause != v1::BoardScattered::EXTERNAL) {
    if (absl::Status s = CheckColor(b.by_color(), "boardScattered.byColor"); !s.ok()) return s;
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  if (cause == v1::BoardScattered::PLAYER_DELIBERATE) {
    Rule(v1::BOARD_SCATTERED_DELIBERATE, b.by_color());
  } else if (!b.reconstructed()) {
    // A position put back together goes on; one that cannot be is ruled.
    Rule(cause == v1::BoardScattered::EXTERNAL ? v1::BOARD_SCATTERED_DISPUTED
                                               : v1::BOARD_SCATTERED_BY_PLAYER,
         cause == v1::BoardScattered::EXTERNAL ? v1::COLOR_UNSPECIFIED : b.by_color());
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnOffence(v1::Color c, v1::Incident incident) {
  if (absl::Status s = CheckColor(c, absl::StrCat(v1::Incident_Name(incident), " color"));
      !s.ok()) {
    return s;
  }
  SettleTime(true);
  if (!result_.has_value()) Rule(incident, c);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnMisconduct(const v1::Misconduct& m) {
  if (absl::Status s = CheckColor(m.color(), "misconduct.color"); !s.ok()) return s;
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
  const int occurrence = discipline_.Count(m.color(), incident) + 1;
  const v1::Sanctioning* s = rules_.Find(incident, occurrence, game_.venue());
  const v1::RulingOption* choice = nullptr;
  if (!m.decision().empty()) {
    if (s == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("misconduct.decision: ", rules_.id(),
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
  const bool over_before = result_.has_value();
  SettleTime(true);
  if (!over_before && result_.has_value()) return absl::OkStatus();
  discipline_.Record(m.color(), incident);
  if (s != nullptr) {
    const int index = RuleWith(*s, m.color(), at_, choice);
    history_.Counted(static_cast<uint32_t>(index) + 1, incident, m.color());
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnLeftSeat(const v1::LeftSeat& l) {
  const v1::Color c = l.color();
  if (absl::Status s = CheckColor(c, "leftSeat.color"); !s.ok()) return s;
  // 22.7 (1988 23.6): leaving in byo-yomi during the opponent's time needs
  // the arbiter's permission, given as often as the ruleset allows.
  const bool needs_permission = clocks_.InByoYomiInOpponentsTime(c);
  if (l.permitted() && needs_permission) {
    if (absl::Status s = Refusal(v1::SEAT_LEAVE_PERMITTED, c, "leftSeat.permitted"); !s.ok()) {
      return s;
    }
  }
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // The clock runs as usual either way; the ruleset says whether leaving
  // without permission is also a ruling.
  if (!l.permitted()) {
    Rule(v1::LEFT_SEAT_UNPERMITTED, c);
  } else if (needs_permission) {
    Rule(v1::SEAT_LEAVE_PERMITTED, c);
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnWrongColors() {
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // 17.1: found within the correctable moves, the colours are put right;
  // later, the game goes on as it stands.
  Rule(move_number_ <= rules_.params().wrong_colors_correctable_moves() ? v1::WRONG_COLORS_CORRECTED
                                                                        : v1::WRONG_COLORS_STAND,
       v1::COLOR_UNSPECIFIED);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnArbiterDecision(const v1::ArbiterDecision& d) {
  if (d.ruling() == 0 || d.ruling() > history_.size()) {
    return absl::NotFoundError(absl::StrCat("arbiterDecision: there is no ruling ", d.ruling()));
  }
  const Pending* it = history_.FindPending(d.ruling());
  if (it == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("arbiterDecision: ruling ", d.ruling(), " is not pending"));
  }
  const v1::Sanctioning* s = it->sanctioning;
  // Who decides is the rules' to say (the clause's decided_by): an event
  // recorded under an arbiter's authority does not decide what the rules
  // leave to the chief arbiter. Offline, and on a server that runs open,
  // events carry no authority and none is checked.
  if (event_->authority() == v1::ARBITER && s->decided_by() == v1::CHIEF_ARBITER) {
    return absl::PermissionDeniedError(absl::StrCat("arbiterDecision: ruling ", d.ruling(), " (",
                                                    s->clause(),
                                                    ") is the chief arbiter's to decide"));
  }
  const v1::RulingOption* choice = FindOption(*s, d.choice());
  if (choice == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("arbiterDecision: ", s->clause(), " allows ",
                                                   OptionList(*s), "; not ", d.choice()));
  }
  const Pending decided = *it;
  history_.Resolve(decided.number);
  SettleTime(true);
  // The option may name its own party (both players, or the one who lost on
  // time); otherwise the decision is against whom the pending ruling was.
  const v1::Ruling::Party party = choice->against() != v1::Ruling::PARTY_UNSPECIFIED
                                      ? choice->against()
                                      : history_.ruling(decided.number - 1).against();
  const v1::Color offender =
      choice->against() != v1::Ruling::PARTY_UNSPECIFIED ? PartyColor(party) : decided.offender;
  v1::Ruling r = RulingUnder(rules_, *s, party);
  r.set_pending(false);
  r.clear_options();
  r.mutable_sanctions()->CopyFrom(choice->sanctions());
  r.set_resolves(decided.number);
  r.set_choice(choice->id());
  r.set_note(d.note());
  ToProto(at_, r.mutable_at());
  const int index = Issue(std::move(r), offender, s);
  // Disputed displaced stones stand unless the decision restores them or
  // ends the game; the board may since have changed so that they cannot.
  if (!decided.displaced.empty() && !Imposed(index, v1::STONE_RESTORED) && !result_.has_value() &&
      CanDisplace(decided.displaced)) {
    Displace(decided.displaced);
  }
  // A repetition ruled a void move counts as the offender's pass.
  if (Imposed(index, v1::COUNTS_AS_PASS) && !result_.has_value() && decided.offender == to_move_ &&
      consecutive_passes_ < 2) {
    PlayPass(decided.offender);
  }
  // A dropped stone the decision does not void is its player's move, if it
  // still can be (17.3: 由裁判长裁决).
  if (decided.dropped_by != v1::COLOR_UNSPECIFIED && !Imposed(index, v1::MOVE_VOID) &&
      !result_.has_value() && decided.dropped_by == to_move_ && consecutive_passes_ < 2 &&
      abandoned_by_ == v1::COLOR_UNSPECIFIED && board_->at(decided.dropped_at) == Stone::kEmpty) {
    EnsureStarted();
    if (clocks_.awaiting_press() && decided.dropped_by != clocks_.owner())
      clocks_.Press(clocks_.move_at());
    PlayMove(decided.dropped_by, decided.dropped_at);
    if (board_->at(decided.dropped_at) != Stone::kEmpty) {
      history_.PlacedStone(history_.ruling(index).number());
    }
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnStoneDropped(const v1::StoneDropped& d) {
  const v1::Color c = d.color();
  if (absl::Status s = CheckColor(c, "stoneDropped.color"); !s.ok()) return s;
  absl::StatusOr<int> v = ParsePointField(d.point(), board_->size(), "stoneDropped.point");
  if (!v.ok()) return v.status();
  if (c != to_move_ || consecutive_passes_ >= 2 || abandoned_by_ != v1::COLOR_UNSPECIFIED) {
    return absl::FailedPreconditionError(absl::StrCat(
        "stoneDropped: only the player to move can drop a stone they were about to play (",
        v1::Color_Name(to_move_), " to move", NotRecordedNote(), ")"));
  }
  SettleTime(true);
  if (result_.has_value() || d.consented()) return absl::OkStatus();
  // No consent to pick it up: the chief arbiter decides (17.3). A ruleset
  // without that clause lets it be picked up (1988 17.2: 允许其拣起后任选着点).
  const int index = Rule(v1::STONE_DROPPED_DISPUTED, c);
  if (index >= 0 && history_.ruling(index).pending()) {
    history_.last_pending().dropped_by = c;
    history_.last_pending().dropped_at = *v;
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnTimeWasting(const v1::TimeWasting& t) {
  if (absl::Status s = CheckColor(t.color(), "timeWasting.color"); !s.ok()) return s;
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  // 12.4(7) is a rule of absolute time; elsewhere it is a violation no clause
  // names, for the ruleset's catch-all.
  Rule(clocks_.Absolute() ? v1::TIME_WASTING : v1::UNCOVERED_VIOLATION, t.color());
  return absl::OkStatus();
}

absl::Status Adjudicator::OnWithdrew(const v1::Withdrew& w) {
  if (absl::Status s = CheckColor(w.color(), "withdrew.color"); !s.ok()) return s;
  SettleTime(true);
  (w.color() == v1::BLACK ? withdrew_black_ : withdrew_white_) = true;
  if (!result_.has_value()) Rule(v1::WITHDRAWAL, w.color());
  return absl::OkStatus();
}

}  // namespace arbiter
