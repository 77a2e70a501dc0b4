#include "adjudicator/engine/area_count.h"

#include <vector>

#include "adjudicator/engine/point.h"
#include "gtest/gtest.h"

namespace arbiter {
namespace {

using v1::BLACK;
using v1::WHITE;

// A 19x19 board filled row by row from A1: `black` black stones, `gap` empty
// points (which touch both colours), then `white` white stones.
Board Filled(int black, int gap, int white) {
  Board board(19);
  int placed = 0;
  for (int row = 1; row <= 19; ++row) {
    for (int column = 0; column < 19; ++column, ++placed) {
      const int v = VertexAt(column, row, 19);
      if (placed < black) {
        board.Place(BLACK, v);
      } else if (placed >= black + gap && placed < black + gap + white) {
        board.Place(WHITE, v);
      }
    }
  }
  return board;
}

constexpr int kKomiQuarters2002 = 15;  // 3 3/4 stones, art. 11

// Art. 11's three worked examples.
TEST(AreaCountTest, Article11Black185WinsByThreeQuarters) {
  const absl::StatusOr<AreaCount> count = CountArea(Filled(185, 0, 176), {});
  ASSERT_TRUE(count.ok()) << count.status();
  EXPECT_EQ(count->black_halves, 370);
  EXPECT_EQ(count->white_halves, 352);
  EXPECT_EQ(MarginQuarters(*count, 361, kKomiQuarters2002, 0, 0), 3);
}

TEST(AreaCountTest, Article11Black184LosesByAQuarter) {
  const absl::StatusOr<AreaCount> count = CountArea(Filled(184, 0, 177), {});
  ASSERT_TRUE(count.ok()) << count.status();
  EXPECT_EQ(count->black_halves, 368);
  EXPECT_EQ(MarginQuarters(*count, 361, kKomiQuarters2002, 0, 0), -1);
}

TEST(AreaCountTest, Article11Black184AndAHalfWinsByAQuarter) {
  // One dame point between the colours is split half and half.
  const absl::StatusOr<AreaCount> count = CountArea(Filled(184, 1, 176), {});
  ASSERT_TRUE(count.ok()) << count.status();
  EXPECT_EQ(count->black_halves, 369);
  EXPECT_EQ(count->white_halves, 353);
  EXPECT_EQ(MarginQuarters(*count, 361, kKomiQuarters2002, 0, 0), 1);
}

TEST(AreaCountTest, PenaltyStonesMoveTheMarginAgainstTheWarnedSide) {
  const AreaCount count = {370, 352};
  EXPECT_EQ(MarginQuarters(count, 361, kKomiQuarters2002, 1, 0), 3 - 4);
  EXPECT_EQ(MarginQuarters(count, 361, kKomiQuarters2002, 0, 2), 3 + 8);
  // 1988: komi 2 3/4.
  EXPECT_EQ(MarginQuarters(count, 361, 11, 0, 0), 7);
}

// 9x9: Black wall on column E, White wall on column F; a dead white stone in
// Black's area and a dead black stone in White's.
TEST(AreaCountTest, TerritoryWithDeadStones) {
  Board board(9);
  for (int row = 1; row <= 9; ++row) {
    board.Place(BLACK, VertexAt(4, row, 9));
    board.Place(WHITE, VertexAt(5, row, 9));
  }
  board.Place(WHITE, *ParsePoint("B2", 9));
  board.Place(BLACK, *ParsePoint("H8", 9));
  const absl::StatusOr<AreaCount> count =
      CountArea(board, {*ParsePoint("B2", 9), *ParsePoint("H8", 9)});
  ASSERT_TRUE(count.ok()) << count.status();
  EXPECT_EQ(count->black_halves, 2 * (9 + 36));
  EXPECT_EQ(count->white_halves, 2 * (9 + 27));
  // The board itself is untouched.
  EXPECT_EQ(board.at(*ParsePoint("B2", 9)), Stone::kWhite);

  // Without agreeing they are dead, both regions touch both colours.
  const absl::StatusOr<AreaCount> alive = CountArea(board, {});
  ASSERT_TRUE(alive.ok());
  EXPECT_EQ(alive->black_halves, 2 * 10 + 35 + 26);
  EXPECT_EQ(alive->white_halves, 2 * 10 + 35 + 26);
}

TEST(AreaCountTest, DameBetweenWallsIsSplit) {
  Board board(9);
  for (int row = 1; row <= 9; ++row) {
    board.Place(BLACK, VertexAt(3, row, 9));
    board.Place(WHITE, VertexAt(5, row, 9));
  }
  const absl::StatusOr<AreaCount> count = CountArea(board, {});
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count->black_halves, 2 * 36 + 9);
  EXPECT_EQ(count->white_halves, 2 * 36 + 9);
  EXPECT_EQ(count->black_halves + count->white_halves, 2 * 81);
}

TEST(AreaCountTest, EmptyBoardIsSplit) {
  const absl::StatusOr<AreaCount> count = CountArea(Board(13), {});
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count->black_halves, 169);
  EXPECT_EQ(count->white_halves, 169);
}

TEST(AreaCountTest, DeadStoneOnAnEmptyPointIsAnError) {
  Board board(19);
  board.Place(BLACK, *ParsePoint("D4", 19));
  const absl::StatusOr<AreaCount> count = CountArea(board, {*ParsePoint("Q16", 19)});
  ASSERT_FALSE(count.ok());
  EXPECT_NE(count.status().message().find("Q16"), std::string::npos) << count.status();
  EXPECT_FALSE(CountArea(board, {0}).ok());
}

}  // namespace
}  // namespace arbiter
