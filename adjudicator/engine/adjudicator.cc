// The fold's core: the turn and its clocks, a late arrival, and how a ruling
// is issued. The event envelope and the table of event kinds are
// adjudicator_kinds.cc; the handlers are in their families' files
// (attendance.cc, play_events.cc, board_incidents.cc, ...).
#include "adjudicator/engine/adjudicator.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/game_end.h"
#include "adjudicator/engine/game_result.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/refusal_reason.h"
#include "adjudicator/engine/ruling_text.h"

namespace arbiter {

absl::StatusOr<Adjudicator> Adjudicator::Create(Rules rules) {
  return Adjudicator(std::move(rules));
}

Adjudicator::Adjudicator(Rules rules) : rules_(std::move(rules)) {}

absl::Status Adjudicator::CheckColor(v1::Color c, absl::string_view what) {
  if (c == v1::BLACK || c == v1::WHITE) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(what, " must be BLACK or WHITE"));
}

// --- turn and clocks ---

void Adjudicator::EnsureStarted() {
  if (started_) return;
  started_ = true;
  clocks_.Start(at_, to_move_);
}

v1::Incident Adjudicator::FlagIncident(v1::Color c) const {
  if (lateness_.absent(c) && rules_.Find(v1::TIME_EXPIRED_WHILE_ABSENT,
                                         discipline_.Count(c, v1::TIME_EXPIRED_WHILE_ABSENT) + 1,
                                         game_.venue()) != nullptr) {
    return v1::TIME_EXPIRED_WHILE_ABSENT;
  }
  const PlayerClock::Mode mode = clocks_.clock(c).mode();
  // Moves-in-time has its own clause (12.5) where the ruleset names one.
  if (mode == PlayerClock::Mode::kMovesInTime &&
      rules_.Find(v1::TIME_EXPIRED_MOVES_IN_TIME, 1, game_.venue()) != nullptr) {
    return v1::TIME_EXPIRED_MOVES_IN_TIME;
  }
  return mode == PlayerClock::Mode::kByoYomi || mode == PlayerClock::Mode::kMovesInTime
             ? v1::TIME_EXPIRED
             : v1::TIME_EXPIRED_NO_OVERTIME;
}

void Adjudicator::SettleTime(bool flag_check) {
  if (!started_ || result_.has_value()) return;
  // Each pass rules at most one forfeit or flag; a ruling that does not end
  // the game stops that source from firing again, so this terminates.
  for (int guard = 0; guard < 4 && !result_.has_value(); ++guard) {
    std::optional<std::pair<absl::Time, v1::Color>> flag;
    if (flag_check && clocks_.running() && ClockKnown()) {
      const bool real_press =
          event_->has_clock_press() && event_->clock_press().color() == clocks_.owner();
      flag = clocks_.FlagFallenBy(at_, real_press);
    }
    const std::optional<Lateness::Overdue> overdue = lateness_.OverdueAt(at_);
    if (!flag && !overdue) return;
    if (overdue && (!flag || overdue->deadline <= flag->first)) {
      if (overdue->black && overdue->white) {
        lateness_.Forfeited(v1::BLACK);
        lateness_.Forfeited(v1::WHITE);
        Rule(v1::BOTH_LATE_BEYOND_LIMIT, v1::COLOR_UNSPECIFIED, overdue->deadline);
      } else {
        const v1::Color late = overdue->black ? v1::BLACK : v1::WHITE;
        lateness_.Forfeited(late);
        Rule(v1::LATE_BEYOND_LIMIT, late, overdue->deadline);
      }
      continue;
    }
    FlagFalls(flag->second, flag->first);
  }
}

void Adjudicator::FlagFalls(v1::Color c, absl::Time instant) {
  if (clocks_.awaiting_press() && c != clocks_.owner()) clocks_.Press(clocks_.move_at());
  // The turn's time up to the flag is what the flag consumed.
  clocks_.clock(c).Flag();
  if (clocks_.running() && c == clocks_.owner()) clocks_.RestartTurn(instant);
  Rule(FlagIncident(c), c, instant);
}

void Adjudicator::PlayPass(v1::Color c) {
  board_->Pass(c);
  last_stone_by_ = v1::COLOR_UNSPECIFIED;
  last_point_ = -1;
  last_captures_ = 0;
  ++move_number_;
  ++consecutive_passes_;
  to_move_ = Opponent(c);
  clocks_.Moved(at_);
  if (consecutive_passes_ >= 2) clocks_.Stop(at_);  // play ends (art. 8)
}

// --- rulings ---

