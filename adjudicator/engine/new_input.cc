#include "adjudicator/engine/new_input.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "adjudicator/engine/board.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/proto_time.h"
#include "adjudicator/engine/refusal_reason.h"

namespace arbiter {

absl::Status CheckNewGame(const v1::GameCreated& game) {
  const v1::TimeControl& tc = game.time_control();
  if (tc.has_byo_yomi() && tc.has_moves_in_time()) {
    return absl::InvalidArgumentError(
        "timeControl: byoYomi (12.3) and movesInTime (12.5) are two time systems; give one");
  }
  if (tc.has_byo_yomi() && (tc.byo_yomi().periods() <= 0 ||
                            FromProto(tc.byo_yomi().period_time()) <= absl::ZeroDuration())) {
    return absl::InvalidArgumentError(
        "timeControl.byoYomi needs periods of at least 1 and a periodTime above 0s (12.3); "
        "a game without byo-yomi leaves byoYomi out");
  }
  if (tc.has_moves_in_time() && (tc.moves_in_time().moves() <= 0 ||
                                 FromProto(tc.moves_in_time().period()) <= absl::ZeroDuration())) {
    return absl::InvalidArgumentError(
        "timeControl.movesInTime needs moves of at least 1 and a period above 0s (12.5); "
        "a game without it leaves movesInTime out");
  }
  return CheckSetupLiberties(game);
}

absl::Status CheckSetupLiberties(const v1::GameCreated& game) {
  const int size = game.board_size() == 0 ? 19 : game.board_size();
  if (!IsSupportedBoardSize(size)) return absl::OkStatus();  // the fold refuses it, saying so
  Board board(size);
  std::vector<std::pair<v1::Color, int>> placed;
  for (const v1::Color c : {v1::BLACK, v1::WHITE}) {
    for (const std::string& p : c == v1::BLACK ? game.setup().black() : game.setup().white()) {
      absl::StatusOr<int> v = ParsePointField(p, size, "setup");
      if (!v.ok() || board.at(*v) != Stone::kEmpty) return absl::OkStatus();  // the fold's
      board.Place(c, *v);
      placed.emplace_back(c, *v);
    }
  }
  for (const auto& [c, v] : placed) {
    if (board.Liberty(v) >= 0) continue;
    const absl::string_view colour = c == v1::BLACK ? "black" : "white";
    return absl::InvalidArgumentError(absl::StrCat(
        "setup.", colour, ": the ", colour, " stone at ", PointName(v, size),
        " and the stones joined to it have no liberty, a position no play reaches (art. 4: "
        "stones without liberties are taken off); set up the position as it stands on the "
        "board"));
  }
  return absl::OkStatus();
}

namespace {

absl::string_view ColourName(Stone s) { return s == Stone::kWhite ? "white" : "black"; }

}  // namespace

// A friend of the Adjudicator: reads the fold, never changes it.
class NewInput {
 public:
  static absl::Status CheckArrival(const Adjudicator& a, const v1::PlayerArrived& p) {
    if (p.color() != v1::BLACK && p.color() != v1::WHITE) return absl::OkStatus();  // the fold's
    if (a.lateness_.Awaited(p.color())) return absl::OkStatus();
    // Before the start an arrival is attendance (the floor's phones report
    // players as they sit down); lateness is ruled from the start.
    if (!a.started_) return absl::OkStatus();
    const absl::string_view who = p.color() == v1::BLACK ? "Black" : "White";
    return WithRefusalReason(
        absl::InvalidArgumentError(absl::StrCat(
            "playerArrived: nobody awaits ", who, ": ", who,
            " was not listed absent when the clocks started (gameStarted.absent), or has arrived "
            "or played since, and has not been away since a resumption; a player who is not late "
            "needs no playerArrived (is it the other colour?)")),
        "ARRIVAL_NOT_AWAITED", {{"color", v1::Color_Name(p.color())}});
  }

  static bool DecidesDisplacedStones(const Adjudicator& a, const v1::ArbiterDecision& d) {
    const RulingHistory::Pending* pending = a.history_.FindPending(d.ruling());
    return pending != nullptr && !pending->displaced.empty();
  }

  // `event` moves stones outside play (a displacement standing): refused
  // when the board it leaves holds a chain without a liberty that the board
  // before it did not.
  static absl::Status CheckBoardCorrection(const Adjudicator& a, const v1::Event& event,
                                           absl::string_view reason, absl::string_view what,
                                           absl::string_view instead) {
    if (!a.board_.has_value()) return absl::OkStatus();  // the fold refuses it: not created
    Adjudicator probe = a;
    if (!probe.Apply(event).ok()) return absl::OkStatus();  // the fold refuses it, saying why
    const Board& before = *a.board_;
    const Board& after = *probe.board_;
    const int size = after.size();
    for (int row = 0; row < size; ++row) {
      for (int column = 0; column < size; ++column) {
        const int v = VertexAt(column, row, size);
        if (after.at(v) == Stone::kEmpty || after.Liberty(v) >= 0) continue;
        if (before.at(v) == after.at(v) && before.Liberty(v) < 0) continue;  // so before it
        return WithRefusalReason(
            absl::InvalidArgumentError(absl::StrCat(
                what, " leaves the ", ColourName(after.at(v)), " stone at ", PointName(v, size),
                " and the stones joined to it without a liberty, a position no play reaches (art. "
                "4: stones without liberties are taken off); ",
                instead)),
            reason,
            {{"color", after.at(v) == Stone::kWhite ? "WHITE" : "BLACK"},
             {"point", PointName(v, size)}});
      }
    }
    return absl::OkStatus();
  }
};

absl::Status CheckNewEvent(const Adjudicator& game, const v1::Event& event) {
  switch (event.kind_case()) {
    case v1::Event::kPlayerArrived:
      return NewInput::CheckArrival(game, event.player_arrived());
    case v1::Event::kStonesDisplaced:
      if (event.stones_displaced().agreement() != v1::StonesDisplaced::STANDS ||
          event.stones_displaced().deliberate()) {
        return absl::OkStatus();  // nothing moves on the board
      }
      return NewInput::CheckBoardCorrection(
          game, event, "DISPLACED_WITHOUT_LIBERTY",
          "stonesDisplaced: the moved stones standing where they are",
          "put them back (agreement RESTORE)");
    case v1::Event::kArbiterDecision:
      // Only a decision on disputed displaced stones moves any: every other
      // is taken without the probe, whose copy of the fold grows with the game.
      if (!NewInput::DecidesDisplacedStones(game, event.arbiter_decision())) {
        return absl::OkStatus();
      }
      return NewInput::CheckBoardCorrection(game, event, "DECISION_LEAVES_NO_LIBERTY",
                                            "arbiterDecision: letting the displaced stones stand",
                                            "decide that they are put back (17.5)");
    default:
      return absl::OkStatus();
  }
}

}  // namespace arbiter
