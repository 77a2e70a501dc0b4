// The tournament XML reader (expat): what well-formed files from any editor
// it reads, the encodings their prologs declare, and what it refuses, with
// the line and column: entity declarations above all (no expansion, nothing
// read from outside the file).
#include "adjudicator/tournament/xml.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace arbiter::tournament {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::unique_ptr<XmlElement> Parsed(const std::string& text) {
  absl::StatusOr<std::unique_ptr<XmlElement>> doc = ParseXml(text);
  EXPECT_TRUE(doc.ok()) << doc.status();
  return doc.ok() ? *std::move(doc) : std::make_unique<XmlElement>();
}

// The attribute `key` of the root of `text`, or the parse error.
std::string RootAttribute(const std::string& text, const char* key) {
  absl::StatusOr<std::unique_ptr<XmlElement>> doc = ParseXml(text);
  if (!doc.ok()) return std::string(doc.status().message());
  const std::string* value = (*doc)->Attribute(key);
  return value == nullptr ? "(none)" : *value;
}

std::string Error(const std::string& text) {
  absl::StatusOr<std::unique_ptr<XmlElement>> doc = ParseXml(text);
  EXPECT_FALSE(doc.ok()) << text;
  return doc.ok() ? std::string() : std::string(doc.status().message());
}

TEST(Xml, ParsesElementsAttributesEntitiesAndComments) {
  std::unique_ptr<XmlElement> doc = Parsed(
      "\xEF\xBB\xBF<?xml version='1.0'?>\n<!-- c -->\n<a x=\"1 &lt; 2\" y='&#x4E2D;&#25991;'>\n"
      "  <b/>text &amp; more<![CDATA[<raw>]]>\n  <b k=\"v\"></b>\n</a>\n");
  const XmlElement& a = *doc;
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(*a.Attribute("x"), "1 < 2");
  EXPECT_EQ(*a.Attribute("y"), "\xE4\xB8\xAD\xE6\x96\x87");  // 中文
  EXPECT_EQ(a.Attribute("z"), nullptr);
  ASSERT_EQ(a.Children("b").size(), 2u);
  EXPECT_EQ(*a.Children("b")[1]->Attribute("k"), "v");
  EXPECT_EQ(a.Children("b")[1]->line, 5);
  EXPECT_THAT(a.text, HasSubstr("text & more<raw>"));
}

// What the hand-written subset reader refused and other editors write.
TEST(Xml, ReadsWhatOtherEditorsWrite) {
  // A DOCTYPE with no entities (internal subset and external id), processing
  // instructions after the prolog and inside elements, CRLF line ends.
  std::unique_ptr<XmlElement> doc = Parsed(
      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\r\n"
      "<!DOCTYPE Tournament [\r\n  <!ELEMENT Tournament ANY>\r\n]>\r\n"
      "<?xml-stylesheet href=\"t.xsl\"?>\r\n<Tournament>\r\n<?editor keep?>\r\n"
      "<Player\r\n    rank='1D' name=\"Ma&#xEF;tre\" firstName='&#24352;'/>\r\n</Tournament>\r\n");
  const XmlElement* p = doc->Child("Player");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->line, 8);
  EXPECT_EQ(*p->Attribute("name"), "Ma\xC3\xAFtre");      // Maïtre
  EXPECT_EQ(*p->Attribute("firstName"), "\xE5\xBC\xA0");  // 张
  // Attributes are kept in the file's order, whatever that order is.
  EXPECT_EQ(p->attributes[0].first, "rank");
  EXPECT_EQ(doc->text, "\n\n\n");  // CRLF normalized to LF
  // An external DTD id is named but never fetched.
  EXPECT_EQ(
      Parsed("<!DOCTYPE Tournament SYSTEM \"http://example.invalid/t.dtd\"><Tournament/>")->name,
      "Tournament");
  // A comment holding markup, and CDATA holding what would be a tag.
  EXPECT_EQ(Parsed("<a><!-- <b x='1'/> --><![CDATA[<b/> & ]]></a>")->text, "<b/> & ");
}

