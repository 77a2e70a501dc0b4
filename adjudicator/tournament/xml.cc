#include "adjudicator/tournament/xml.h"

#include <cstdint>

#include "absl/strings/str_cat.h"
#include "adjudicator/tournament/utf8.h"

namespace arbiter::tournament {
namespace {

bool IsNameStart(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool IsNameChar(char c) { return IsNameStart(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Parser {
 public:
  explicit Parser(absl::string_view text) : s_(text) {}

  absl::StatusOr<std::unique_ptr<XmlElement>> Document() {
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a UTF-8 byte order mark
    SkipSpace();
    if (Starts("<?xml")) {
      size_t end = s_.find("?>", pos_);
      if (end == absl::string_view::npos) return Error("unterminated XML declaration");
      Advance(end + 2 - pos_);
    }
    if (absl::Status s = Misc(); !s.ok()) return s;
    if (AtEnd() || s_[pos_] != '<') return Error("expected the root element");
    absl::StatusOr<std::unique_ptr<XmlElement>> root = Element(0);
    if (!root.ok()) return root.status();
    if (absl::Status s = Misc(); !s.ok()) return s;
    if (!AtEnd()) return Error("content after the root element");
    return root;
  }

 private:
  static constexpr int kMaxDepth = 64;

  bool AtEnd() const { return pos_ >= s_.size(); }
  bool Starts(absl::string_view p) const { return s_.substr(pos_, p.size()) == p; }
  void Advance(size_t n) {
    for (size_t i = 0; i < n && pos_ < s_.size(); ++i, ++pos_) {
      if (s_[pos_] == '\n') {
        ++line_;
        col_ = 1;
      } else {
        ++col_;
      }
    }
  }
  void SkipSpace() {
    while (!AtEnd() && IsSpace(s_[pos_])) Advance(1);
  }
  absl::Status Error(absl::string_view why) const { return ErrorAt(line_, col_, why); }
  static absl::Status ErrorAt(int line, int col, absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("line ", line, ", column ", col, ": ", why));
  }

  // Whitespace and comments between top-level constructs.
  absl::Status Misc() {
    for (;;) {
      SkipSpace();
      if (Starts("<!--")) {
        if (absl::Status s = Comment(); !s.ok()) return s;
      } else if (Starts("<!DOCTYPE") || Starts("<?")) {
        return Error("DTDs and processing instructions are not supported");
      } else {
        return absl::OkStatus();
      }
    }
  }

  absl::Status Comment() {
    size_t end = s_.find("-->", pos_ + 4);
    if (end == absl::string_view::npos) return Error("unterminated comment");
    Advance(end + 3 - pos_);
    return absl::OkStatus();
  }

  absl::StatusOr<std::string> Name() {
    if (AtEnd() || !IsNameStart(s_[pos_])) return Error("expected a name");
    size_t start = pos_;
    while (!AtEnd() && IsNameChar(s_[pos_])) Advance(1);
    return std::string(s_.substr(start, pos_ - start));
  }

  // Decodes character data up to `stop` (exclusive) into `out`.
  absl::Status Text(char stop, std::string* out) {
    while (!AtEnd() && s_[pos_] != stop) {
      char c = s_[pos_];
      if (c == '<') return Error("'<' inside a value");
      if (c != '&') {
        out->push_back(c);
        Advance(1);
        continue;
      }
      size_t semi = s_.find(';', pos_);
      if (semi == absl::string_view::npos || semi - pos_ > 12) return Error("unterminated entity");
      absl::string_view ent = s_.substr(pos_ + 1, semi - pos_ - 1);
      if (ent == "amp")
        out->push_back('&');
      else if (ent == "lt")
        out->push_back('<');
      else if (ent == "gt")
        out->push_back('>');
      else if (ent == "quot")
        out->push_back('"');
      else if (ent == "apos")
        out->push_back('\'');
      else if (!ent.empty() && ent[0] == '#') {
        bool hex = ent.size() > 1 && ent[1] == 'x';
        absl::string_view digits = ent.substr(hex ? 2 : 1);
        if (digits.empty()) return Error("empty character reference");
        uint32_t cp = 0;
        for (char d : digits) {
          int v = (d >= '0' && d <= '9')        ? d - '0'
                  : hex && d >= 'a' && d <= 'f' ? d - 'a' + 10
                  : hex && d >= 'A' && d <= 'F' ? d - 'A' + 10
                                                : -1;
          if (v < 0) return Error(absl::StrCat("bad character reference &", ent, ";"));
          cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(v);
          if (cp > 0x10FFFF) return Error("character reference out of range");
        }
        if (cp == 0) return Error("character reference to NUL");
        AppendUtf8(cp, out);
      } else {
        return Error(absl::StrCat("unknown entity &", ent, ";"));
      }
      Advance(semi + 1 - pos_);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::unique_ptr<XmlElement>> Element(int depth) {
    if (depth > kMaxDepth) return Error("elements nested too deeply");
    auto e = std::make_unique<XmlElement>();
    e->line = line_;
    Advance(1);  // '<'
    absl::StatusOr<std::string> name = Name();
    if (!name.ok()) return name.status();
    e->name = *std::move(name);
    for (;;) {
      size_t before = pos_;
      SkipSpace();
      if (AtEnd()) return Error(absl::StrCat("unterminated start tag <", e->name, ">"));
      if (Starts("/>")) {
        Advance(2);
        return e;
      }
      if (s_[pos_] == '>') {
        Advance(1);
        break;
      }
      if (pos_ == before) return Error("expected whitespace before an attribute");
      const int key_line = line_, key_col = col_;
      absl::StatusOr<std::string> key = Name();
      if (!key.ok()) return key.status();
      if (e->Attribute(*key) != nullptr) {
        return ErrorAt(key_line, key_col, absl::StrCat("duplicate attribute ", *key));
      }
      SkipSpace();
      if (AtEnd() || s_[pos_] != '=') return Error(absl::StrCat("expected '=' after ", *key));
      Advance(1);
      SkipSpace();
      if (AtEnd() || (s_[pos_] != '"' && s_[pos_] != '\'')) return Error("expected a quoted value");
      char quote = s_[pos_];
      Advance(1);
      std::string value;
      if (absl::Status s = Text(quote, &value); !s.ok()) return s;
      if (AtEnd()) return Error("unterminated attribute value");
      Advance(1);
      e->attributes.emplace_back(*std::move(key), std::move(value));
    }
    // Content.
    for (;;) {
      if (AtEnd())
        return Error(absl::StrCat("element <", e->name, "> (line ", e->line, ") is not closed"));
      if (Starts("</")) {
        const int end_line = line_, end_col = col_;
        Advance(2);
        absl::StatusOr<std::string> end = Name();
        if (!end.ok()) return end.status();
        if (*end != e->name) {
          return ErrorAt(
              end_line, end_col,
              absl::StrCat("</", *end, "> closes <", e->name, "> opened on line ", e->line));
        }
        SkipSpace();
        if (AtEnd() || s_[pos_] != '>') return Error("expected '>'");
        Advance(1);
        return e;
      }
      if (Starts("<!--")) {
        if (absl::Status s = Comment(); !s.ok()) return s;
      } else if (Starts("<![CDATA[")) {
        size_t end = s_.find("]]>", pos_);
        if (end == absl::string_view::npos) return Error("unterminated CDATA section");
        absl::StrAppend(&e->text, s_.substr(pos_ + 9, end - pos_ - 9));
        Advance(end + 3 - pos_);
      } else if (Starts("<!") || Starts("<?")) {
        return Error("DTDs and processing instructions are not supported");
      } else if (s_[pos_] == '<') {
        absl::StatusOr<std::unique_ptr<XmlElement>> child = Element(depth + 1);
        if (!child.ok()) return child.status();
        e->children.push_back(*std::move(child));
      } else {
        if (absl::Status s = Text('<', &e->text); !s.ok()) return s;
      }
    }
  }

  absl::string_view s_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
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
  return Parser(text).Document();
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

}  // namespace arbiter::tournament