int Adjudicator::Rule(v1::Incident incident, v1::Color offender, std::optional<absl::Time> at,
                      const std::string* preset) {
  int occurrence;
  if (offender == v1::COLOR_UNSPECIFIED) {
    occurrence =
        std::max(discipline_.Record(v1::BLACK, incident), discipline_.Record(v1::WHITE, incident));
  } else {
    occurrence = discipline_.Record(offender, incident);
  }
  const v1::Sanctioning* s = rules_.Find(incident, occurrence, game_.venue());
  // No clause, or one under which the event itself is the record.
  if (s == nullptr || s->disposition() != v1::Sanctioning::RULE) return -1;
  const v1::RulingOption* choice = nullptr;
  if (preset != nullptr && !preset->empty()) choice = FindOption(*s, *preset);
  const int index = RuleWith(*s, offender, at.value_or(at_), choice);
  history_.Counted(static_cast<uint32_t>(index) + 1, incident, offender);
  return index;
}

int Adjudicator::RuleWith(const v1::Sanctioning& s, v1::Color offender, absl::Time at,
                          const v1::RulingOption* choice) {
  v1::Ruling::Party party = v1::Ruling::BOTH;
  if (s.against() != v1::BOTH_PLAYERS && offender != v1::COLOR_UNSPECIFIED) {
    party = offender == v1::BLACK ? v1::Ruling::BLACK : v1::Ruling::WHITE;
  }
  if (choice != nullptr && choice->against() != v1::Ruling::PARTY_UNSPECIFIED) {
    party = choice->against();
  }
  v1::Ruling r = RulingUnder(rules_, s, party);
  if (choice != nullptr) {
    r.set_pending(false);
    r.clear_options();
    r.mutable_sanctions()->CopyFrom(choice->sanctions());
    r.set_choice(choice->id());
  }
  ToProto(at, r.mutable_at());
  return Issue(std::move(r), PartyColor(party), &s);
}

absl::Status Adjudicator::Refusal(v1::Incident incident, v1::Color c,
                                  absl::string_view what) const {
  const v1::Sanctioning* s =
      rules_.Find(incident, discipline_.Count(c, incident) + 1, game_.venue());
  if (s == nullptr || s->disposition() != v1::Sanctioning::REFUSE) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat(what, ": refused under ", s->clause(), ": ", s->note()));
}

void Adjudicator::Cite(v1::Incident incident, v1::Result* result) const {
  const v1::Sanctioning* s = rules_.Find(incident, 1, game_.venue());
  if (s == nullptr) return;
  result->set_clause(s->clause());
  result->mutable_also_cites()->CopyFrom(s->also_cites());
}

int Adjudicator::Issue(v1::Ruling r, v1::Color offender, const v1::Sanctioning* s) {
  r.set_event(events_ + 1);
  int warnings = offender == v1::COLOR_UNSPECIFIED ? 0 : discipline_.warnings(offender);
  bool warned = false;
  if (!r.pending() && offender != v1::COLOR_UNSPECIFIED) {
    for (const int sanction : r.sanctions()) {
      if (sanction == v1::WARNING) {
        warnings = discipline_.AddWarning(offender);
        warned = true;
      } else if (sanction == v1::PENALTY_STONE) {
        discipline_.AddPenaltyStone(offender);
      }
    }
  }
  r.set_warnings(warnings);
  const int index = history_.Record(std::move(r));
  const v1::Ruling& issued = history_.ruling(index);
  if (issued.pending()) {
    history_.AddPending({issued.number(), s, offender});
    return index;
  }
  if (std::optional<v1::Result> result = ResultOfRuling(issued, s->reason())) {
    EndGame(*std::move(result), FromProto(issued.at()), issued.number());
    return index;
  }
  const absl::Time at = FromProto(issued.at());
  const uint32_t number = issued.number();
  // A penalty stone ruled after the count still counts (24.1), where the
  // ruleset says so.
  GameEnd::Recount(*this, number);
  // Warnings count across kinds; reaching the threshold is an incident of
  // its own, ruled after the warning that reached it (24.2; 1988 25.2). After
  // the end, where the ruleset says so, it replaces a result the game reached
  // by play (a count, a resignation); one a ruling gave stands.
  const int threshold = rules_.params().warnings_for_loss();
  const bool by_play =
      !result_.has_value() ||
      (rules_.params().warnings_after_the_end_apply() &&
       (result_->reason() == v1::Result::COUNT || result_->reason() == v1::Result::RESIGNATION));
  if (warned && threshold > 0 && warnings == threshold && by_play) {
    if (const int follow_on = Rule(v1::WARNINGS_ACCUMULATED, offender, at); follow_on >= 0) {
      history_.FollowOn(number, history_.ruling(follow_on).number());
    }
  }
  return index;
}

