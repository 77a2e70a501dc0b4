#include "adjudicator/engine/new_game.h"

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
  return absl::OkStatus();
}

}  // namespace arbiter
