// The count (arts. 9, 11, 24.1; 1988 9, 11): from the board after the agreed
// dead stones (`deadStones`), or the arbiter's own count (`countRecorded`),
// for the many games whose moves nobody records. Either way the result is
// the margin of DOMAIN.md §2 under the game's komi and penalty stones, and
// cites the ruleset's COUNTED sanctioning (9 with 11; after a contest given
// up, 12.4(4)).
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/area_count.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/game_result.h"

namespace arbiter {
namespace {

// "184.5", "185": a count in half stones as the arbiter writes it.
std::string Stones(int halves) { return absl::StrCat(halves / 2, halves % 2 ? ".5" : ""); }

}  // namespace

bool Adjudicator::ClockKnown() const {
  // A live game's clocks are the server's, pressed as play goes.
  return play_recorded_ || game_.live() || lateness_.absent(clocks_.owner());
}

std::string Adjudicator::NotRecordedNote() const {
  if (play_recorded_) return "";
  return ": no move of this game is recorded, so only the first player to move is known; "
         "record the moves up to here";
}

void Adjudicator::EndByCount(int black_halves) {
  const int pb = discipline_.penalty_stones(v1::BLACK);
  const int pw = discipline_.penalty_stones(v1::WHITE);
  const int size = board_->size();
  const int margin = MarginQuarters(AreaCount{black_halves, size * size * 2 - black_halves},
                                    size * size, komi_quarters_, pb, pw);
  v1::Result result = CountResult(black_halves, margin, pb, pw);
  // 9 with 11; after a contest given up, 12.4(4) with them.
  Cite(abandoned_by_ != v1::COLOR_UNSPECIFIED ? v1::CONTEST_ABANDONED : v1::COUNTED, &result);
  EndGame(std::move(result), at_, 0);
}

absl::Status Adjudicator::OnDeadStones(const v1::DeadStones& d) {
  const bool abandoned = abandoned_by_ != v1::COLOR_UNSPECIFIED;
  if (!play_recorded_ && !abandoned) {
    return absl::FailedPreconditionError(
        "deadStones: no move of this game is recorded, so there is no board to count; record "
        "the arbiter's count instead (countRecorded {blackCount})");
  }
  if (consecutive_passes_ < 2 && !abandoned) {
    return absl::FailedPreconditionError(
        "deadStones: play has not ended with two passes (or a contest given up, 12.4(4))");
  }
  std::vector<int> dead;
  for (const std::string& p : d.points()) {
    absl::StatusOr<int> v = ParsePointField(p, board_->size(), "deadStones.points");
    if (!v.ok()) return v.status();
    dead.push_back(*v);
  }
  // 12.4(4): the contested points (双方可争之点) go to the one who did not
  // give up; otherwise a region touching both colours is shared.
  absl::StatusOr<AreaCount> count =
      CountArea(*board_, dead, abandoned ? Opponent(abandoned_by_) : v1::COLOR_UNSPECIFIED);
  if (!count.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("deadStones: ", count.status().message()));
  }
  board_counted_ = true;
  EndByCount(count->black_halves);
  return absl::OkStatus();
}

absl::Status Adjudicator::OnCountRecorded(const v1::CountRecorded& c) {
  const int points = board_->size() * board_->size();
  const double halves = c.black_count() * 2;
  if (!std::isfinite(halves) || halves != std::round(halves) || halves < 0 || halves > 2 * points) {
    return absl::InvalidArgumentError(absl::StrCat("countRecorded.blackCount ", c.black_count(),
                                                   " is not a multiple of 1/2 from 0 to ", points,
                                                   " (the board's points)"));
  }
  const int black_halves = static_cast<int>(halves);
  if (result_.has_value()) {
    // The count of a game already counted is the same count written down
    // again, or a mistake: the board's count (or the first one) stands.
    if (result_->reason() != v1::Result::COUNT || result_->ruling() != 0) {
      return absl::FailedPreconditionError(absl::StrCat("countRecorded: the result is final (",
                                                        result_->sgf(),
                                                        ") and was not decided by a count"));
    }
    const int counted = static_cast<int>(std::lround(result_->black_count() * 2));
    if (counted != black_halves) {
      return absl::FailedPreconditionError(absl::StrCat(
          "countRecorded: blackCount ", Stones(black_halves), " contradicts ",
          board_counted_ ? "the board's own area count " : "the count already recorded, ",
          Stones(counted), board_counted_ ? " (after deadStones)" : ""));
    }
    return absl::OkStatus();  // it agrees: recorded, nothing changes
  }
  SettleTime(true);  // a flag or a forfeit before the count decides first
  if (result_.has_value()) return absl::OkStatus();
  EndByCount(black_halves);
  return absl::OkStatus();
}

}  // namespace arbiter