void Adjudicator::EndGame(v1::Result result, absl::Time at, uint32_t ruling) {
  if (ruling != 0) history_.Replaced(ruling, result_);
  clocks_.Stop(at);
  ToProto(at, result.mutable_at());
  result.set_ruling(ruling);
  result_ = std::move(result);
}

bool Adjudicator::Imposed(int index, v1::Sanction sanction) const {
  return index >= 0 && !history_.ruling(index).pending() &&
         Imposes(history_.ruling(index), sanction);
}

void Adjudicator::Arrive(v1::Color c) {
  const std::optional<Lateness::Arrival> arrival = lateness_.Arrive(c, at_);
  // RAPID (22.4): no forfeit and no deduction; the clock simply ran.
  if (!arrival || game_.venue() == v1::GameCreated::RAPID) return;
  // Late after a resumption: where the ruleset says so (22.1, third
  // sentence: 一律打开计时器进入自然计时状态) the clock simply ran.
  if (arrival->after_resumption && rules_.params().late_after_resumption_runs_clock()) return;
  const int index = Rule(v1::LATE_WITHIN_LIMIT, c);
  if (!Imposed(index, v1::TIME_DEDUCTED) || result_.has_value()) return;
  // The late player's used time becomes multiplier × lateness, whatever
  // their clock ran while they were away (22.1-22.2; 1988 23.3).
  const absl::Duration deducted = rules_.params().late_deduction_multiplier() * arrival->late;
  ToProto(deducted, history_.mutable_ruling(index).mutable_time_deducted());
  // A mover who has not pressed is taken to have pressed at their move: the
  // late player's clock has been running since.
  if (clocks_.running() && clocks_.awaiting_press() && clocks_.owner() != c)
    clocks_.Press(clocks_.move_at());
  // What the clock ran since the lateness began is replaced by the
  // deduction; a turn's time from before an adjournment stays.
  if (clocks_.running() && !clocks_.awaiting_press() && clocks_.owner() == c)
    clocks_.RestartStretch(at_);
  PlayerClock& clock = clocks_.clock(c);
  clock.Deduct(deducted);
  if (clock.flagged()) FlagFalls(c, at_);
}

// --- state ---

v1::GameState Adjudicator::State() const {
  v1::GameState s;
  s.set_to_move(to_move_);
  s.set_move_number(move_number_);
  s.set_consecutive_passes(consecutive_passes_);
  if (board_.has_value()) {
    for (std::string& row : board_->Rows()) s.add_board(std::move(row));
    s.mutable_prisoners()->set_black(board_->captures(v1::BLACK));
    s.mutable_prisoners()->set_white(board_->captures(v1::WHITE));
    for (const int v : dead_) s.add_dead_stones(PointName(v, board_->size()));
  }
  s.mutable_warnings()->set_black(discipline_.warnings(v1::BLACK));
  s.mutable_warnings()->set_white(discipline_.warnings(v1::WHITE));
  s.mutable_penalty_stones()->set_black(discipline_.penalty_stones(v1::BLACK));
  s.mutable_penalty_stones()->set_white(discipline_.penalty_stones(v1::WHITE));
  for (const Pending& p : history_.pending()) s.add_pending_rulings(p.number);
  if (last_at_ != absl::InfinitePast()) ToProto(last_at_, s.mutable_as_of());
  if (cancelled_.has_value()) {
    s.set_cancelled(true);
    s.set_cancelled_reason(*cancelled_);
  }

  // The clocks as of the last event: the running one charged up to it.
  *s.mutable_clocks() = clocks_.AsOf(last_at_);
  return s;
}

bool Adjudicator::ClockKnown() const {
  // A live game's clocks are the server's, pressed as play goes.
  return play_recorded_ || game_.live() || lateness_.absent(clocks_.owner());
}

std::string Adjudicator::NotRecordedNote() const {
  if (play_recorded_) return "";
  return ": no move of this game is recorded, so only the first player to move is known; "
         "record the moves up to here";
}

absl::Status Adjudicator::RefuseOncePlayEnded(absl::string_view kind) const {
  if (!PlayEnded()) return absl::OkStatus();
  return WithRefusalReason(
      absl::FailedPreconditionError(
          absl::StrCat(kind, ": play has ended (",
                       abandoned_by_ != v1::COLOR_UNSPECIFIED
                           ? absl::StrCat(v1::Color_Name(abandoned_by_), " gave up the contest")
                           : "two passes in a row",
                       "), so no move is to come; what follows is the count")),
      "PLAY_ENDED");
}

const std::string& Adjudicator::cancel_reason() const {
  static const std::string* const kNone = new std::string();
  return cancelled_.has_value() ? *cancelled_ : *kNone;
}

}  // namespace arbiter
