// A small, strict XML reader and writer for the subset tournament files use
// (OpenGotha's): a prolog, comments, elements with attributes, character
// data and the five predefined entities plus character references. No DTDs,
// no namespaces, no processing instructions after the prolog. Anything else
// is an error naming the line and column, so a damaged file is refused
// rather than half read. Pure: parses a string, writes a string.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_XML_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_XML_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"

namespace arbiter::tournament {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // in file order
  std::vector<std::unique_ptr<XmlElement>> children;
  std::string text;  // character data directly inside, concatenated
  int line = 0;      // where the start tag began

  // The attribute's value, or nullptr.
  const std::string* Attribute(absl::string_view key) const;
  // Direct children named `child`.
  std::vector<const XmlElement*> Children(absl::string_view child) const;
  // The first direct child named `child`, or nullptr.
  const XmlElement* Child(absl::string_view child) const;
};

// Parses a whole document (one root element). INVALID_ARGUMENT with
// "line L, column C: why" on anything outside the subset or malformed.
absl::StatusOr<std::unique_ptr<XmlElement>> ParseXml(absl::string_view text);

// Escapes &, <, >, " and ' for an attribute value or character data.
std::string XmlEscape(absl::string_view text);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_XML_H_
