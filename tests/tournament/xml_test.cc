// The strict XML subset reader: what it accepts, and the line and column of
// what it refuses.
#include "adjudicator/tournament/xml.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arbiter::tournament {
namespace {

using ::testing::HasSubstr;

TEST(Xml, ParsesElementsAttributesEntitiesAndComments) {
  absl::StatusOr<std::unique_ptr<XmlElement>> doc = ParseXml(
      "\xEF\xBB\xBF<?xml version='1.0'?>\n<!-- c -->\n<a x=\"1 &lt; 2\" y='&#x4E2D;&#25991;'>\n"
      "  <b/>text &amp; more<![CDATA[<raw>]]>\n  <b k=\"v\"></b>\n</a>\n");
  ASSERT_TRUE(doc.ok()) << doc.status();
  const XmlElement& a = **doc;
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(*a.Attribute("x"), "1 < 2");
  EXPECT_EQ(*a.Attribute("y"), "\xE4\xB8\xAD\xE6\x96\x87");  // 中文
  EXPECT_EQ(a.Attribute("z"), nullptr);
  ASSERT_EQ(a.Children("b").size(), 2u);
  EXPECT_EQ(*a.Children("b")[1]->Attribute("k"), "v");
  EXPECT_EQ(a.Children("b")[1]->line, 5);
  EXPECT_THAT(a.text, HasSubstr("text & more<raw>"));
}

TEST(Xml, RefusesWhatIsOutsideTheSubsetWithLineAndColumn) {
  auto error = [](const char* text) {
    absl::StatusOr<std::unique_ptr<XmlElement>> doc = ParseXml(text);
    EXPECT_FALSE(doc.ok());
    return doc.ok() ? std::string() : std::string(doc.status().message());
  };
  EXPECT_EQ(error("<a>\n  <b>\n</a>"), "line 3, column 1: </a> closes <b> opened on line 2");
  EXPECT_EQ(error("<a x=1/>"), "line 1, column 6: expected a quoted value");
  EXPECT_EQ(error("<a x='1' x='2'/>"), "line 1, column 10: duplicate attribute x");
  EXPECT_EQ(error("<a>&nbsp;</a>"), "line 1, column 4: unknown entity &nbsp;");
  EXPECT_EQ(error("<!DOCTYPE a><a/>"),
            "line 1, column 1: DTDs and processing instructions are not supported");
  EXPECT_EQ(error("<a/><b/>"), "line 1, column 5: content after the root element");
  EXPECT_EQ(error("<a x='<'/>"), "line 1, column 7: '<' inside a value");
  EXPECT_EQ(error(""), "line 1, column 1: expected the root element");
  EXPECT_EQ(error("<a>&#0;</a>"), "line 1, column 4: character reference to NUL");
}

}  // namespace
}  // namespace arbiter::tournament
