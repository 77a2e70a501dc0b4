// Every shared SGF game replays with no illegal move, and the final stones and
// prisoners agree with the naive board of naive_board.h.
#include <filesystem>
#include <string>
#include <vector>

#include "adjudicator/engine/board.h"
#include "adjudicator/engine/point.h"
#include "adjudicator/engine/sgf.h"
#include "gtest/gtest.h"
#include "tests/board/naive_board.h"
#include "tests/support/files.h"
#include "tests/support/paths.h"

namespace arbiter {
namespace {

using testing::FilesIn;
using testing::ReadFile;
using testing::TestDataPath;

TEST(ReplayTest, EverySharedGameIsLegalAndMatchesTheNaiveBoard) {
  const std::vector<std::filesystem::path> files = FilesIn(TestDataPath("sgf"), ".sgf");
  ASSERT_EQ(files.size(), 30u);
  for (const std::filesystem::path& file : files) {
    SCOPED_TRACE(file.filename().string());
    const absl::StatusOr<SgfGame> game = ParseSgf(ReadFile(file.string()));
    ASSERT_TRUE(game.ok()) << game.status();
    const int size = game->board_size;
    Board board(size);
    testing::NaiveBoard naive(size);
    for (const int v : game->setup_black) {
      board.Place(v1::BLACK, v);
      naive.Place(ColumnOf(v, size), size - RowOf(v, size), 'X');
    }
    for (const int v : game->setup_white) {
      board.Place(v1::WHITE, v);
      naive.Place(ColumnOf(v, size), size - RowOf(v, size), 'O');
    }
    int moves = 0;
    for (const SgfMove& move : game->moves) {
      const char stone = move.color == v1::BLACK ? 'X' : 'O';
      if (!move.vertex.has_value()) {
        board.Pass(move.color);
        naive.Pass(stone);
        continue;
      }
      const int v = *move.vertex;
      ASSERT_EQ(board.Check(move.color, v), Legality::kLegal)
          << PointName(v, size) << " at " << PositionText(move.position);
      ASSERT_EQ(naive.Play(ColumnOf(v, size), size - RowOf(v, size), stone),
                testing::NaiveBoard::Outcome::kPlayed)
          << PointName(v, size) << " at " << PositionText(move.position);
      board.Play(move.color, v);
      ++moves;
    }
    EXPECT_GT(moves, 50);
    EXPECT_EQ(board.Rows(), naive.grid());
    EXPECT_EQ(board.captures(v1::BLACK), naive.black_captures());
    EXPECT_EQ(board.captures(v1::WHITE), naive.white_captures());
  }
}

}  // namespace
}  // namespace arbiter
