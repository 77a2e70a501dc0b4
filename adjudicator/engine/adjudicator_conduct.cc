// Conduct and the arbiter: phones, smoking, misconduct, leaving the seat,
// displaced stones, scattered boards, wrong colours and decisions on pending
// rulings (arts. 17.1, 17.5-17.6, 22.7, 23). Each handler checks first,
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
    if (board_->at(*from) == Stone::kEmpty) {
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
    if (index >= 0 && rulings_[index].pending()) pending_.back().displaced = std::move(moves);
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
    default:
      return absl::InvalidArgumentError(
          "misconduct.kind must be DISTURBANCE, DISCUSSION, TALK or CHEATING");
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
    incidents_[static_cast<uint32_t>(index) + 1] = {incident, m.color()};
  }
  return absl::OkStatus();
}

absl::Status Adjudicator::OnLeftSeat(const v1::LeftSeat& l) {
  if (absl::Status s = CheckColor(l.color(), "leftSeat.color"); !s.ok()) return s;
  SettleTime(true);
  // 22.7: the clock runs as usual; leaving without permission may be ruled.
  if (!result_.has_value() && !l.permitted()) Rule(v1::LEFT_SEAT_UNPERMITTED, l.color());
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
  if (d.ruling() == 0 || d.ruling() > rulings_.size()) {
    return absl::NotFoundError(absl::StrCat("arbiterDecision: there is no ruling ", d.ruling()));
  }
  auto it = std::find_if(pending_.begin(), pending_.end(),
                         [&](const Pending& p) { return p.number == d.ruling(); });
  if (it == pending_.end()) {
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
  pending_.erase(it);
  SettleTime(true);
  v1::Ruling r = RulingUnder(rules_, *s, rulings_[decided.number - 1].against());
  r.set_pending(false);
  r.clear_options();
  r.mutable_sanctions()->CopyFrom(choice->sanctions());
  r.set_resolves(decided.number);
  r.set_choice(choice->id());
  r.set_note(d.note());
  ToProto(at_, r.mutable_at());
  const int index = Issue(std::move(r), decided.offender, s);
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
  return absl::OkStatus();
}

}  // namespace arbiter
