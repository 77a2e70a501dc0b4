#include "adjudicator/engine/area_count.h"

#include <array>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "adjudicator/engine/point.h"

namespace arbiter {

namespace {

using Points = std::array<Stone, kMaxPaddedArea>;

// The board's points with the agreed dead stones taken off (art. 9: dead
// stones are removed before counting). A plain copy, so that removing the
// dead never touches the board's chains or its situation history.
absl::Status PointsWithoutTheDead(const Board& board, const std::vector<int>& dead_vertices,
                                  Points& stones) {
  const int size = board.size();
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
  return absl::OkStatus();
}

// One empty region: its points and the colours bordering it, which decide
// whose area it is (art. 9).
struct EmptyRegion {
  int points = 0;
  bool touches_black = false;
  bool touches_white = false;
};

// Floods the empty region holding `v`, marking it visited. `stack` is the
// caller's, reused from region to region so a count allocates it once.
EmptyRegion FloodRegion(const Points& stones, int v, int size,
                        std::array<bool, kMaxPaddedArea>& visited, std::vector<int>& stack) {
  const int stride = Stride(size);
  EmptyRegion region;
  visited[v] = true;
  stack.assign(1, v);
  while (!stack.empty()) {
    const int p = stack.back();
    stack.pop_back();
    ++region.points;
    for (const int n : {p + 1, p - 1, p + stride, p - stride}) {
      if (!IsOnBoard(n, size)) continue;
      if (stones[n] == Stone::kBlack) {
        region.touches_black = true;
      } else if (stones[n] == Stone::kWhite) {
        region.touches_white = true;
      } else if (!visited[n]) {
        visited[n] = true;
        stack.push_back(n);
      }
    }
  }
  return region;
}

// Credits a region to the colour that alone borders it; a region bordered by
// both (or by neither) is split half and half, unless 12.4(4) gives the
// contested points wholly to `contested_to`.
void AwardRegion(const EmptyRegion& region, v1::Color contested_to, AreaCount& count) {
  if (region.touches_black && !region.touches_white) {
    count.black_halves += 2 * region.points;
  } else if (region.touches_white && !region.touches_black) {
    count.white_halves += 2 * region.points;
  } else if (region.touches_black && region.touches_white &&
             contested_to != v1::COLOR_UNSPECIFIED) {
    (contested_to == v1::BLACK ? count.black_halves : count.white_halves) += 2 * region.points;
  } else {
    count.black_halves += region.points;
    count.white_halves += region.points;
  }
}

}  // namespace

absl::StatusOr<AreaCount> CountArea(const Board& board, const std::vector<int>& dead_vertices,
                                    v1::Color contested_to) {
  const int size = board.size();
  Points stones{};
  if (absl::Status removed = PointsWithoutTheDead(board, dead_vertices, stones); !removed.ok()) {
    return removed;
  }
  AreaCount count;
  std::array<bool, kMaxPaddedArea> visited{};
  std::vector<int> stack;
  for (int row = 1; row <= size; ++row) {
    for (int column = 0; column < size; ++column) {
      const int v = VertexAt(column, row, size);
      if (stones[v] == Stone::kBlack) {
        count.black_halves += 2;
      } else if (stones[v] == Stone::kWhite) {
        count.white_halves += 2;
      } else if (!visited[v]) {
        AwardRegion(FloodRegion(stones, v, size, visited, stack), contested_to, count);
      }
    }
  }
  return count;
}

std::optional<IncompleteChain> FindIncompleteChain(const Board& board,
                                                   const std::vector<int>& dead_vertices) {
  const int size = board.size();
  const int stride = Stride(size);
  std::array<bool, kMaxPaddedArea> dead{};
  for (const int v : dead_vertices) {
    if (IsOnBoard(v, size)) dead[v] = true;
  }
  std::array<bool, kMaxPaddedArea> visited{};
  std::vector<int> stack;
  for (const int v : dead_vertices) {
    if (!IsOnBoard(v, size) || board.at(v) == Stone::kEmpty || visited[v]) continue;
    const Stone colour = board.at(v);
    visited[v] = true;
    stack.assign(1, v);
    while (!stack.empty()) {
      const int p = stack.back();
      stack.pop_back();
      if (!dead[p]) return IncompleteChain{v, p};
      for (const int n : {p + 1, p - 1, p + stride, p - stride}) {
        if (IsOnBoard(n, size) && !visited[n] && board.at(n) == colour) {
          visited[n] = true;
          stack.push_back(n);
        }
      }
    }
  }
  return std::nullopt;
}

int MarginQuarters(AreaCount count, int points, int komi_quarters, int penalty_stones_black,
                   int penalty_stones_white) {
  // 4 * blackCount = 2 * black_halves; points/2 stones = 2 * points quarters.
  return 2 * count.black_halves - 2 * points - komi_quarters - 4 * penalty_stones_black +
         4 * penalty_stones_white;
}

}  // namespace arbiter
