// Setting up, starting, adjourning and resuming a game, and who is late
// (arts. 14, 22.1-22.4; 1988 art. 23). Each handler checks first, then
// changes state: a handler that returns an error has changed nothing.
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/proto_time.h"

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

}  // namespace

absl::Status Adjudicator::OnGameCreated(const v1::GameCreated& g) {
  if (created_) return absl::FailedPreconditionError("the game was already created");
  const int size = g.board_size() == 0 ? 19 : g.board_size();
  if (!IsSupportedBoardSize(size)) {
    return absl::InvalidArgumentError(
        absl::StrCat("boardSize ", g.board_size(), " is not 9, 13 or 19"));
  }
  if (g.table() > 9999) {
    return absl::InvalidArgumentError(absl::StrCat("table ", g.table(), " is not 1-9999"));
  }
  int komi_quarters = rules_.params().komi_quarters();
  if (g.has_komi_stones()) {
    const double q = g.komi_stones() * 4;
    if (!std::isfinite(q) || q != std::round(q) || std::abs(q) > 4 * size * size) {
      return absl::InvalidArgumentError(
          absl::StrCat("komiStones ", g.komi_stones(), " is not a whole number of quarter stones"));
    }
    komi_quarters = static_cast<int>(q);
  }
  for (const auto* d : {&g.time_control().main_time(), &g.time_control().byo_yomi().period_time(),
                        &g.time_control().moves_in_time().period()}) {
    if (absl::Status s = CheckDuration(*d, "a timeControl duration"); !s.ok()) return s;
  }
  if (g.has_scheduled_start()) {
    if (absl::Status s = CheckTimestamp(g.scheduled_start(), "scheduledStart"); !s.ok()) return s;
  }
  if (g.time_control().byo_yomi().periods() < 0 || g.time_control().moves_in_time().moves() < 0) {
    return absl::InvalidArgumentError("timeControl counts must not be negative");
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

  created_ = true;
  game_ = g;
  board_.emplace(std::move(board));
  komi_quarters_ = komi_quarters;
  to_move_ = first;
  std::optional<PlayerClock> clock;
  if (g.has_time_control()) {
    clock.emplace(g.time_control(), rules_.params().byo_yomi_exact_period_counts(),
                  rules_.params().absolute_time_over_when_exceeded());
  }
  clocks_ = GameClocks(first, clock);
  lateness_ = Lateness(LateLimit(rules_.params(), g.venue()));
  return absl::OkStatus();
}

absl::Status Adjudicator::OnGameStarted(const v1::GameStarted& g) {
  if (started_) return absl::FailedPreconditionError("the game has already started");
  bool absent[2] = {false, false};
  for (const int c : g.absent()) {
    if (absl::Status s = CheckColor(static_cast<v1::Color>(c), "gameStarted.absent"); !s.ok()) {
      return s;
    }
    absent[Index(static_cast<v1::Color>(c))] = true;
  }
  EnsureStarted();
  const absl::Time scheduled =
      game_.has_scheduled_start() ? FromProto(game_.scheduled_start()) : at_;
  lateness_.Start(scheduled, absent[0], absent[1]);
  SettleTime(true);
  return absl::OkStatus();
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

absl::Status Adjudicator::OnPlayerArrived(const v1::PlayerArrived& p) {
  if (absl::Status s = CheckColor(p.color(), "playerArrived.color"); !s.ok()) return s;
  SettleTime(true);
  if (!result_.has_value()) Arrive(p.color());
  return absl::OkStatus();
}

absl::Status Adjudicator::OnAdjourned() {
  if (clocks_.adjourned()) return absl::FailedPreconditionError("the game is already adjourned");
  SettleTime(true);
  if (result_.has_value()) return absl::OkStatus();
  clocks_.Adjourn(at_);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnResumed() {
  if (!clocks_.adjourned())
    return absl::FailedPreconditionError("resumed: the game is not adjourned");
  // A sealed move is opened first: no clock runs until it is played.
  clocks_.Resume(at_, started_ && consecutive_passes_ < 2 && sealed_by_ == v1::COLOR_UNSPECIFIED);
  lateness_.Resume(at_);
  return absl::OkStatus();
}

}  // namespace arbiter
