// The result of a game (DOMAIN.md §5) and its SGF RE value.
#ifndef ARBITER_ADJUDICATOR_ENGINE_GAME_RESULT_H_
#define ARBITER_ADJUDICATOR_ENGINE_GAME_RESULT_H_

#include <optional>
#include <string>

#include "arbiter/v1/rulings.pb.h"

namespace arbiter {

// The result a ruling's game-ending sanction imposes (LOSS against one side
// or both, BOTH_LOSE, DRAW, REPLAY, NO_RESULT), or nullopt if it imposes none.
std::optional<v1::Result> ResultOfRuling(const v1::Ruling& ruling, v1::Result::Reason reason);

// The result of `loser` losing for `reason` ("W+R", "B+T", ...).
v1::Result Loss(v1::Color loser, v1::Result::Reason reason);

// The result of a count: `margin_quarters` positive for Black.
v1::Result CountResult(int black_halves, int margin_quarters, int penalty_black, int penalty_white);

// The SGF RE value: "B+R", "W+T", "B+F", "B+1.5" (points = 2 × stones), "0",
// "Void".
std::string SgfResult(const v1::Result& result);

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_GAME_RESULT_H_
