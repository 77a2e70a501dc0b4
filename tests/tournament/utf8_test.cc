// Terminal widths for the standings table (utf8.h): widths per UAX #11 and
// utf8proc's emoji and zero-width tables; decoding that refuses non-UTF-8; the control characters a
// name may not hold.
#include "adjudicator/tournament/utf8.h"

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

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

// Where the hand-copied ranges were wrong: emoji, zero-width characters and
// combining marks outside the Latin blocks.
TEST(DisplayWidth, FollowsUnicodesTablesBeyondCjk) {
  EXPECT_EQ(DisplayWidth("\xF0\x9F\x91\x8D"), 2);          // 👍 (emoji presentation: wide)
  EXPECT_EQ(DisplayWidth("Li \xF0\x9F\x8F\x86"), 5);       // "Li 🏆"
  EXPECT_EQ(DisplayWidth("\xE2\x80\x8D"), 0);              // zero-width joiner
  EXPECT_EQ(DisplayWidth("\xE2\x98\xBA\xEF\xB8\x8F"), 1);  // ☺ + variation selector 16
  EXPECT_EQ(DisplayWidth("\xE0\xA4\x95\xE0\xA5\x8D"), 1);  // क + virama (Devanagari)
  EXPECT_EQ(DisplayWidth("\xD7\xA9\xD6\xB4"), 1);          // ש + hiriq (Hebrew point)
  EXPECT_EQ(DisplayWidth("\xE3\x80\x80"), 2);              // ideographic space
}

TEST(NextCodePoint, RefusesOverlongFormsAndSurrogates) {
  size_t pos = 0;
  EXPECT_FALSE(NextCodePoint("\xC0\x80", &pos).has_value());      // overlong NUL
  EXPECT_FALSE(NextCodePoint("\xED\xA0\x80", &pos).has_value());  // a UTF-16 surrogate
  EXPECT_EQ(pos, 0u);
  EXPECT_EQ(NextCodePoint("\xF0\xA0\x80\x80", &pos), 0x20000u);
  EXPECT_EQ(pos, 4u);
  std::string out;
  AppendUtf8(0x4E2D, &out);
  AppendUtf8(0xD800, &out);  // not a scalar value: nothing
  EXPECT_EQ(out, "\xE4\xB8\xAD");
}

TEST(PadToWidth, PadsToTheSameColumnWhateverTheScript) {
  EXPECT_EQ(PadToWidth("李伟", 6), "李伟  ");
  EXPECT_EQ(PadToWidth("Li", 6), "Li    ");
  EXPECT_EQ(PadToWidth("井山裕太", 6), "井山裕太");  // wider already: unchanged
}

// A name is one line: the first control character (C0 with tab, CR and LF,
// DEL, C1) and where it is, for the refusal to name.
TEST(FirstControl, FindsTheFirstControlCharacterAndItsByte) {
  EXPECT_FALSE(FirstControl("李伟 Müller").has_value());
  for (const auto& [text, cp, at] :
       std::vector<std::tuple<std::string, uint32_t, size_t>>{{"Li\nWei", 0x0A, 2},
                                                              {"\tLi", 0x09, 0},
                                                              {"李\r", 0x0D, 3},
                                                              {"a\x7f", 0x7F, 1},
                                                              {"ab\xC2\x85", 0x85, 2}}) {
    const std::optional<ControlAt> c = FirstControl(text);
    ASSERT_TRUE(c.has_value()) << text;
    EXPECT_EQ(c->cp, cp) << text;
    EXPECT_EQ(c->at, at) << text;
  }
}

TEST(IsInvisible, SpacesAndFormatCharactersShowNothingLettersDo) {
  for (const uint32_t blank :
       {0x20u, 0xA0u, 0x3000u, 0x200Bu, 0x200Du, 0x202Eu, 0x2066u, 0xFEFFu}) {
    EXPECT_TRUE(IsInvisible(blank)) << std::hex << blank;
  }
  for (const uint32_t seen : {0x41u, 0x738Bu, 0x3001u, 0x30FBu}) {  // A 王 、 ・
    EXPECT_FALSE(IsInvisible(seen)) << std::hex << seen;
  }
  for (const uint32_t control : {0x0u, 0x1Bu, 0x7Fu, 0x85u}) {
    EXPECT_TRUE(IsControl(control)) << std::hex << control;
  }
  EXPECT_FALSE(IsControl(0x20));
  EXPECT_FALSE(IsControl(0x200B));  // a format character, not a control
}

}  // namespace
}  // namespace arbiter::tournament
