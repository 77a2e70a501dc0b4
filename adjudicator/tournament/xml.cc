#include "adjudicator/tournament/xml.h"

#include <climits>

#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/xml_encoding.h"
#include "expat.h"
#include "utf8proc.h"

namespace arbiter::tournament {
namespace {

constexpr size_t kMaxDepth = 64;

// Builds the tree from expat's callbacks; refuses what expat would accept
// but a tournament file must not hold (entity declarations, entities it
// cannot expand, deep nesting) by stopping the parser with a reason.
class TreeBuilder {
 public:
  // `encoding`: nullptr to follow the prolog, or the encoding to read in
  // whatever the prolog says.
  explicit TreeBuilder(const XML_Char* encoding) : parser_(XML_ParserCreate(encoding)) {
    if (parser_ == nullptr) return;
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, Start, End);
    XML_SetCharacterDataHandler(parser_, Characters);
    XML_SetEntityDeclHandler(parser_, EntityDeclared);
    XML_SetSkippedEntityHandler(parser_, EntitySkipped);
    XML_SetParamEntityParsing(parser_, XML_PARAM_ENTITY_PARSING_NEVER);
    XML_SetUnknownEncodingHandler(parser_, SingleByteEncoding, &encoding_refused_);
  }
  ~TreeBuilder() {
    if (parser_ != nullptr) XML_ParserFree(parser_);
  }
  TreeBuilder(const TreeBuilder&) = delete;
  TreeBuilder& operator=(const TreeBuilder&) = delete;

  // The tree, or why not; a multi-byte encoding the prolog declares is
  // left in `multibyte()` for the caller to convert the text first.
  absl::StatusOr<std::unique_ptr<XmlElement>> Parse(absl::string_view text) {
    if (parser_ == nullptr) return absl::ResourceExhaustedError("no memory for the XML parser");
    if (text.size() > static_cast<size_t>(INT_MAX)) {
      return absl::InvalidArgumentError("the XML file is larger than 2 GiB");
    }
    if (XML_Parse(parser_, text.data(), static_cast<int>(text.size()), XML_TRUE) != XML_STATUS_OK) {
      if (!refused_.ok()) return refused_;
      return Here(Reason(text));
    }
    if (root_ == nullptr) return Here("expected the root element");
    return std::move(root_);
  }

  const std::string& multibyte() const { return encoding_refused_.multibyte; }

 private:
  static TreeBuilder& Of(void* data) { return *static_cast<TreeBuilder*>(data); }

  absl::Status Here(absl::string_view why) const {
    return absl::InvalidArgumentError(
        absl::StrCat("line ", XML_GetCurrentLineNumber(parser_), ", column ",
                     XML_GetCurrentColumnNumber(parser_) + 1, ": ", why));
  }

  void Refuse(absl::string_view why) {
    if (refused_.ok()) refused_ = Here(why);
    XML_StopParser(parser_, XML_FALSE);
  }

  // expat's reason, with what to do for the mistakes people make.
  std::string Reason(absl::string_view text) const {
    const XML_Error code = XML_GetErrorCode(parser_);
    if ((code == XML_ERROR_UNKNOWN_ENCODING || code == XML_ERROR_INCORRECT_ENCODING) &&
        !encoding_refused_.why.empty()) {
      return encoding_refused_.why;
    }
    if (code == XML_ERROR_NO_ELEMENTS && !open_.empty()) {  // a file cut off
      return absl::StrCat("the file ends here: element <", open_.back()->name, "> (line ",
                          open_.back()->line, ") is not closed");
    }
    std::string why = XML_ErrorString(code);
    const XML_Index at = XML_GetCurrentByteIndex(parser_);
    if (code == XML_ERROR_INVALID_TOKEN && at >= 0 && static_cast<size_t>(at) < text.size()) {
      utf8proc_int32_t cp;
      const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data()) + at;
      if (utf8proc_iterate(p, static_cast<utf8proc_ssize_t>(text.size() - at), &cp) < 0) {
        absl::StrAppend(&why,
                        ": the bytes here are not UTF-8; a file in another encoding must declare "
                        "it, as in <?xml version=\"1.0\" encoding=\"windows-1252\"?>");
      }
    }
    return why;
  }

