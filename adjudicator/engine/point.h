// Points of the board and their GTP names (DOMAIN.md §2).
//
// A vertex is an index into a board's padded one-dimensional array: one ring
// of edge sentinels surrounds the playing area, so every on-board vertex has
// four neighbours at +1, -1, +stride and -stride, and no neighbour test needs
// a bounds check. Row 1 is the bottom row, as in GTP.
#ifndef ARBITER_ADJUDICATOR_ENGINE_POINT_H_
#define ARBITER_ADJUDICATOR_ENGINE_POINT_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace arbiter {

// The board sizes the rules allow: 19 (art. 1), with 13 and 9 as extensions.
bool IsSupportedBoardSize(int size);

// Distance between vertically adjacent vertices.
constexpr int Stride(int board_size) { return board_size + 2; }

// Number of cells of the padded array, sentinels included.
constexpr int PaddedArea(int board_size) { return Stride(board_size) * Stride(board_size); }

// The largest padded array of any supported size.
inline constexpr int kMaxPaddedArea = PaddedArea(19);

// `column` 0-based from the left (A); `row` 1-based from the bottom.
constexpr int VertexAt(int column, int row, int board_size) {
  return row * Stride(board_size) + column + 1;
}
constexpr int ColumnOf(int vertex, int board_size) { return vertex % Stride(board_size) - 1; }
constexpr int RowOf(int vertex, int board_size) { return vertex / Stride(board_size); }

// True when `vertex` is a playing point (not a sentinel) of a board of that size.
bool IsOnBoard(int vertex, int board_size);

// "Q16" -> vertex. Letters A-T without I (either case), rows 1..size from the
// bottom. Fails with an error naming the text if it is not a point of the board.
absl::StatusOr<int> ParsePoint(std::string_view gtp, int board_size);

// vertex -> "Q16". The vertex must be on the board.
std::string PointName(int vertex, int board_size);

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_POINT_H_
