// Setting up, starting, adjourning and resuming a game, and who is late
// (arts. 14, 22.1-22.4; 1988 art. 23).
#include "adjudicator/engine/attendance.h"

#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/refusal_reason.h"

namespace arbiter {

namespace {

std::optional<absl::Duration> LateLimit(const v1::Parameters& p, v1::GameCreated::Venue venue) {
  // RAPID (22.4) and an unknown venue have no limit: the absent player's
  // clock simply runs.
  if (venue == v1::GameCreated::SAME_SITE && p.has_late_limit_same_site()) {
    return FromProto(p.late_limit_same_site());
  }
  if (venue == v1::GameCreated::SEPARATE_SITE && p.has_late_limit_separate_site()) {
    return FromProto(p.late_limit_separate_site());
  }
  return std::nullopt;
}

// The time control a game is folded with: durations in range, counts not
// negative. (One time system, each counting something, is checked of a
// game being created, not of one recorded: new_input.h.)
absl::Status CheckTimeControl(const v1::TimeControl& tc) {
  for (const auto* d :
       {&tc.main_time(), &tc.byo_yomi().period_time(), &tc.moves_in_time().period()}) {
    if (absl::Status s = CheckDuration(*d, "a timeControl duration"); !s.ok()) return s;
  }
  if (tc.byo_yomi().periods() < 0 || tc.moves_in_time().moves() < 0) {
    return absl::InvalidArgumentError("timeControl counts must not be negative");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status Attendance::OnGameCreated(Adjudicator& a, const v1::GameCreated& g) {
  if (a.created_) return absl::FailedPreconditionError("the game was already created");
  const int size = g.board_size() == 0 ? 19 : g.board_size();
  if (!IsSupportedBoardSize(size)) {
    return absl::InvalidArgumentError(
        absl::StrCat("boardSize ", g.board_size(), " is not 9, 13 or 19"));
  }
  if (g.table() > 9999) {
    return absl::InvalidArgumentError(absl::StrCat("table ", g.table(), " is not 1-9999"));
  }
  int komi_quarters = a.rules_.params().komi_quarters();
  if (g.has_komi_stones()) {
    const double q = g.komi_stones() * 4;
    if (!std::isfinite(q) || q != std::round(q) || std::abs(q) > 4 * size * size) {
      return absl::InvalidArgumentError(
          absl::StrCat("komiStones ", g.komi_stones(), " is not a whole number of quarter stones"));
    }
    komi_quarters = static_cast<int>(q);
  }
  if (absl::Status s = CheckTimeControl(g.time_control()); !s.ok()) return s;
  if (g.has_scheduled_start()) {
    if (absl::Status s = CheckTimestamp(g.scheduled_start(), "scheduledStart"); !s.ok()) return s;
  }
  const v1::Color first =
      g.setup().first_to_move() == v1::COLOR_UNSPECIFIED ? v1::BLACK : g.setup().first_to_move();
  Board board(size);
  for (const v1::Color c : {v1::BLACK, v1::WHITE}) {
    const auto& points = c == v1::BLACK ? g.setup().black() : g.setup().white();
    for (const std::string& p : points) {
      absl::StatusOr<int> v = ParsePointField(p, size, "setup");
      if (!v.ok()) return v.status();
      if (board.at(*v) != Stone::kEmpty) {
        return absl::InvalidArgumentError(absl::StrCat("setup: ", p, " is set up twice"));
      }
      board.Place(c, *v);
    }
  }
  board.RecordSituation(first);

  a.created_ = true;
  a.game_ = g;
  a.board_.emplace(std::move(board));
  a.komi_quarters_ = komi_quarters;
  a.to_move_ = first;
  std::optional<PlayerClock> clock;
  if (g.has_time_control()) {
    clock.emplace(g.time_control(), a.rules_.params().byo_yomi_exact_period_counts(),
                  a.rules_.params().absolute_time_over_when_exceeded());
  }
  a.clocks_ = GameClocks(first, clock);
  a.lateness_ = Lateness(LateLimit(a.rules_.params(), g.venue()));
  return absl::OkStatus();
}

absl::Status Attendance::OnGameStarted(Adjudicator& a, const v1::GameStarted& g) {
  if (a.started_) return absl::FailedPreconditionError("the game has already started");
  bool absent[2] = {false, false};
  for (const int c : g.absent()) {
    if (absl::Status s = Adjudicator::CheckColor(static_cast<v1::Color>(c), "gameStarted.absent");
        !s.ok()) {
      return s;
    }
    absent[Adjudicator::Index(static_cast<v1::Color>(c))] = true;
  }
  a.EnsureStarted();
  const absl::Time scheduled =
      a.game_.has_scheduled_start() ? FromProto(a.game_.scheduled_start()) : a.at_;
  a.lateness_.Start(scheduled, absent[0], absent[1]);
  a.SettleTime(true);
  return absl::OkStatus();
}

absl::Status Attendance::OnPlayerArrived(Adjudicator& a, const v1::PlayerArrived& p) {
  if (absl::Status s = Adjudicator::CheckColor(p.color(), "playerArrived.color"); !s.ok()) return s;
  a.SettleTime(true);
  if (!a.result_.has_value()) a.Arrive(p.color());
  return absl::OkStatus();
}

absl::Status Attendance::OnAdjourned(Adjudicator& a) {
  if (a.clocks_.adjourned()) {
    return WithRefusalReason(absl::FailedPreconditionError("the game is already adjourned"),
                             "ALREADY_ADJOURNED");
  }
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  a.clocks_.Adjourn(a.at_);
  return absl::OkStatus();
}

absl::Status Attendance::OnResumed(Adjudicator& a) {
  if (!a.clocks_.adjourned())
    return WithRefusalReason(absl::FailedPreconditionError("resumed: the game is not adjourned"),
                             "NOT_ADJOURNED");
  // A sealed move is opened first: no clock runs until it is played.
  a.clocks_.Resume(
      a.at_, a.started_ && a.consecutive_passes_ < 2 && a.sealed_by_ == v1::COLOR_UNSPECIFIED);
  a.lateness_.Resume(a.at_);
  return absl::OkStatus();
}

}  // namespace arbiter
