#include "adjudicator/engine/game_result.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"

namespace arbiter {

std::optional<v1::Result> ResultOfRuling(const v1::Ruling& ruling, v1::Result::Reason reason) {
  v1::Result result;
  result.set_reason(reason);
  result.set_clause(ruling.clause());
  for (const int s : ruling.sanctions()) {
    switch (static_cast<v1::Sanction>(s)) {
      case v1::LOSS:
        if (ruling.against() == v1::Ruling::BOTH) {
          result.set_outcome(v1::Result::BOTH_LOSE);
        } else {
          result.set_outcome(ruling.against() == v1::Ruling::BLACK ? v1::Result::WHITE_WINS
                                                                   : v1::Result::BLACK_WINS);
        }
        break;
      case v1::BOTH_LOSE:
        result.set_outcome(v1::Result::BOTH_LOSE);
        break;
      case v1::DRAW:
        result.set_outcome(v1::Result::DRAW);
        break;
      case v1::REPLAY:
        result.set_outcome(v1::Result::REPLAY);
        break;
      case v1::NO_RESULT:
        result.set_outcome(v1::Result::NO_RESULT);
        break;
      default:
        continue;
    }
    result.set_sgf(SgfResult(result));
    return result;
  }
  return std::nullopt;
}

v1::Result Loss(v1::Color loser, v1::Result::Reason reason) {
  v1::Result result;
  result.set_outcome(loser == v1::BLACK ? v1::Result::WHITE_WINS : v1::Result::BLACK_WINS);
  result.set_reason(reason);
  result.set_sgf(SgfResult(result));
  return result;
}

v1::Result CountResult(int black_halves, int margin_quarters, int penalty_black,
                       int penalty_white) {
  v1::Result result;
  result.set_reason(v1::Result::COUNT);
  result.set_outcome(margin_quarters > 0   ? v1::Result::BLACK_WINS
                     : margin_quarters < 0 ? v1::Result::WHITE_WINS
                                           : v1::Result::DRAW);
  result.set_black_count(black_halves / 2.0);
  result.set_margin_stones(std::abs(margin_quarters) / 4.0);
  result.mutable_penalty_stones()->set_black(penalty_black);
  result.mutable_penalty_stones()->set_white(penalty_white);
  result.set_sgf(SgfResult(result));
  return result;
}

std::string SgfResult(const v1::Result& result) {
  std::string winner;
  switch (result.outcome()) {
    case v1::Result::BLACK_WINS:
      winner = "B+";
      break;
    case v1::Result::WHITE_WINS:
      winner = "W+";
      break;
    case v1::Result::DRAW:
      return "0";
    default:  // both lose, no result, replay: SGF has no winner to name
      return "Void";
  }
  switch (result.reason()) {
    case v1::Result::RESIGNATION:
      return winner + "R";
    case v1::Result::TIME:
      return winner + "T";
    case v1::Result::COUNT: {
      // Points are twice stones (DOMAIN.md §5): a margin of q quarter stones
      // is q/2 points, printed without a trailing ".0".
      const int half_points = static_cast<int>(result.margin_stones() * 4 + 0.5);
      return absl::StrCat(winner, half_points / 2, half_points % 2 ? ".5" : "");
    }
    default:  // lateness, warnings, discipline, violation, the arbiter
      return winner + "F";
  }
}

}  // namespace arbiter
