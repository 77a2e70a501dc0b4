// Terminal widths for the standings table (utf8.h): widths per UAX #11.
#include "adjudicator/tournament/utf8.h"

#include "gtest/gtest.h"

namespace arbiter::tournament {
namespace {

TEST(DisplayWidth, WideScriptsTakeTwoColumns) {
  EXPECT_EQ(DisplayWidth("Wang Ming"), 9);
  EXPECT_EQ(DisplayWidth("李伟"), 4);         // CJK unified ideographs
  EXPECT_EQ(DisplayWidth("이창호"), 6);       // Hangul syllables
  EXPECT_EQ(DisplayWidth("井山裕太"), 8);     // kanji
  EXPECT_EQ(DisplayWidth("いの"), 4);         // hiragana
  EXPECT_EQ(DisplayWidth("ＡＢ"), 4);         // fullwidth forms
  EXPECT_EQ(DisplayWidth("𠀀"), 2);           // CJK extension B (4 bytes)
  EXPECT_EQ(DisplayWidth("Zoë"), 3);          // precomposed: one column
  EXPECT_EQ(DisplayWidth("Zoe\xCC\x88"), 3);  // e + combining diaeresis
  EXPECT_EQ(DisplayWidth("\xFF\xFE"), 2);     // not UTF-8: a column a byte
  EXPECT_EQ(DisplayWidth(""), 0);
}

TEST(PadToWidth, PadsToTheSameColumnWhateverTheScript) {
  EXPECT_EQ(PadToWidth("李伟", 6), "李伟  ");
  EXPECT_EQ(PadToWidth("Li", 6), "Li    ");
  EXPECT_EQ(PadToWidth("井山裕太", 6), "井山裕太");  // wider already: unchanged
}

}  // namespace
}  // namespace arbiter::tournament
