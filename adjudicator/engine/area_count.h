// Area counting (arts. 9, 11 and 24.1 of the 2002 rules).
//
// After the agreed dead stones are removed, a colour's count is its stones on
// the board plus the empty points whose region touches only that colour; a
// region touching both colours (dame, seki eyes shared by both) is split half
// and half. Counts are kept in half points so no fraction is ever rounded.
#ifndef ARBITER_ADJUDICATOR_ENGINE_AREA_COUNT_H_
#define ARBITER_ADJUDICATOR_ENGINE_AREA_COUNT_H_

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "adjudicator/engine/board.h"

namespace arbiter {

struct AreaCount {
  int black_halves = 0;
  int white_halves = 0;
};

// Counts `board` with the stones at `dead_vertices` removed first. An empty
// region touching no stone at all (an empty board) is split half and half.
// When `contested_to` is a colour, a region touching both colours goes
// wholly to it instead of being split (2002 12.4(4): 双方可争之点全部归属于
// 对方). Fails if a dead vertex is off the board or empty.
absl::StatusOr<AreaCount> CountArea(const Board& board, const std::vector<int>& dead_vertices,
                                    v1::Color contested_to = v1::COLOR_UNSPECIFIED);

// A stone `dead_vertices` names whose chain has a stone it does not name
// (art. 3: 相互连接成一个不可分割的整体: a chain is dead or alive as a whole),
// and that stone; nullopt when every chain named is named whole. Points off
// the board or empty are CountArea's to refuse.
struct IncompleteChain {
  int named;
  int missing;
};
std::optional<IncompleteChain> FindIncompleteChain(const Board& board,
                                                   const std::vector<int>& dead_vertices);

// The margin in quarter stones, positive for Black (DOMAIN.md §2):
//   blackCount - points/2 - komi - penaltyStones(Black) + penaltyStones(White)
// with `points` the board's points (361 on 19x19), komi in quarter stones
// (15 for the 3 3/4 of 2002 art. 11) and each penalty stone (art. 24.1)
// moving the margin one stone against the warned side. Art. 11: a count of
// 185 gives +3 (Black by 3/4), 184 gives -1 (White by 1/4), 184.5 gives +1.
int MarginQuarters(AreaCount count, int points, int komi_quarters, int penalty_stones_black,
                   int penalty_stones_white);

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_AREA_COUNT_H_