TEST(Xml, ReadsTheEncodingItsPrologDeclares) {
  // windows-1252: é is 0xE9, the euro sign 0x80 (not ISO-8859-1's).
  EXPECT_EQ(
      RootAttribute("<?xml version=\"1.0\" encoding=\"windows-1252\"?><P name=\"Ren\xE9 \x80\"/>",
                    "name"),
      "Ren\xC3\xA9 \xE2\x82\xAC");
  EXPECT_EQ(RootAttribute("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><P name=\"M\xFCller\"/>",
                          "name"),
            "M\xC3\xBC"
            "ller");
  // GB18030 (a superset of GBK and GB2312): 高 is B8 DF, 伟 CE B0.
  EXPECT_EQ(
      RootAttribute("<?xml version=\"1.0\" encoding=\"GB18030\"?>\n<P name=\"\xB8\xDF\xCE\xB0\"/>",
                    "name"),
      "\xE9\xAB\x98\xE4\xBC\x9F");
  // UTF-16 with its byte order mark: <a x="é"/>.
  static const char kUtf16[] = "\xFF\xFE<\0a\0 \0x\0=\0\"\0\xE9\0\"\0/\0>\0";
  const std::string utf16(kUtf16, sizeof kUtf16 - 1);
  EXPECT_EQ(RootAttribute(utf16, "x"), "\xC3\xA9");
}

TEST(Xml, RefusesEntityDeclarationsBeforeExpandingAnything) {
  const std::string laughs =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
      " <!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
      " <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n"
      "]>\n<lolz>&lol3;</lolz>\n";
  EXPECT_EQ(Error(laughs),
            "line 3, column 15: the file declares the entity \"lol\"; entity declarations are "
            "refused (nothing is expanded)");
  EXPECT_THAT(Error("<!DOCTYPE t [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><t>&x;</t>"),
              HasSubstr("the file declares the entity \"x\""));
  EXPECT_THAT(Error("<!DOCTYPE t [<!ENTITY % p SYSTEM \"http://example.invalid/p\"> %p;]><t/>"),
              HasSubstr("the file declares the parameter entity \"p\""));
  // Undeclared where an external subset might have declared it: not skipped.
  EXPECT_EQ(Error("<!DOCTYPE t SYSTEM \"t.dtd\"><t>&nbsp;</t>"),
            "line 1, column 31: reference to the undeclared entity &nbsp;");
}

TEST(Xml, RefusesWhatIsNotWellFormedWithLineAndColumn) {
  EXPECT_EQ(Error("<a>\n  <b>\n</a>"), "line 3, column 3: mismatched tag");
  EXPECT_EQ(Error("<a x=1/>"), "line 1, column 6: not well-formed (invalid token)");
  EXPECT_EQ(Error("<a x='1' x='2'/>"), "line 1, column 10: duplicate attribute");
  EXPECT_EQ(Error("<a>&nbsp;</a>"), "line 1, column 4: undefined entity");
  EXPECT_EQ(Error("<a/><b/>"), "line 1, column 5: junk after document element");
  EXPECT_EQ(Error("<a x='<'/>"), "line 1, column 7: not well-formed (invalid token)");
  EXPECT_EQ(Error(""), "line 1, column 1: no element found");
  EXPECT_EQ(Error("<a>&#0;</a>"), "line 1, column 4: reference to invalid character number");
  EXPECT_EQ(Error(std::string(65, '<') + "a>"),
            "line 1, column 2: not well-formed (invalid token)");
  std::string deep;
  for (int i = 0; i < 65; ++i) deep += "<a>";
  EXPECT_EQ(Error(deep), "line 1, column 193: elements nested too deeply");
  // Bytes that are not UTF-8 in a file that declares no encoding.
  EXPECT_THAT(Error("<P name=\"M\xFCller\"/>"),
              StartsWith("line 1, column 11: not well-formed (invalid token): the bytes here are "
                         "not UTF-8; a file in another encoding must declare it"));
  EXPECT_EQ(
      Error("<?xml version=\"1.0\" encoding=\"no-such-encoding\"?><a/>"),
      "line 1, column 31: the encoding \"no-such-encoding\" its prolog declares is not known");
  EXPECT_THAT(Error("<?xml version=\"1.0\" encoding=\"GB18030\"?><a x=\"\x81\"/>"),
              HasSubstr("is not GB18030 as the prolog declares"));
}

}  // namespace
}  // namespace arbiter::tournament
