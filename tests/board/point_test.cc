#include "adjudicator/engine/point.h"

#include <string>

#include "gtest/gtest.h"

namespace arbiter {
namespace {

TEST(PointTest, GtpNamesRoundTripOnEverySize) {
  for (const int size : {9, 13, 19}) {
    int points = 0;
    for (int row = 1; row <= size; ++row) {
      for (int column = 0; column < size; ++column) {
        const int v = VertexAt(column, row, size);
        ASSERT_TRUE(IsOnBoard(v, size));
        const std::string name = PointName(v, size);
        absl::StatusOr<int> parsed = ParsePoint(name, size);
        ASSERT_TRUE(parsed.ok()) << name << ": " << parsed.status();
        EXPECT_EQ(*parsed, v) << name;
        ++points;
      }
    }
    EXPECT_EQ(points, size * size);
  }
}

TEST(PointTest, KnownPoints) {
  EXPECT_EQ(PointName(*ParsePoint("A1", 19), 19), "A1");
  EXPECT_EQ(*ParsePoint("A1", 19), VertexAt(0, 1, 19));
  EXPECT_EQ(*ParsePoint("Q16", 19), VertexAt(15, 16, 19));  // I is skipped: Q is the 16th column
  EXPECT_EQ(*ParsePoint("T19", 19), VertexAt(18, 19, 19));
  EXPECT_EQ(*ParsePoint("J9", 9), VertexAt(8, 9, 9));
  EXPECT_EQ(*ParsePoint("q16", 19), *ParsePoint("Q16", 19));
}

TEST(PointTest, BadPointsAreRefusedNamingTheText) {
  for (const char* bad : {"", "Q", "I5", "Z3", "A0", "A20", "K10", "A01", "Q1x", "Q-1", "11"}) {
    const int size = std::string(bad) == "K10" ? 9 : 19;
    absl::StatusOr<int> parsed = ParsePoint(bad, size);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_NE(parsed.status().message().find(std::string("\"") + bad + "\""), std::string::npos)
        << parsed.status();
  }
  EXPECT_FALSE(ParsePoint("A1", 7).ok());
}

// GTP's columns: A to T without I, either case, the first `size` of them;
// every other byte is no column.
// A refusal quotes 16 bytes of the text at most, escaped: a client's value
// never comes back whole, nor its control bytes.
TEST(PointTest, ARefusalQuotesSixteenEscapedBytesAtMost) {
  const std::string text = "\x1b[2J" + std::string(100, 'D');
  const absl::Status s = ParsePoint(text, 19).status();
  EXPECT_EQ(s.message(),
            "bad point \"\\x1b[2JDDDDDDDDDDDD...\" on a 19x19 board: expected a column letter "
            "and a row number");
  EXPECT_EQ(ParsePoint("Z9", 19).status().message(),
            "bad point \"Z9\" on a 19x19 board: no such column");
}

TEST(PointTest, EveryByteIsAColumnExactlyWhenGtpNamesOne) {
  const std::string letters = "ABCDEFGHJKLMNOPQRST";
  for (const int size : {9, 13, 19}) {
    for (int b = 0; b < 256; ++b) {
      const char c = static_cast<char>(b);
      const size_t upper = letters.find(static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c));
      const bool column = upper != std::string::npos && upper < static_cast<size_t>(size);
      absl::StatusOr<int> parsed = ParsePoint(std::string(1, c) + "1", size);
      ASSERT_EQ(parsed.ok(), column) << "byte " << b << " on " << size;
      if (column) EXPECT_EQ(*parsed, VertexAt(static_cast<int>(upper), 1, size)) << b;
    }
    for (int b = 0; b < 256; ++b) {  // and every byte as the row's digit
      const char c = static_cast<char>(b);
      EXPECT_EQ(ParsePoint(std::string("A") + c, size).ok(), c >= '1' && c <= '9') << b;
    }
  }
}

TEST(PointTest, SentinelsAreOffTheBoard) {
  EXPECT_FALSE(IsOnBoard(0, 19));
  EXPECT_FALSE(IsOnBoard(VertexAt(-1, 5, 19), 19));
  EXPECT_FALSE(IsOnBoard(VertexAt(19, 5, 19), 19));
  EXPECT_FALSE(IsOnBoard(VertexAt(3, 0, 19), 19));
  EXPECT_FALSE(IsOnBoard(VertexAt(3, 20, 19), 19));
  EXPECT_FALSE(IsOnBoard(PaddedArea(19), 19));
}

}  // namespace
}  // namespace arbiter