  static void XMLCALL Start(void* data, const XML_Char* name, const XML_Char** atts) {
    TreeBuilder& b = Of(data);
    if (b.open_.size() >= kMaxDepth) {
      b.Refuse("elements nested too deeply");
      return;
    }
    auto e = std::make_unique<XmlElement>();
    e->name = name;
    e->line = static_cast<int>(XML_GetCurrentLineNumber(b.parser_));
    for (int i = 0; atts[i] != nullptr; i += 2) e->attributes.emplace_back(atts[i], atts[i + 1]);
    XmlElement* raw = e.get();
    if (b.open_.empty()) {
      b.root_ = std::move(e);
    } else {
      b.open_.back()->children.push_back(std::move(e));
    }
    b.open_.push_back(raw);
  }

  static void XMLCALL End(void* data, const XML_Char*) { Of(data).open_.pop_back(); }

  static void XMLCALL Characters(void* data, const XML_Char* s, int len) {
    TreeBuilder& b = Of(data);
    if (!b.open_.empty()) b.open_.back()->text.append(s, static_cast<size_t>(len));
  }

  static void XMLCALL EntityDeclared(void* data, const XML_Char* name, int parameter,
                                     const XML_Char*, int, const XML_Char*, const XML_Char*,
                                     const XML_Char*, const XML_Char*) {
    Of(data).Refuse(absl::StrCat("the file declares the ", parameter ? "parameter " : "",
                                 "entity \"", name,
                                 "\"; entity declarations are refused (nothing is expanded)"));
  }

  static void XMLCALL EntitySkipped(void* data, const XML_Char* name, int parameter) {
    Of(data).Refuse(
        absl::StrCat("reference to the undeclared entity ", parameter ? "%" : "&", name, ";"));
  }

  XML_Parser parser_;
  std::unique_ptr<XmlElement> root_;
  std::vector<XmlElement*> open_;     // the elements whose end tag is still to come
  absl::Status refused_;              // why a handler stopped the parser
  EncodingRefusal encoding_refused_;  // why SingleByteEncoding refused the declared encoding
};

}  // namespace

const std::string* XmlElement::Attribute(absl::string_view key) const {
  for (const auto& [k, v] : attributes) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::vector<const XmlElement*> XmlElement::Children(absl::string_view child) const {
  std::vector<const XmlElement*> out;
  for (const auto& c : children) {
    if (c->name == child) out.push_back(c.get());
  }
  return out;
}

const XmlElement* XmlElement::Child(absl::string_view child) const {
  for (const auto& c : children) {
    if (c->name == child) return c.get();
  }
  return nullptr;
}

absl::StatusOr<std::unique_ptr<XmlElement>> ParseXml(absl::string_view text) {
  TreeBuilder first(nullptr);
  absl::StatusOr<std::unique_ptr<XmlElement>> tree = first.Parse(text);
  if (tree.ok() || first.multibyte().empty()) return tree;
  // GB18030, Big5, Shift_JIS...: expat reads no multi-byte table, so the
  // text is converted whole and read as UTF-8 whatever its prolog says.
  absl::StatusOr<std::string> utf8 = ToUtf8(text, first.multibyte());
  if (!utf8.ok()) return utf8.status();
  return TreeBuilder("UTF-8").Parse(*utf8);
}

std::string XmlEscape(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

std::string XmlAttributeEscape(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    // A reader normalises a literal tab, line feed or carriage return in an
    // attribute value to a space (XML 1.0 3.3.3); a character reference
    // keeps each as it is.
    switch (c) {
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        out += XmlEscape(absl::string_view(&c, 1));
    }
  }
  return out;
}

}  // namespace arbiter::tournament
