// The table of event kinds: for each kind of `Event.kind`, the handler that
// folds it in, which of the envelope's checks apply to it, and who may record
// it; and Apply, which checks an event's envelope by its row and calls the
// row's handler. A new kind is one row and its handler (README.md, "Adding
// an event kind").
#include <array>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/appeals.h"
#include "adjudicator/engine/attendance.h"
#include "adjudicator/engine/board_incidents.h"
#include "adjudicator/engine/corrections.h"
#include "adjudicator/engine/decisions.h"
#include "adjudicator/engine/discipline_incidents.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/game_end.h"
#include "adjudicator/engine/play_events.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/refusal_reason.h"
#include "adjudicator/engine/time_reports.h"

namespace arbiter {
namespace {

// Whether a kind is accepted once the game has a result (Kind::after_result).
enum class AfterResult { kRefused, kAccepted, kIfCheating };

// The words of the table's columns.
constexpr AfterResult kRefused = AfterResult::kRefused;
constexpr AfterResult kAccepted = AfterResult::kAccepted;
constexpr bool kPlay = true, kNotPlay = false;
constexpr bool kCorrection = true, kEvent = false;
constexpr const char* kAnyone = nullptr;

}  // namespace

// One row. Handlers check everything that can make the event bad input
// before they change anything (adjudicator.h).
struct Adjudicator::Kind {
  v1::Event::KindCase kind;
  absl::Status (*handle)(Adjudicator& a, const v1::Event& e);
  // Accepted once the game has a result: the procedures of the record
  // (decisions, appeals, the confirmation, the count, a cancellation) and a
  // cheating misconduct (23.1 reopens even a confirmed result).
  AfterResult after_result;
  // Play (a move, a pass, a press): refused while the game is adjourned, a
  // sealed move awaits opening, or the contest was given up on the board.
  bool play;
  // A correction: checked against the events it keeps, so accepted after a
  // cancellation and dated from before the event it voids (CheckEnvelope).
  bool correction;
  // Who may record it: nullptr for anyone; else the chief arbiter alone,
  // and this is the error refusing it to an event recorded under an
  // arbiter's authority (Event.authority; unset offline and on an open
  // server, where nobody's authority is checked). The service's own gate by
  // role is the field's `event_access` option in events.proto.
  const char* chief_arbiter_only;
};

// The table itself, a row a kind in any order: data, apart from KindOf's
// lookup, so that adding a kind touches only its row.
// clang-format off
const Adjudicator::Kind Adjudicator::kKinds[] = {
  {v1::Event::kGameCreated, [](Adjudicator& a, const v1::Event& e) { return Attendance::OnGameCreated(a, e.game_created()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kGameStarted, [](Adjudicator& a, const v1::Event& e) { return Attendance::OnGameStarted(a, e.game_started()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kPlayerArrived, [](Adjudicator& a, const v1::Event& e) { return Attendance::OnPlayerArrived(a, e.player_arrived()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kMove, [](Adjudicator& a, const v1::Event& e) { return PlayEvents::OnMove(a, e.move()); }, kRefused, kPlay, kEvent, kAnyone},
  {v1::Event::kPass, [](Adjudicator& a, const v1::Event& e) { return PlayEvents::OnPass(a, e.pass()); }, kRefused, kPlay, kEvent, kAnyone},
  {v1::Event::kClockPress, [](Adjudicator& a, const v1::Event& e) { return PlayEvents::OnClockPress(a, e.clock_press()); }, kRefused, kPlay, kEvent, kAnyone},
  {v1::Event::kTakeback, [](Adjudicator& a, const v1::Event& e) { return BoardIncidents::OnTakeback(a, e.takeback()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kCaptureError, [](Adjudicator& a, const v1::Event& e) { return BoardIncidents::OnCaptureError(a, e.capture_error()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kStonesDisplaced, [](Adjudicator& a, const v1::Event& e) { return BoardIncidents::OnStonesDisplaced(a, e.stones_displaced()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kBoardScattered, [](Adjudicator& a, const v1::Event& e) { return BoardIncidents::OnBoardScattered(a, e.board_scattered()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kPhoneRang, [](Adjudicator& a, const v1::Event& e) { return DisciplineIncidents::OnOffence(a, e.phone_rang().color(), v1::PHONE_RANG, "phoneRang.color"); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kPhoneViewed, [](Adjudicator& a, const v1::Event& e) { return DisciplineIncidents::OnOffence(a, e.phone_viewed().color(), v1::PHONE_VIEWED, "phoneViewed.color"); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kSmoking, [](Adjudicator& a, const v1::Event& e) { return DisciplineIncidents::OnOffence(a, e.smoking().color(), v1::SMOKING, "smoking.color"); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kMisconduct, [](Adjudicator& a, const v1::Event& e) { return DisciplineIncidents::OnMisconduct(a, e.misconduct()); }, AfterResult::kIfCheating, kNotPlay, kEvent, kAnyone},
  {v1::Event::kLeftSeat, [](Adjudicator& a, const v1::Event& e) { return DisciplineIncidents::OnLeftSeat(a, e.left_seat()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kReturnedSeat, [](Adjudicator& a, const v1::Event& e) {
    absl::Status s = CheckColor(e.returned_seat().color(), "returnedSeat.color");
    if (s.ok()) a.SettleTime(true);
    return s;
  }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kTimeExpired, [](Adjudicator& a, const v1::Event& e) { return TimeReports::OnTimeExpired(a, e.time_expired()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kClockMalfunction, [](Adjudicator& a, const v1::Event& e) { return TimeReports::OnClockMalfunction(a, e.clock_malfunction()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kAdjourned, [](Adjudicator& a, const v1::Event&) { return Attendance::OnAdjourned(a); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kResumed, [](Adjudicator& a, const v1::Event&) { return Attendance::OnResumed(a); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kResign, [](Adjudicator& a, const v1::Event& e) { return GameEnd::OnResign(a, e.resign()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kDeadStones, [](Adjudicator& a, const v1::Event& e) { return GameEnd::OnDeadStones(a, e.dead_stones()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kArbiterDecision, [](Adjudicator& a, const v1::Event& e) { return Decisions::OnArbiterDecision(a, e.arbiter_decision()); }, kAccepted, kNotPlay, kEvent, kAnyone},
  {v1::Event::kWrongColors, [](Adjudicator& a, const v1::Event&) { return DisciplineIncidents::OnWrongColors(a); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kAppealLodged, [](Adjudicator& a, const v1::Event& e) { return Appeals::OnAppealLodged(a, e.appeal_lodged()); }, kAccepted, kNotPlay, kEvent, kAnyone},
  {v1::Event::kAppealDecided, [](Adjudicator& a, const v1::Event& e) { return Appeals::OnAppealDecided(a, e.appeal_decided()); }, kAccepted, kNotPlay, kEvent, kAnyone},
  {v1::Event::kResultConfirmed, [](Adjudicator& a, const v1::Event&) { return Appeals::OnResultConfirmed(a); }, kAccepted, kNotPlay, kEvent, kAnyone},
  {v1::Event::kMoveSealed, [](Adjudicator& a, const v1::Event& e) { return PlayEvents::OnMoveSealed(a, e.move_sealed()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kSealedMoveOpened, [](Adjudicator& a, const v1::Event& e) { return PlayEvents::OnSealedMoveOpened(a, e.sealed_move_opened()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kStoneDropped, [](Adjudicator& a, const v1::Event& e) { return BoardIncidents::OnStoneDropped(a, e.stone_dropped()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kFirstHalfUnrecorded, [](Adjudicator& a, const v1::Event&) { return TimeReports::OnFirstHalfUnrecorded(a); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kContestAbandoned, [](Adjudicator& a, const v1::Event& e) { return GameEnd::OnContestAbandoned(a, e.contest_abandoned()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kTimeWasting, [](Adjudicator& a, const v1::Event& e) { return DisciplineIncidents::OnTimeWasting(a, e.time_wasting()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kWithdrew, [](Adjudicator& a, const v1::Event& e) { return DisciplineIncidents::OnWithdrew(a, e.withdrew()); }, kRefused, kNotPlay, kEvent, kAnyone},
  {v1::Event::kEventVoided, [](Adjudicator& a, const v1::Event& e) { return Corrections::OnEventVoided(a, e.event_voided()); }, kAccepted, kNotPlay, kCorrection,
   "eventVoided: voiding an event is the chief arbiter's correction"},
  {v1::Event::kCountRecorded, [](Adjudicator& a, const v1::Event& e) { return GameEnd::OnCountRecorded(a, e.count_recorded()); }, kAccepted, kNotPlay, kEvent, kAnyone},
  {v1::Event::kGameCancelled, [](Adjudicator& a, const v1::Event& e) { return Corrections::OnGameCancelled(a, e.game_cancelled()); }, kAccepted, kNotPlay, kEvent,
   "gameCancelled: cancelling a game is the chief arbiter's correction"},
};
// clang-format on

const Adjudicator::Kind* Adjudicator::KindOf(v1::Event::KindCase kind) {
  // By field number, for a lookup as cheap as the switch it replaces.
  static const std::array<const Kind*, 64> kByNumber = [] {
    std::array<const Kind*, 64> by{};
    for (const Kind& k : kKinds) by[static_cast<size_t>(k.kind)] = &k;
    return by;
  }();
  const size_t n = static_cast<size_t>(kind);
  return n < kByNumber.size() ? kByNumber[n] : nullptr;
}

bool Adjudicator::Handles(v1::Event::KindCase kind) { return KindOf(kind) != nullptr; }

absl::Time Adjudicator::TakenAt(const v1::Event& e, absl::Time previous) {
  // A time written to the second names that whole second: a previous event
  // inside it is not later, and the clocks count on from the later instant.
  const absl::Time at = FromProto(e.at());
  if (e.at().nanos() == 0 && at < previous && previous < at + absl::Seconds(1)) return previous;
  return at;
}

absl::Status Adjudicator::CheckEnvelope(const v1::Event& e, const Kind* kind) const {
  if (kind == nullptr) return absl::InvalidArgumentError("the event has no kind");
  if (!e.has_at()) return absl::InvalidArgumentError("the event has no time (`at`)");
  if (absl::Status s = CheckTimestamp(e.at(), "the event's time (`at`)"); !s.ok()) return s;
  if (!created_ && !e.has_game_created()) {
    return absl::FailedPreconditionError("the first event must be gameCreated");
  }
  // A correction may void the event that set the last time or ended the
  // game; its time is checked against the events it keeps.
  if (kind->correction) return absl::OkStatus();
  if (cancelled_.has_value()) {
    return WithRefusalReason(absl::FailedPreconditionError(
                                 absl::StrCat("the game was cancelled (", *cancelled_,
                                              "); only a correction (eventVoided) may follow")),
                             "GAME_CANCELLED", {{"cause", *cancelled_}});
  }
  const absl::Time at = TakenAt(e, last_at_);
  if (at < last_at_) {
    // The fields as the events' JSON gives times ("2026-05-01T09:00:30Z").
    constexpr char kJsonTime[] = "%Y-%m-%dT%H:%M:%E*SZ";
    return WithRefusalReason(
        absl::InvalidArgumentError(
            absl::StrCat("time ", absl::FormatTime(absl::RFC3339_full, at, absl::UTCTimeZone()),
                         " is earlier than the previous event's ",
                         absl::FormatTime(absl::RFC3339_full, last_at_, absl::UTCTimeZone()))),
        "TIME_BEFORE_PREVIOUS",
        {{"at", absl::FormatTime(kJsonTime, at, absl::UTCTimeZone())},
         {"previous", absl::FormatTime(kJsonTime, last_at_, absl::UTCTimeZone())}});
  }
  const bool after_result = kind->after_result == AfterResult::kAccepted ||
                            (kind->after_result == AfterResult::kIfCheating &&
                             e.misconduct().kind() == v1::Misconduct::CHEATING);
  if (result_.has_value() && !after_result) {
    return WithRefusalReason(
        absl::FailedPreconditionError(
            absl::StrCat("the result is final (", result_->sgf(),
                         "); only an arbiterDecision, an appeal, resultConfirmed, a cheating "
                         "misconduct, a cancellation or a count may follow")),
        "RESULT_FINAL", {{"result", result_->sgf()}});
  }
  if (clocks_.adjourned() && kind->play) {
    return absl::FailedPreconditionError("the game is adjourned: no play until `resumed`");
  }
  if (sealed_by_ != v1::COLOR_UNSPECIFIED && kind->play) {
    return absl::FailedPreconditionError(
        "a sealed move awaits opening: no play before its sealedMoveOpened");
  }
  if (abandoned_by_ != v1::COLOR_UNSPECIFIED && kind->play) {
    return absl::FailedPreconditionError(
        absl::StrCat("play has ended: ", v1::Color_Name(abandoned_by_),
                     " gave up the contest on the board; the count (deadStones) follows"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<v1::Ruling>> Adjudicator::Apply(const v1::Event& e) {
  const Kind* kind = KindOf(e.kind_case());
  if (absl::Status s = CheckEnvelope(e, kind); !s.ok()) return s;
  if (kind->chief_arbiter_only != nullptr && e.authority() == v1::ARBITER) {
    return absl::PermissionDeniedError(kind->chief_arbiter_only);
  }
  const size_t before = history_.size();
  event_ = &e;
  // A correction's time is checked against the events it keeps (OnEventVoided).
  at_ = kind->correction ? FromProto(e.at()) : TakenAt(e, last_at_);
  absl::Status s = kind->handle(*this, e);
  event_ = nullptr;
  if (!s.ok()) return s;
  log_.push_back(e);
  ++events_;
  last_at_ = at_;
  if (history_.size() == before) return std::vector<v1::Ruling>();
  return std::vector<v1::Ruling>(history_.rulings().begin() + static_cast<std::ptrdiff_t>(before),
                                 history_.rulings().end());
}

}  // namespace arbiter
