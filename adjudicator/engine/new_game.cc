#include "adjudicator/engine/new_game.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/board.h"
#include "adjudicator/engine/event_checks.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/proto_time.h"

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

}  // namespace arbiter
