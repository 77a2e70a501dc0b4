// The end of the game: resignation, a contest given up on the board
// (12.4(4)), and the count (arts. 9, 11, 24.1; 1988 9, 11): from the board
// after the agreed dead stones (`deadStones`), or the arbiter's own count
// (`countRecorded`), for the many games whose moves nobody records. Either way
// the result is the margin of DOMAIN.md §2 under the game's komi and penalty
// stones, and cites the ruleset's COUNTED sanctioning (9 with 11; after a
// contest given up, 12.4(4)).
#include "adjudicator/engine/game_end.h"

#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/area_count.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/game_result.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/refusal_reason.h"

namespace arbiter {

namespace {

// "184.5", "185": a count in half stones as the arbiter writes it.
std::string Stones(int halves) { return absl::StrCat(halves / 2, halves % 2 ? ".5" : ""); }

}  // namespace

void GameEnd::EndByCount(Adjudicator& a, int black_halves) {
  const int pb = a.discipline_.penalty_stones(v1::BLACK);
  const int pw = a.discipline_.penalty_stones(v1::WHITE);
  const int size = a.board_->size();
  const int margin = MarginQuarters(AreaCount{black_halves, size * size * 2 - black_halves},
                                    size * size, a.komi_quarters_, pb, pw);
  v1::Result result = CountResult(black_halves, margin, pb, pw);
  // 9 with 11; after a contest given up, 12.4(4) with them.
  a.Cite(a.abandoned_by_ != v1::COLOR_UNSPECIFIED ? v1::CONTEST_ABANDONED : v1::COUNTED, &result);
  a.EndGame(std::move(result), a.at_, 0);
}

void GameEnd::Recount(Adjudicator& a, uint32_t ruling) {
  if (!a.rules_.params().warnings_after_the_end_apply() || !a.result_.has_value() ||
      a.result_->reason() != v1::Result::COUNT) {
    return;
  }
  const v1::Result& counted = *a.result_;
  const int pb = a.discipline_.penalty_stones(v1::BLACK);
  const int pw = a.discipline_.penalty_stones(v1::WHITE);
  const int was_black = counted.penalty_stones().black();
  const int was_white = counted.penalty_stones().white();
  if (pb == was_black && pw == was_white) return;
  // The margin as counted (in quarter stones, Black's sign), with each
  // penalty stone's quarter-stones moved (DOMAIN.md §2): nothing on the board
  // changed, so nothing is counted again.
  const int sign = counted.outcome() == v1::Result::BLACK_WINS   ? 1
                   : counted.outcome() == v1::Result::WHITE_WINS ? -1
                                                                 : 0;
  const int margin = sign * static_cast<int>(std::lround(counted.margin_stones() * 4)) -
                     4 * (pb - was_black) + 4 * (pw - was_white);
  v1::Result result =
      CountResult(static_cast<int>(std::lround(counted.black_count() * 2)), margin, pb, pw);
  result.set_clause(counted.clause());
  result.mutable_also_cites()->CopyFrom(counted.also_cites());
  a.EndGame(std::move(result), a.at_, ruling);
}

absl::Status GameEnd::OnDeadStones(Adjudicator& a, const v1::DeadStones& d) {
  const bool abandoned = a.abandoned_by_ != v1::COLOR_UNSPECIFIED;
  if (!a.play_recorded_ && !abandoned) {
    return WithRefusalReason(
        absl::FailedPreconditionError(
            "deadStones: no move of this game is recorded, so there is no board to count; record "
            "the arbiter's count instead (countRecorded {blackCount})"),
        "DEAD_STONES_WITHOUT_MOVES");
  }
  if (!a.PlayEnded()) {
    return WithRefusalReason(
        absl::FailedPreconditionError(
            "deadStones: play has not ended with two passes (or a contest given up, 12.4(4))"),
        "PLAY_NOT_ENDED");
  }
  std::vector<int> dead;
  for (const std::string& p : d.points()) {
    absl::StatusOr<int> v = ParsePointField(p, a.board_->size(), "deadStones.points");
    if (!v.ok()) return v.status();
    if (a.board_->at(*v) == Stone::kEmpty) {
      const std::string point = PointName(*v, a.board_->size());
      return WithRefusalReason(
          absl::InvalidArgumentError(
              absl::StrCat("deadStones: dead stone at ", point, ", but that point is empty")),
          "DEAD_STONE_EMPTY", {{"point", point}});
    }
    dead.push_back(*v);
  }
  // 12.4(4): the contested points (双方可争之点) go to the one who did not
  // give up; otherwise a region touching both colours is shared.
  absl::StatusOr<AreaCount> count =
      CountArea(*a.board_, dead, abandoned ? Opponent(a.abandoned_by_) : v1::COLOR_UNSPECIFIED);
  if (!count.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("deadStones: ", count.status().message()));
  }
  if (a.rules_.params().dead_stones_whole_chains()) {
    if (const std::optional<IncompleteChain> part = FindIncompleteChain(*a.board_, dead)) {
      const std::string named = PointName(part->named, a.board_->size());
      const std::string missing = PointName(part->missing, a.board_->size());
      return WithRefusalReason(
          absl::InvalidArgumentError(absl::StrCat(
              "deadStones.points: ", named, " is named dead but ", missing,
              ", of the same chain, is not: a chain is one whole, dead or alive together (art. 3: "
              "不可分割的整体); name every stone of it or none")),
          "DEAD_CHAIN_INCOMPLETE", {{"point", named}, {"missing", missing}});
    }
  }
  a.board_counted_ = true;
  a.dead_ = std::move(dead);
  EndByCount(a, count->black_halves);
  return absl::OkStatus();
}

