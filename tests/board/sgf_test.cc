#include "adjudicator/engine/sgf.h"

#include <string>

#include "adjudicator/engine/point.h"
#include "gtest/gtest.h"

namespace arbiter {
namespace {

using v1::BLACK;
using v1::WHITE;

SgfGame MustParse(const std::string& text) {
  absl::StatusOr<SgfGame> game = ParseSgf(text);
  EXPECT_TRUE(game.ok()) << game.status();
  return game.ok() ? *game : SgfGame{};
}

// The error must name this line and column.
void ExpectErrorAt(const std::string& text, int line, int column, const std::string& words) {
  absl::StatusOr<SgfGame> game = ParseSgf(text);
  ASSERT_FALSE(game.ok()) << text;
  const std::string message(game.status().message());
  EXPECT_NE(message.find(PositionText({line, column}) + ":"), std::string::npos)
      << "want line " << line << ", column " << column << "; got: " << message;
  EXPECT_NE(message.find(words), std::string::npos) << message;
}

TEST(SgfTest, RootPropertiesAndMoves) {
  const SgfGame game = MustParse(
      "(;GM[1]FF[4]SZ[19]KM[7.5]DT[2002-03-28]GN[Final]RE[W+R]\n"
      "PB[Cho Chikun]BR[9p]PW[Yoda Norimoto]WR[9p]\n"
      ";B[pd];W[dp]C[a comment with \\] inside];B[];W[tt])");
  EXPECT_EQ(game.board_size, 19);
  EXPECT_EQ(game.black_name, "Cho Chikun");
  EXPECT_EQ(game.black_rank, "9p");
  EXPECT_EQ(game.white_name, "Yoda Norimoto");
  EXPECT_EQ(game.white_rank, "9p");
  ASSERT_TRUE(game.komi.has_value());
  EXPECT_EQ(*game.komi, 7.5);
  EXPECT_EQ(game.date, "2002-03-28");
  EXPECT_EQ(game.game_name, "Final");
  EXPECT_EQ(game.result, "W+R");
  ASSERT_EQ(game.moves.size(), 4u);
  EXPECT_EQ(game.moves[0].color, BLACK);
  EXPECT_EQ(game.moves[0].vertex, *ParsePoint("Q16", 19));
  EXPECT_EQ(game.moves[1].color, WHITE);
  EXPECT_EQ(game.moves[1].vertex, *ParsePoint("D4", 19));
  EXPECT_FALSE(game.moves[2].vertex.has_value());  // B[] is a pass
  EXPECT_FALSE(game.moves[3].vertex.has_value());  // W[tt] is a pass on 19x19
  EXPECT_EQ(game.moves[0].position.line, 3);
  EXPECT_EQ(game.moves[0].position.column, 2);
}

TEST(SgfTest, DefaultsWhenPropertiesAreAbsent) {
  const SgfGame game = MustParse("(;FF[4];B[aa])");
  EXPECT_EQ(game.board_size, 19);
  EXPECT_FALSE(game.komi.has_value());
  EXPECT_EQ(game.player_to_move, v1::COLOR_UNSPECIFIED);
  ASSERT_EQ(game.moves.size(), 1u);
  EXPECT_EQ(game.moves[0].vertex, *ParsePoint("A19", 19));
}

TEST(SgfTest, EscapesAndSoftLineBreaks) {
  const SgfGame game = MustParse("(;PB[Li \\] Wei\\\\]PW[Wang\\\nFang];B[cc])");
  EXPECT_EQ(game.black_name, "Li ] Wei\\");
  EXPECT_EQ(game.white_name, "WangFang");
}

// SGF's default charset is Latin-1; UTF-8 text is kept as it is.
TEST(SgfTest, TextBecomesUtf8) {
  const SgfGame game = MustParse("(;PB[Jos\xE9]PW[Ren\xC3\xA9]GN[\xED\xA0\x80];B[cc])");
  EXPECT_EQ(game.black_name, "Jos\xC3\xA9");
  EXPECT_EQ(game.white_name, "Ren\xC3\xA9");
  EXPECT_EQ(game.game_name, "\xC3\xAD\xC2\xA0\xC2\x80");  // a surrogate is not UTF-8
}

TEST(SgfTest, SmallerBoardsUseTheirOwnCoordinates) {
  const SgfGame nine = MustParse("(;SZ[9];B[ee];W[ai])");
  EXPECT_EQ(nine.board_size, 9);
  EXPECT_EQ(nine.moves[0].vertex, *ParsePoint("E5", 9));
  EXPECT_EQ(nine.moves[1].vertex, *ParsePoint("A1", 9));
  const SgfGame thirteen = MustParse("(;SZ[13:13];B[mm])");
  EXPECT_EQ(thirteen.moves[0].vertex, *ParsePoint("N1", 13));
}

TEST(SgfTest, SetupStonesAndPlayer) {
  const SgfGame game = MustParse("(;SZ[9]AB[aa:bb][ee]AW[ii]PL[W];W[cc])");
  EXPECT_EQ(game.setup_black.size(), 5u);
  EXPECT_EQ(game.setup_white, std::vector<int>{*ParsePoint("J1", 9)});
  EXPECT_EQ(game.player_to_move, WHITE);
}

TEST(SgfTest, MainLineFollowsTheFirstVariation) {
  const SgfGame game = MustParse("(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))");
  ASSERT_EQ(game.moves.size(), 4u);
  EXPECT_EQ(game.moves[1].vertex, *ParsePoint("B8", 9));
  EXPECT_EQ(game.moves[3].vertex, *ParsePoint("D6", 9));
}

TEST(SgfTest, RemainingTimes) {
  const SgfGame game = MustParse("(;SZ[19];B[pd]BL[3590.5];W[dp]WL[3580]BL[1];B[dd])");
  ASSERT_EQ(game.moves.size(), 3u);
  EXPECT_EQ(game.moves[0].time_left, absl::Seconds(3590.5));
  EXPECT_EQ(game.moves[1].time_left, absl::Seconds(3580));
  EXPECT_FALSE(game.moves[2].time_left.has_value());
}

TEST(SgfTest, BoardSizesOtherThan9_13_19AreRefused) {
  ExpectErrorAt("(;FF[4]SZ[7];B[aa])", 1, 10, "not supported");
  ExpectErrorAt("(;SZ[19:17])", 1, 5, "not supported");
  ExpectErrorAt("(;SZ[big])", 1, 5, "not a board size");
  ExpectErrorAt("(;GM[2])", 1, 5, "not a Go game");
}

TEST(SgfTest, MalformedInputNamesLineAndColumn) {
  ExpectErrorAt("", 1, 1, "empty");
  ExpectErrorAt("  ;B[aa]", 1, 3, "expected '('");
  ExpectErrorAt("(;B[aa]\n;W[bb", 2, 3, "not closed with ']'");
  ExpectErrorAt("(;B[aa];W[bb]", 1, 1, "not closed with ')'");
  ExpectErrorAt("(;B[aa]\n;W[zz])", 2, 3, "\"zz\" is not a point");
  ExpectErrorAt("(;B[aa]\n  ;W[bb]B[cc])", 2, 9, "two moves in one node");
  ExpectErrorAt("(;KM[six])", 1, 5, "not a number");
  // FF[4]: PropIdent = UcLetter { UcLetter }; only older formats may add
  // lower-case letters, and a name needs at least one upper-case letter.
  ExpectErrorAt("(;FF[4];B[aa];Bx[bb])", 1, 16, "must be upper-case letters in FF[4]");
  ExpectErrorAt("(;B[aa];xy[bb])", 1, 9, "needs an upper-case letter");
  ExpectErrorAt("(;B[aa];W)", 1, 9, "has no value");
  ExpectErrorAt("(;B[aa])(;B[bb])", 1, 9, "more than one game");
  ExpectErrorAt("(;B[aa]) trailing", 1, 10, "unexpected text");
  ExpectErrorAt("(B[aa])", 1, 2, "expected ';'");
  ExpectErrorAt("(;B[aa];W[bb]AB[cc])", 1, 14, "setup property AB after the root");
  ExpectErrorAt("(;AB[aa]AW[aa])", 1, 11, "two setup stones on A19");
  ExpectErrorAt("(;PL[X])", 1, 5, "must be B or W");
  ExpectErrorAt("(;B[aa]BL[soon])", 1, 10, "not a number");
  ExpectErrorAt("(;B[aa]BL[-1])", 1, 8, "BL is negative");
  // Found by the sgf fuzzer: a remaining time that overflowed the clock.
  ExpectErrorAt("(;B[aa];W[bb]WL[2077777777777777777777])", 1, 14, "more than 31536000 seconds");
  ExpectErrorAt("(;B[aa]BL[nan])", 1, 8, "more than");
}

// FF[1]-FF[3] wrote verbose identifiers ("AddBlack", "VieW", "PlayerBlack");
// FF[4]'s compatibility notes: "Verbose property names no longer exist. 3->4:
// np (delete all lowercase letters from IDs)". A file without FF is FF[1].
TEST(SgfTest, OlderFormatsIgnoreLowerCaseLettersInPropertyNames) {
  const char* kRecord =
      "(;GaMe[1]FileFormat[3]VieW[]SiZe[19]PlayerBlack[Go Seigen]PlayerWhite[Takagawa Kaku]\n"
      "DaTe[1957-06-24]KoMi[0]REsult[W+R]AddBlack[pd][dp]\n"
      ";White[dd];Black[pp];White[qf])";
  const SgfGame game = MustParse(kRecord);
  EXPECT_EQ(game.file_format, 3);
  EXPECT_EQ(game.board_size, 19);
  EXPECT_EQ(game.black_name, "Go Seigen");
  EXPECT_EQ(game.white_name, "Takagawa Kaku");
  EXPECT_EQ(game.date, "1957-06-24");
  EXPECT_EQ(game.result, "W+R");
  ASSERT_TRUE(game.komi.has_value());
  EXPECT_EQ(*game.komi, 0);
  EXPECT_EQ(game.setup_black.size(), 2u);
  ASSERT_EQ(game.moves.size(), 3u);
  EXPECT_EQ(game.moves[0].color, WHITE);
  EXPECT_EQ(game.moves[1].color, BLACK);
  // Without FF the file is FF[1]: the same reading.
  EXPECT_EQ(MustParse("(;AddWhite[aa];Black[bb])").setup_white.size(), 1u);
  // The same record declared FF[4] is malformed at its first lower-case letter.
  ExpectErrorAt("(;FF[4]GaMe[1];B[aa])", 1, 9, "upper-case letters in FF[4]");
}

TEST(SgfTest, TimeLimitOvertimeAndPeriodsLeft) {
  const SgfGame game =
      MustParse("(;TM[600]OT[5x30 byo-yomi];B[pd]BL[599.5];W[dd]WL[25.25]OW[5];B[pp]BL[20]OB[4])");
  EXPECT_EQ(game.time_limit, absl::Seconds(600));
  EXPECT_EQ(game.overtime, "5x30 byo-yomi");
  ASSERT_EQ(game.moves.size(), 3u);
  EXPECT_FALSE(game.moves[0].overtime_count.has_value());
  EXPECT_EQ(game.moves[1].time_left, absl::Milliseconds(25250));
  EXPECT_EQ(game.moves[1].overtime_count, 5);
  EXPECT_EQ(game.moves[2].overtime_count, 4);
  // TM written as text says nothing a clock can use: it is ignored.
  EXPECT_FALSE(MustParse("(;TM[3 hours];B[pd])").time_limit.has_value());
  ExpectErrorAt("(;B[aa]BL[20]OB[two])", 1, 16, "not a number of moves or periods");
  ExpectErrorAt("(;B[aa]BL[20]OB[-1])", 1, 16, "not a number of moves or periods");
}

TEST(SgfTest, TtIsAPassOnSmallerBoardsToo) {
  const SgfGame game = MustParse("(;SZ[9];B[tt];W[])");
  ASSERT_EQ(game.moves.size(), 2u);
  EXPECT_FALSE(game.moves[0].vertex.has_value());
  EXPECT_FALSE(game.moves[1].vertex.has_value());
}

}  // namespace
}  // namespace arbiter
