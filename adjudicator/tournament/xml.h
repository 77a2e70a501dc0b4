// The tournament files' XML (OpenGotha's), read with expat into a small
// tree, and the escaping the writers use. Pure: parses a string, writes a
// string.
//
// What is read: any well-formed XML 1.0 document, whatever the editor that
// saved it (comments, CDATA, processing instructions, a DOCTYPE, character
// references, a byte order mark, CRLF line ends, attributes in any order),
// in UTF-8, UTF-16, ISO-8859-1, US-ASCII or any single-byte encoding the
// C library's iconv knows (windows-1252, ISO-8859-15...), as its prolog
// declares. What is refused: a document that is not well-formed, and any
// entity declaration (<!ENTITY>, internal or external, general or
// parameter): nothing is expanded and nothing outside the string is read,
// so a "billion laughs" or an external-entity file is refused before it
// costs anything. Errors name the line and column.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_XML_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_XML_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace arbiter::tournament {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // in file order
  std::vector<std::unique_ptr<XmlElement>> children;
  std::string text;  // character data (and CDATA) directly inside, concatenated, UTF-8
  int line = 0;      // where the start tag began

  // The attribute's value, or nullptr.
  const std::string* Attribute(absl::string_view key) const;
  // Direct children named `child`.
  std::vector<const XmlElement*> Children(absl::string_view child) const;
  // The first direct child named `child`, or nullptr.
  const XmlElement* Child(absl::string_view child) const;
};

// Parses a whole document into UTF-8. INVALID_ARGUMENT "line L, column C:
// why" when it is not well-formed (expat's reason), declares an entity,
// refers to an entity it does not define, nests elements more than 64 deep,
// or declares an encoding that is neither built in nor single-byte in iconv.
absl::StatusOr<std::unique_ptr<XmlElement>> ParseXml(absl::string_view text);

// Escapes &, <, >, " and ' for an attribute value or character data.
std::string XmlEscape(absl::string_view text);

// XmlEscape for an attribute value, with tab, line feed and carriage return
// as character references (&#9; &#10; &#13;): a reader normalises the literal
// characters there to spaces, so a name with a line feed would read back
// with a space.
std::string XmlAttributeEscape(absl::string_view text);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_XML_H_
