#include "adjudicator/engine/area_count.h"

#include <array>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/point.h"

namespace arbiter {

absl::StatusOr<AreaCount> CountArea(const Board& board, const std::vector<int>& dead_vertices,
                                    v1::Color contested_to) {
  const int size = board.size();
  const int stride = Stride(size);
  // A plain copy of the points, so that removing the dead never touches the
  // board's chains or its situation history.
  std::array<Stone, kMaxPaddedArea> stones{};
  for (int row = 1; row <= size; ++row) {
    for (int column = 0; column < size; ++column) {
      const int v = VertexAt(column, row, size);
      stones[v] = board.at(v);
    }
  }
  for (const int v : dead_vertices) {
    if (!IsOnBoard(v, size)) {
      return absl::InvalidArgumentError(
          absl::StrCat("dead stone at vertex ", v, " is off the board"));
    }
    if (stones[v] == Stone::kEmpty) {
      return absl::InvalidArgumentError(
          absl::StrCat("dead stone at ", PointName(v, size), ", but that point is empty"));
    }
    stones[v] = Stone::kEmpty;
  }

  AreaCount count;
  std::array<bool, kMaxPaddedArea> visited{};
  std::vector<int> stack;
  for (int row = 1; row <= size; ++row) {
    for (int column = 0; column < size; ++column) {
      const int v = VertexAt(column, row, size);
      if (stones[v] == Stone::kBlack) {
        count.black_halves += 2;
        continue;
      }
      if (stones[v] == Stone::kWhite) {
        count.white_halves += 2;
        continue;
      }
      if (visited[v]) continue;
      // Flood the empty region and note which colours it touches.
      int region = 0;
      bool touches_black = false;
      bool touches_white = false;
      visited[v] = true;
      stack.assign(1, v);
      while (!stack.empty()) {
        const int p = stack.back();
        stack.pop_back();
        ++region;
        for (const int n : {p + 1, p - 1, p + stride, p - stride}) {
          if (!IsOnBoard(n, size)) continue;
          if (stones[n] == Stone::kBlack) {
            touches_black = true;
          } else if (stones[n] == Stone::kWhite) {
            touches_white = true;
          } else if (!visited[n]) {
            visited[n] = true;
            stack.push_back(n);
          }
        }
      }
      if (touches_black && !touches_white) {
        count.black_halves += 2 * region;
      } else if (touches_white && !touches_black) {
        count.white_halves += 2 * region;
      } else if (touches_black && touches_white && contested_to != v1::COLOR_UNSPECIFIED) {
        (contested_to == v1::BLACK ? count.black_halves : count.white_halves) += 2 * region;
      } else {
        count.black_halves += region;
        count.white_halves += region;
      }
    }
  }
  return count;
}

int MarginQuarters(AreaCount count, int points, int komi_quarters, int penalty_stones_black,
                   int penalty_stones_white) {
  // 4 * blackCount = 2 * black_halves; points/2 stones = 2 * points quarters.
  return 2 * count.black_halves - 2 * points - komi_quarters - 4 * penalty_stones_black +
         4 * penalty_stones_white;
}

}  // namespace arbiter
