// Incidents at the board: takebacks, capture errors, displaced stones,
// scattered boards and dropped stones (arts. 17.3, 17.5-17.6, 18.1-18.2).
#include "adjudicator/engine/board_incidents.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/engine/area_count.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/game_result.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/refusal_reason.h"
#include "adjudicator/engine/ruling_text.h"

namespace arbiter {

bool BoardIncidents::CanDisplace(const Adjudicator& a,
                                 const std::vector<std::pair<int, int>>& moves) {
  std::set<int> from_seen;
  std::set<int> to_seen;
  for (const auto& [from, to] : moves) {
    if (a.board_->at(from) == Stone::kEmpty || !from_seen.insert(from).second) return false;
  }
  for (const auto& [from, to] : moves) {
    if (to < 0) continue;
    if (!to_seen.insert(to).second) return false;
    if (a.board_->at(to) != Stone::kEmpty && from_seen.count(to) == 0) return false;
  }
  return true;
}

void BoardIncidents::Displace(Adjudicator& a, const std::vector<std::pair<int, int>>& moves) {
  std::vector<std::pair<int, Stone>> placed;
  for (const auto& [from, to] : moves) placed.emplace_back(to, a.board_->at(from));
  for (const auto& [from, to] : moves) a.board_->Remove(from);
  for (const auto& [to, stone] : placed) {
    if (to < 0) continue;
    const v1::Color c = stone == Stone::kWhite ? v1::WHITE : v1::BLACK;
    a.board_->Place(c, to);
  }
}

absl::Status BoardIncidents::OnStonesDisplaced(Adjudicator& a, const v1::StonesDisplaced& d) {
  const bool by_someone = d.by_color() != v1::COLOR_UNSPECIFIED;
  if (by_someone) {
    if (absl::Status s = Adjudicator::CheckColor(d.by_color(), "stonesDisplaced.byColor"); !s.ok())
      return s;
  }
  if (d.deliberate() && !by_someone) {
    return absl::InvalidArgumentError("stonesDisplaced: deliberate needs byColor");
  }
  if (d.points_size() == 0) return absl::InvalidArgumentError("stonesDisplaced: no points");
  std::vector<std::pair<int, int>> moves;  // from, to (-1: off the board)
  for (const v1::Displacement& p : d.points()) {
    absl::StatusOr<int> from = ParsePointField(p.from(), a.board_->size(), "stonesDisplaced.from");
    if (!from.ok()) return from.status();
    // Without the moves recorded there is no board to check or move them
    // on: 17.5 is ruled on the arbiter's word (agreed stones simply go
    // where the players agree; a dispute is the chief arbiter's).
    if (a.play_recorded_ && a.board_->at(*from) == Stone::kEmpty) {
      return WithRefusalReason(
          absl::InvalidArgumentError(absl::StrCat("stonesDisplaced: no stone at ", p.from())),
          "DISPLACED_NO_STONE", {{"point", p.from()}});
    }
    int to = -1;
    if (!p.to().empty()) {
      absl::StatusOr<int> t = ParsePointField(p.to(), a.board_->size(), "stonesDisplaced.to");
      if (!t.ok()) return t.status();
      to = *t;
    }
    moves.emplace_back(*from, to);
  }
  if (!a.play_recorded_) moves.clear();
  if (!CanDisplace(a, moves)) {
    return WithRefusalReason(
        absl::InvalidArgumentError("stonesDisplaced: the stones cannot all move where stated (a "
                                   "point is occupied or named twice)"),
        "DISPLACED_CANNOT_MOVE");
  }
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  if (d.deliberate()) {
    a.Rule(v1::STONES_DISPLACED_DELIBERATE, d.by_color());
  } else if (d.agreement() == v1::StonesDisplaced::STANDS) {
    Displace(a, moves);  // both players agree the moved stones stay (17.5)
  } else if (d.agreement() != v1::StonesDisplaced::RESTORE) {
    // No agreement: the chief arbiter rules. RESTORE changes nothing: the
    // stones go back where the rules' board already has them.
    const int index = a.Rule(v1::STONES_DISPLACED_DISPUTED, d.by_color());
    if (index >= 0 && a.history_.ruling(index).pending())
      a.history_.last_pending().displaced = std::move(moves);
  }
  return absl::OkStatus();
}

absl::Status BoardIncidents::OnBoardScattered(Adjudicator& a, const v1::BoardScattered& b) {
  const v1::BoardScattered::Cause cause = b.cause();
  if (cause != v1::BoardScattered::EXTERNAL && cause != v1::BoardScattered::PLAYER_ACCIDENT &&
      cause != v1::BoardScattered::PLAYER_DELIBERATE) {
    return absl::InvalidArgumentError(
        "boardScattered.cause must be EXTERNAL, PLAYER_ACCIDENT or PLAYER_DELIBERATE");
  }
  if (cause != v1::BoardScattered::EXTERNAL) {
    if (absl::Status s = Adjudicator::CheckColor(b.by_color(), "boardScattered.byColor"); !s.ok())
      return s;
  }
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  if (cause == v1::BoardScattered::PLAYER_DELIBERATE) {
    a.Rule(v1::BOARD_SCATTERED_DELIBERATE, b.by_color());
  } else if (!b.reconstructed()) {
    // A position put back together goes on; one that cannot be is ruled.
    a.Rule(cause == v1::BoardScattered::EXTERNAL ? v1::BOARD_SCATTERED_DISPUTED
                                                 : v1::BOARD_SCATTERED_BY_PLAYER,
           cause == v1::BoardScattered::EXTERNAL ? v1::COLOR_UNSPECIFIED : b.by_color());
  }
  return absl::OkStatus();
}

absl::Status BoardIncidents::OnStoneDropped(Adjudicator& a, const v1::StoneDropped& d) {
  const v1::Color c = d.color();
  if (absl::Status s = Adjudicator::CheckColor(c, "stoneDropped.color"); !s.ok()) return s;
  absl::StatusOr<int> v = ParsePointField(d.point(), a.board_->size(), "stoneDropped.point");
  if (!v.ok()) return v.status();
  if (absl::Status s = a.RefuseOncePlayEnded("stoneDropped"); !s.ok()) return s;
  if (c != a.to_move_) {
    return WithRefusalReason(
        absl::FailedPreconditionError(absl::StrCat(
            "stoneDropped: only the player to move can drop a stone they were about to play (",
            v1::Color_Name(a.to_move_), " to move", a.NotRecordedNote(), ")")),
        "DROPPED_NOT_TO_MOVE", {{"color", v1::Color_Name(c)}});
  }
  a.SettleTime(true);
  if (a.result_.has_value() || d.consented()) return absl::OkStatus();
  // No consent to pick it up: the chief arbiter decides (17.3). A ruleset
  // without that clause lets it be picked up (1988 17.2: 允许其拣起后任选着点).
  const int index = a.Rule(v1::STONE_DROPPED_DISPUTED, c);
  if (index >= 0 && a.history_.ruling(index).pending()) {
    a.history_.last_pending().dropped_by = c;
    a.history_.last_pending().dropped_at = *v;
  }
  return absl::OkStatus();
}

absl::Status BoardIncidents::OnTakeback(Adjudicator& a, const v1::Takeback& t) {
  const v1::Color c = t.color();
  if (absl::Status s = Adjudicator::CheckColor(t.color(), "takeback.color"); !s.ok()) return s;
  // Without the moves recorded the arbiter's word is the record: 17.3's
  // sanction needs no board (the stone goes back where it was).
  if (a.play_recorded_ && a.last_stone_by_ != c) {
    return WithRefusalReason(
        absl::FailedPreconditionError(
            absl::StrCat("takeback: the last move on the board is not ", v1::Color_Name(c), "'s")),
        "TAKEBACK_NOT_LAST_MOVE", {{"color", v1::Color_Name(c)}});
  }
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  // 17.3: the takeback is void. The stone goes back to where it was first
  // placed, so the rules' board, which never saw it lifted, stays as it is,
  // and the opponent keeps the turn.
  a.Rule(v1::TAKEBACK, c);
  return absl::OkStatus();
}

absl::Status BoardIncidents::OnCaptureError(Adjudicator& a, const v1::CaptureError& e) {
  if (absl::Status s = Adjudicator::CheckColor(e.color(), "captureError.color"); !s.ok()) return s;
  if (e.kind() != v1::CaptureError::REMOVED_LIVE && e.kind() != v1::CaptureError::NOT_REMOVED) {
    return absl::InvalidArgumentError("captureError.kind must be REMOVED_LIVE or NOT_REMOVED");
  }
  // A board fact, checked against the board: the stones named are the
  // opponent's (REMOVED_LIVE: taken while alive; NOT_REMOVED: left on the
  // board once dead), standing there now or at some time before.
  if (e.points().empty()) {
    return absl::InvalidArgumentError("captureError.points: name the stones concerned");
  }
  const v1::Color owner = Opponent(e.color());
  std::set<int> named;
  for (const std::string& p : e.points()) {
    absl::StatusOr<int> v = ParsePointField(p, a.board_->size(), "captureError.points");
    if (!v.ok()) return v.status();
    if (!named.insert(*v).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("captureError.points: ", p, " is named twice"));
    }
    // Without the moves recorded there is no board to check it against:
    // 18.1 and 18.2 sanction the act the arbiter saw, not a position.
    if (a.play_recorded_ && !a.board_->Held(*v, owner)) {
      return WithRefusalReason(
          absl::InvalidArgumentError(absl::StrCat(
              "captureError.points: ", p, " has never held a ", v1::Color_Name(owner),
              " stone, so ", v1::Color_Name(e.color()), " cannot have mistaken a capture there")),
          "CAPTURE_NEVER_HELD", {{"point", p}, {"color", v1::Color_Name(owner)}});
    }
    // 18.2 (未提或漏提对方无气之子) is about stones without liberties: a stone
    // standing with a liberty on the record's board was not left dead.
    const int liberty = a.board_->at(*v) == StoneOf(owner) ? a.board_->Liberty(*v) : -1;
    if (e.kind() == v1::CaptureError::NOT_REMOVED && liberty >= 0) {
      return WithRefusalReason(
          absl::InvalidArgumentError(absl::StrCat(
              "captureError.points: the record shows the ", v1::Color_Name(owner), " stone at ", p,
              " with a liberty at ", PointName(liberty, a.board_->size()),
              ", so it is not a dead stone left on the board (18.2 is about stones without "
              "liberties)")),
          "CAPTURE_HAS_LIBERTY",
          {{"point", p},
           {"color", v1::Color_Name(owner)},
           {"liberty", PointName(liberty, a.board_->size())}});
    }
  }
  a.SettleTime(true);
  if (a.result_.has_value()) return absl::OkStatus();
  // The board here is the rules' board: the wrongly taken stones are still
  // on it and the dead ones already off, so the physical repair
  // (STONE_RESTORED, STONES_REMOVED) changes nothing in it.
  a.Rule(e.kind() == v1::CaptureError::REMOVED_LIVE ? v1::CAPTURE_REMOVED_LIVE
                                                    : v1::CAPTURE_NOT_REMOVED,
         e.color());
  return absl::OkStatus();
}

}  // namespace arbiter