absl::Status GameEnd::OnCountRecorded(Adjudicator& a, const v1::CountRecorded& c) {
  const int points = a.board_->size() * a.board_->size();
  const double halves = c.black_count() * 2;
  if (!std::isfinite(halves) || halves != std::round(halves) || halves < 0 || halves > 2 * points) {
    return WithRefusalReason(
        absl::InvalidArgumentError(absl::StrCat("countRecorded.blackCount ", c.black_count(),
                                                " is not a multiple of 1/2 from 0 to ", points,
                                                " (the board's points)")),
        "COUNT_NOT_HALVES",
        {{"count", absl::StrCat(c.black_count())}, {"points", absl::StrCat(points)}});
  }
  const int black_halves = static_cast<int>(halves);
  if (a.result_.has_value()) {
    // The count of a game already counted is the same count written down
    // again, or a mistake: the board's count (or the first one) stands.
    if (a.result_->reason() != v1::Result::COUNT || a.result_->ruling() != 0) {
      return WithRefusalReason(absl::FailedPreconditionError(absl::StrCat(
                                   "countRecorded: the result is final (", a.result_->sgf(),
                                   ") and was not decided by a count")),
                               "COUNT_AFTER_OTHER_RESULT", {{"result", a.result_->sgf()}});
    }
    const int counted = static_cast<int>(std::lround(a.result_->black_count() * 2));
    if (counted != black_halves) {
      return WithRefusalReason(
          absl::FailedPreconditionError(absl::StrCat(
              "countRecorded: blackCount ", Stones(black_halves), " contradicts ",
              a.board_counted_ ? "the board's own area count " : "the count already recorded, ",
              Stones(counted), a.board_counted_ ? " (after deadStones)" : "")),
          "COUNT_CONTRADICTS", {{"count", Stones(black_halves)}, {"counted", Stones(counted)}});
    }
    return absl::OkStatus();  // it agrees: recorded, nothing changes
  }
  a.SettleTime(true);  // a flag or a forfeit before the count decides first
  if (a.result_.has_value()) return absl::OkStatus();
  EndByCount(a, black_halves);
  return absl::OkStatus();
}

absl::Status GameEnd::OnResign(Adjudicator& a, const v1::Resign& r) {
  if (absl::Status s = Adjudicator::CheckColor(r.color(), "resign.color"); !s.ok()) return s;
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  v1::Result result = Loss(r.color(), v1::Result::RESIGNATION);
  a.Cite(v1::RESIGNED, &result);  // 7.2 where the ruleset names it
  a.EndGame(std::move(result), a.at_, 0);
  return absl::OkStatus();
}

absl::Status GameEnd::OnContestAbandoned(Adjudicator& a, const v1::ContestAbandoned& abandoned) {
  const v1::Color c = abandoned.color();
  if (absl::Status s = Adjudicator::CheckColor(c, "contestAbandoned.color"); !s.ok()) return s;
  if (!a.clocks_.Absolute()) {
    return absl::FailedPreconditionError(
        "contestAbandoned: giving up the contest on the board is a rule of absolute time "
        "(a main time with no byo-yomi); here the player passes");
  }
  if (a.rules_.Find(v1::CONTEST_ABANDONED, 1, a.game_.venue()) == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("contestAbandoned: ", a.rules_.id(),
                     " has no clause for giving up the contest on the board"));
  }
  if (c != a.to_move_ || a.PlayEnded() || a.clocks_.adjourned()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "contestAbandoned: only the player to move, in play, can give up the contest (",
        v1::Color_Name(a.to_move_), " to move", a.NotRecordedNote(), ")"));
  }
  a.EnsureStarted();
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  // Giving up the right to move ends play; the timing stops (允许终止计时).
  a.clocks_.Stop(a.at_);
  a.abandoned_by_ = c;
  a.Rule(v1::CONTEST_ABANDONED, c);
  return absl::OkStatus();
}

}  // namespace arbiter
