#include "adjudicator/engine/board.h"

#include <random>
#include <string>
#include <vector>

#include "adjudicator/engine/point.h"
#include "gtest/gtest.h"
#include "tests/board/naive_board.h"

namespace arbiter {
namespace {

using v1::BLACK;
using v1::WHITE;

int P(const char* name, int size = 19) {
  absl::StatusOr<int> v = ParsePoint(name, size);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : 0;
}

// Plays alternating moves from Black, each of which must be legal.
void PlayLegal(Board& board, const std::vector<const char*>& moves) {
  v1::Color color = BLACK;
  for (const char* move : moves) {
    ASSERT_EQ(board.Check(color, P(move, board.size())), Legality::kLegal) << move;
    board.Play(color, P(move, board.size()));
    color = Opponent(color);
  }
}

TEST(BoardTest, CapturesASurroundedStone) {
  Board board(19);
  PlayLegal(board, {"D5", "D4", "C4", "Q16", "E4"});
  board.Pass(WHITE);
  ASSERT_EQ(board.Check(BLACK, P("D3")), Legality::kLegal);
  EXPECT_EQ(board.Play(BLACK, P("D3")), 1);
  EXPECT_EQ(board.at(P("D4")), Stone::kEmpty);
  EXPECT_EQ(board.captures(BLACK), 1);
  EXPECT_EQ(board.captures(WHITE), 0);
}

// Art. 4.2: the played stone has no liberty, but neither has the opponent's
// stone next to it; the opponent's stone is taken and the move stands.
TEST(BoardTest, BothWithoutLibertiesTheOpponentIsTaken) {
  Board board(19);
  PlayLegal(board, {"D5", "E5", "C4", "F4", "D3", "E3", "Q16", "D4"});
  ASSERT_EQ(board.Check(BLACK, P("E4")), Legality::kLegal);
  EXPECT_EQ(board.Play(BLACK, P("E4")), 1);
  EXPECT_EQ(board.at(P("E4")), Stone::kBlack);
  EXPECT_EQ(board.at(P("D4")), Stone::kEmpty);
  // Immediately taking back is the single-ko recapture of art. 20.1.
  EXPECT_EQ(board.Check(WHITE, P("D4")), Legality::kKoRecapture);
  // After a move elsewhere on each side the ko may be taken again.
  board.Play(WHITE, P("R3"));
  board.Play(BLACK, P("C16"));
  EXPECT_EQ(board.Check(WHITE, P("D4")), Legality::kLegal);
  EXPECT_EQ(board.Play(WHITE, P("D4")), 1);
  EXPECT_EQ(board.Check(BLACK, P("E4")), Legality::kKoRecapture);
}

TEST(BoardTest, SuicideIsRefusedAndCheckChangesNothing) {
  Board board(19);
  PlayLegal(board, {"A2", "Q16", "B1"});
  const uint64_t hash = board.hash();
  EXPECT_EQ(board.Check(WHITE, P("A1")), Legality::kSuicide);
  EXPECT_EQ(board.hash(), hash);
  EXPECT_EQ(board.at(P("A1")), Stone::kEmpty);
}

TEST(BoardTest, SuicideOfSeveralStones) {
  // White A2 has its last liberty at A1; Black B1 has C1 and B2 free.
  Board board(19);
  PlayLegal(board, {"A3", "A2", "B2", "Q16", "B1"});
  EXPECT_EQ(board.Check(WHITE, P("A1")), Legality::kSuicide);
  // For Black the same point takes A2 (and is no suicide).
  board.Pass(WHITE);
  ASSERT_EQ(board.Check(BLACK, P("A1")), Legality::kLegal);
  EXPECT_EQ(board.Play(BLACK, P("A1")), 1);
}

TEST(BoardTest, FillingALibertyIsNoSuicideWhileTheChainKeepsAnother) {
  Board board(9);
  PlayLegal(board, {"A2", "B2", "E5", "B1", "E6"});
  // White A1 has no empty neighbour and takes nothing (A2 keeps A3), but it
  // joins B1, which keeps C1.
  ASSERT_EQ(board.Check(WHITE, P("A1", 9)), Legality::kLegal);
  EXPECT_EQ(board.Play(WHITE, P("A1", 9)), 0);
}

TEST(BoardTest, OneMoveTakesTwoChainsAndMergesThree) {
  Board board(9);
  // White stones at A2 and B1 each have one liberty, A1... built by hand.
  board.Place(WHITE, P("B2", 9));
  board.Place(WHITE, P("D2", 9));
  board.Place(BLACK, P("B3", 9));
  board.Place(BLACK, P("A2", 9));
  board.Place(BLACK, P("B1", 9));
  board.Place(BLACK, P("D3", 9));
  board.Place(BLACK, P("E2", 9));
  board.Place(BLACK, P("D1", 9));
  board.Place(BLACK, P("C3", 9));
  board.Place(BLACK, P("C1", 9));
  // C2 touches both white stones; each has C2 as its last liberty.
  ASSERT_EQ(board.Check(BLACK, P("C2", 9)), Legality::kLegal);
  EXPECT_EQ(board.Play(BLACK, P("C2", 9)), 2);
  EXPECT_EQ(board.at(P("B2", 9)), Stone::kEmpty);
  EXPECT_EQ(board.at(P("D2", 9)), Stone::kEmpty);
  // The merged black chain now owns B2 and D2 as liberties, so White cannot
  // play either as a capture.
  EXPECT_EQ(board.Check(WHITE, P("B2", 9)), Legality::kSuicide);
}

// Three kos; each player captures in a different one, and after six moves
// the whole board and the side to move return: a repetition that is not an
// immediate recapture (art. 6; the triple ko of art. 20.3).
TEST(BoardTest, TripleKoCycleIsARepetitionNotAKoRecapture) {
  Board board(19);
  struct Ko {
    int a, b;  // White captures at a, Black captures at b
  };
  std::vector<Ko> kos;
  for (const int x : {1, 8, 14}) {
    const int y = 3;
    board.Place(BLACK, VertexAt(x, y, 19));
    board.Place(BLACK, VertexAt(x + 1, y + 1, 19));
    board.Place(BLACK, VertexAt(x + 1, y - 1, 19));
    board.Place(WHITE, VertexAt(x + 3, y, 19));
    board.Place(WHITE, VertexAt(x + 2, y + 1, 19));
    board.Place(WHITE, VertexAt(x + 2, y - 1, 19));
    kos.push_back({VertexAt(x + 1, y, 19), VertexAt(x + 2, y, 19)});
  }
  // White holds the first and third ko, Black the second.
  board.Place(WHITE, kos[0].a);
  board.Place(BLACK, kos[1].b);
  board.Place(WHITE, kos[2].a);
  board.RecordSituation(BLACK);

  ASSERT_EQ(board.Check(BLACK, kos[0].b), Legality::kLegal);
  EXPECT_EQ(board.Play(BLACK, kos[0].b), 1);
  EXPECT_EQ(board.Check(WHITE, kos[0].a), Legality::kKoRecapture);
  ASSERT_EQ(board.Check(WHITE, kos[1].a), Legality::kLegal);
  EXPECT_EQ(board.Play(WHITE, kos[1].a), 1);
  ASSERT_EQ(board.Check(BLACK, kos[2].b), Legality::kLegal);
  EXPECT_EQ(board.Play(BLACK, kos[2].b), 1);
  ASSERT_EQ(board.Check(WHITE, kos[0].a), Legality::kLegal);
  EXPECT_EQ(board.Play(WHITE, kos[0].a), 1);
  ASSERT_EQ(board.Check(BLACK, kos[1].b), Legality::kLegal);
  EXPECT_EQ(board.Play(BLACK, kos[1].b), 1);
  EXPECT_EQ(board.Check(WHITE, kos[2].a), Legality::kRepetition);
}

// After both pass, retaking the ko recreates an earlier situation; it is no
// longer an immediate recapture, but art. 6 still forbids it.
TEST(BoardTest, KoRetakeAfterPassesIsARepetition) {
  Board board(19);
  PlayLegal(board, {"D5", "E5", "C4", "F4", "D3", "E3", "Q16", "D4", "E4"});
  board.Pass(WHITE);
  board.Pass(BLACK);
  EXPECT_EQ(board.Check(WHITE, P("D4")), Legality::kRepetition);
}

TEST(BoardTest, SituationIncludesTheSideToMove) {
  Board board(9);
  PlayLegal(board, {"E5"});
  EXPECT_NE(board.SituationHash(BLACK), board.SituationHash(WHITE));
  EXPECT_EQ(board.SituationHash(BLACK), board.hash());
}

TEST(BoardTest, HashAgreesWithABoardBuiltByPlacing) {
  Board played(19);
  PlayLegal(played, {"D5", "E5", "C4", "F4", "D3", "E3", "Q16", "D4", "E4", "R3", "R4", "S4"});
  Board placed(19);
  for (int row = 1; row <= 19; ++row) {
    for (int column = 0; column < 19; ++column) {
      const int v = VertexAt(column, row, 19);
      if (played.at(v) != Stone::kEmpty)
        placed.Place(played.at(v) == Stone::kBlack ? BLACK : WHITE, v);
    }
  }
  EXPECT_EQ(placed.hash(), played.hash());
  EXPECT_EQ(placed.Rows(), played.Rows());
  const uint64_t before = placed.hash();
  placed.Place(WHITE, P("K10"));
  EXPECT_NE(placed.hash(), before);
  placed.Remove(P("K10"));
  EXPECT_EQ(placed.hash(), before);
  // Replacing a stone by the other colour changes the hash both ways.
  placed.Place(WHITE, P("Q16"));
  EXPECT_NE(placed.hash(), before);
  placed.Place(BLACK, P("Q16"));
  EXPECT_EQ(placed.hash(), before);
}

TEST(BoardTest, RemoveSplitsAChainAndLibertiesFollow) {
  Board board(9);
  for (const char* p : {"A1", "B1", "C1"}) board.Place(BLACK, P(p, 9));
  for (const char* p : {"A2", "B2", "C2"}) board.Place(WHITE, P(p, 9));
  board.Remove(P("B1", 9));
  // A1 alone now has only B1; C1 has B1 and D1.
  ASSERT_EQ(board.Check(WHITE, P("B1", 9)), Legality::kLegal);
  EXPECT_EQ(board.Play(WHITE, P("B1", 9)), 1);
  EXPECT_EQ(board.at(P("A1", 9)), Stone::kEmpty);
  EXPECT_EQ(board.at(P("C1", 9)), Stone::kBlack);
  EXPECT_EQ(board.Play(WHITE, P("D1", 9)), 1);
  EXPECT_EQ(board.captures(WHITE), 2);
}

TEST(BoardTest, EverySizeHasItsEdges) {
  for (const int size : {9, 13, 19}) {
    Board board(size);
    EXPECT_EQ(board.size(), size);
    const int corner = VertexAt(size - 1, size, size);  // the top-right corner
    board.Play(BLACK, corner);
    board.Play(WHITE, VertexAt(size - 2, size, size));
    board.Pass(BLACK);
    ASSERT_EQ(board.Check(WHITE, VertexAt(size - 1, size - 1, size)), Legality::kLegal);
    EXPECT_EQ(board.Play(WHITE, VertexAt(size - 1, size - 1, size)), 1) << size;
    const std::vector<std::string> rows = board.Rows();
    ASSERT_EQ(rows.size(), static_cast<size_t>(size));
    EXPECT_EQ(rows[0], std::string(size - 2, '.') + "O.");
    EXPECT_EQ(rows[1], std::string(size - 1, '.') + "O");
    EXPECT_EQ(board.Check(BLACK, 0), Legality::kOccupied);  // a sentinel
  }
}

TEST(BoardDeathTest, UnsupportedSizeAborts) {
  EXPECT_DEATH(Board(7), "unsupported board size 7");
  EXPECT_DEATH(Board(25), "unsupported board size 25");
}

// Random games against the naive board: same legality verdicts, same stones,
// same prisoners, move after move.
TEST(BoardTest, RandomGamesAgreeWithANaiveBoard) {
  std::mt19937 random(20021);
  for (const int size : {9, 13}) {
    for (int game = 0; game < 40; ++game) {
      Board board(size);
      testing::NaiveBoard naive(size);
      v1::Color color = BLACK;
      for (int ply = 0; ply < 3 * size * size; ++ply) {
        if (random() % 50 == 0) {
          board.Pass(color);
          naive.Pass(color == BLACK ? 'X' : 'O');
          color = Opponent(color);
          continue;
        }
        const int x = static_cast<int>(random() % size);
        const int y = static_cast<int>(random() % size);
        const int vertex = VertexAt(x, size - y, size);
        const Legality legality = board.Check(color, vertex);
        const auto outcome = naive.Play(x, y, color == BLACK ? 'X' : 'O');
        using Outcome = testing::NaiveBoard::Outcome;
        switch (outcome) {
          case Outcome::kPlayed:
            ASSERT_EQ(legality, Legality::kLegal);
            break;
          case Outcome::kOccupied:
            ASSERT_EQ(legality, Legality::kOccupied);
            break;
          case Outcome::kSuicide:
            ASSERT_EQ(legality, Legality::kSuicide);
            break;
          case Outcome::kRepetition:
            ASSERT_TRUE(legality == Legality::kKoRecapture || legality == Legality::kRepetition);
            break;
        }
        if (legality != Legality::kLegal) continue;
        board.Play(color, vertex);
        ASSERT_EQ(board.Rows(), naive.grid())
            << "size " << size << " game " << game << " ply " << ply;
        ASSERT_EQ(board.captures(BLACK), naive.black_captures());
        ASSERT_EQ(board.captures(WHITE), naive.white_captures());
        color = Opponent(color);
      }
    }
  }
}

}  // namespace
}  // namespace arbiter
