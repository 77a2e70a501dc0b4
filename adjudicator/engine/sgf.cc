#include "adjudicator/engine/sgf.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "adjudicator/engine/point.h"

namespace arbiter {
namespace {

struct Value {
  std::string text;  // escapes resolved
  SgfPosition position;
};

struct Property {
  std::string id;  // the upper-case letters of the identifier as written
  std::vector<Value> values;
  SgfPosition position;
};

using Node = std::vector<Property>;

absl::Status ErrorAt(SgfPosition position, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(PositionText(position), ": ", why));
}

// Syntax of FF[4]: Collection = GameTree+, GameTree = "(" Node+ GameTree* ")",
// Node = ";" Property*, Property = UcLetter+ ("[" Value "]")+. FF[1]-FF[3]
// identifiers may also hold lower-case letters ("AddBlack", "VieW"), which a
// reader deletes (the specification's compatibility notes: "3->4: delete all
// lowercase letters from IDs"); the caller refuses them in an FF[4] file.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  // Fills `main_line` with the nodes of the first variation at every branch.
  // Where an identifier first had a lower-case letter, if anywhere.
  std::optional<SgfPosition> first_lower_case() const { return first_lower_case_; }

  absl::Status ParseCollection(std::vector<Node>& main_line) {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") {  // a UTF-8 byte order mark
      pos_ = 3;
    }
    SkipSpace();
    if (AtEnd()) return ErrorAt(Here(), "no game tree: the file is empty");
    if (Peek() != '(') return ErrorAt(Here(), "expected '(' to open the game tree");
    if (absl::Status s = ParseTree(&main_line, 0); !s.ok()) return s;
    SkipSpace();
    if (AtEnd()) return absl::OkStatus();
    if (Peek() == '(') return ErrorAt(Here(), "more than one game in the file");
    return ErrorAt(Here(), "unexpected text after the game tree");
  }

 private:
  static constexpr int kMaxDepth = 5000;

  // At '('. Nodes go to `out` unless it is null (a variation off the main
  // line, parsed for syntax only).
  absl::Status ParseTree(std::vector<Node>* out, int depth) {
    const SgfPosition open = Here();
    // Bounds the recursion, so that hostile input cannot exhaust the stack.
    if (depth > kMaxDepth) return ErrorAt(open, "variations nested too deeply");
    Advance();
    SkipSpace();
    if (AtEnd() || Peek() != ';') return ErrorAt(Here(), "expected ';' to start a node");
    while (!AtEnd() && Peek() == ';') {
      Advance();
      Node node;
      if (absl::Status s = ParseNode(node); !s.ok()) return s;
      if (out != nullptr) out->push_back(std::move(node));
      SkipSpace();
    }
    bool first_child = true;
    while (!AtEnd() && Peek() == '(') {
      if (absl::Status s = ParseTree(first_child ? out : nullptr, depth + 1); !s.ok()) return s;
      first_child = false;
      SkipSpace();
    }
    if (AtEnd()) return ErrorAt(open, "game tree is not closed with ')'");
    if (Peek() != ')') {
      return ErrorAt(Here(),
                     absl::StrCat("unexpected '", std::string(1, Peek()), "' in a game tree"));
    }
    Advance();
    return absl::OkStatus();
  }

  absl::Status ParseNode(Node& node) {
    SkipSpace();
    while (!AtEnd() && std::isalpha(static_cast<unsigned char>(Peek()))) {
      Property property;
      property.position = Here();
      while (!AtEnd() && std::isalpha(static_cast<unsigned char>(Peek()))) {
        if (std::isupper(static_cast<unsigned char>(Peek()))) {
          property.id.push_back(Peek());
        } else if (!first_lower_case_.has_value()) {
          first_lower_case_ = Here();
        }
        Advance();
      }
      if (property.id.empty()) {
        return ErrorAt(property.position,
                       "a property name needs an upper-case letter (lower-case ones are ignored)");
      }
      SkipSpace();
      if (AtEnd() || Peek() != '[') {
        return ErrorAt(property.position, absl::StrCat("property ", property.id, " has no value"));
      }
      while (!AtEnd() && Peek() == '[') {
        Value value;
        if (absl::Status s = ParseValue(value); !s.ok()) return s;
        property.values.push_back(std::move(value));
        SkipSpace();
      }
      node.push_back(std::move(property));
    }
    return absl::OkStatus();
  }

  // At '['; resolves escapes: "\]" is ']', "\\" is '\', and a backslash before
  // a line break removes both (a soft line break).
  absl::Status ParseValue(Value& value) {
    value.position = Here();
    Advance();
    while (true) {
      if (AtEnd()) return ErrorAt(value.position, "property value is not closed with ']'");
      char c = Peek();
      Advance();
      if (c == ']') return absl::OkStatus();
      if (c == '\\') {
        if (AtEnd()) return ErrorAt(value.position, "property value is not closed with ']'");
        c = Peek();
        Advance();
        if (c == '\r' && !AtEnd() && Peek() == '\n') Advance();
        if (c == '\n' || c == '\r') continue;
      }
      value.text.push_back(c);
    }
  }

  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return text_[pos_]; }
  SgfPosition Here() const { return {line_, column_}; }
  void Advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }
  void SkipSpace() {
    while (!AtEnd() && std::isspace(static_cast<unsigned char>(Peek()))) Advance();
  }

  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
  std::optional<SgfPosition> first_lower_case_;
};

// Well-formed UTF-8 as RFC 3629 defines it (no overlong forms, surrogates
// or code points above U+10FFFF), the same test protobuf applies to strings.
bool IsValidUtf8(std::string_view text) {
  size_t i = 0;
  auto at = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  while (i < text.size()) {
    const unsigned char lead = at(i);
    int extra = 0;
    unsigned char low = 0x80, high = 0xBF;  // bounds of the second byte
    if (lead < 0x80) {
      ++i;
      continue;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
      extra = 1;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      extra = 2;
      if (lead == 0xE0) low = 0xA0;
      if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      extra = 3;
      if (lead == 0xF0) low = 0x90;
      if (lead == 0xF4) high = 0x8F;
    } else {
      return false;
    }
    if (i + extra >= text.size()) return false;  // truncated sequence
    if (at(i + 1) < low || at(i + 1) > high) return false;
    for (int k = 2; k <= extra; ++k) {
      if (at(i + k) < 0x80 || at(i + k) > 0xBF) return false;
    }
    i += extra + 1;
  }
  return true;
}

// SGF's default charset is ISO-8859-1 (CA), while most files today are
// UTF-8 whatever they declare: text that is valid UTF-8 stays as it is, any
// other is read as Latin-1, so that names reach the events intact.
std::string ToUtf8(const std::string& text) {
  if (IsValidUtf8(text)) return text;
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80) {
      out.push_back(c);
    } else {
      out.push_back(static_cast<char>(0xC0 | (byte >> 6)));
      out.push_back(static_cast<char>(0x80 | (byte & 0x3F)));
    }
  }
  return out;
}

// SimpleText: line breaks and tabs become spaces, ends trimmed, UTF-8.
std::string SimpleText(const Value& value) {
  std::string text = ToUtf8(value.text);
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return std::string(absl::StripAsciiWhitespace(text));
}

absl::StatusOr<const Value*> SingleValue(const Property& property) {
  if (property.values.size() != 1) {
    return ErrorAt(
        property.position,
        absl::StrCat("property ", property.id, " takes one value, not ", property.values.size()));
  }
  return &property.values[0];
}

// An SGF point "pd": column letter then row letter counted from the top.
absl::StatusOr<int> SgfPoint(absl::string_view text, SgfPosition position, int size) {
  if (text.size() != 2 || text[0] < 'a' || text[1] < 'a' || text[0] >= 'a' + size ||
      text[1] >= 'a' + size) {
    return ErrorAt(position,
                   absl::StrCat("\"", text, "\" is not a point of a ", size, "x", size, " board"));
  }
  return VertexAt(text[0] - 'a', size - (text[1] - 'a'), size);
}

// One or a compressed list of points ("aa:cc" is the rectangle between them).
// `taken` marks the points already given a setup stone.
absl::Status AddPoints(const Property& property, int size, std::vector<bool>& taken,
                       std::vector<int>& out) {
  for (const Value& value : property.values) {
    const std::vector<absl::string_view> corners = absl::StrSplit(value.text, ':');
    if (corners.size() > 2) return ErrorAt(value.position, "a point list has at most one ':'");
    absl::StatusOr<int> a = SgfPoint(corners[0], value.position, size);
    if (!a.ok()) return a.status();
    absl::StatusOr<int> b = corners.size() == 2 ? SgfPoint(corners[1], value.position, size) : a;
    if (!b.ok()) return b.status();
    const int c0 = ColumnOf(*a, size), c1 = ColumnOf(*b, size);
    const int r0 = RowOf(*a, size), r1 = RowOf(*b, size);
    for (int c = std::min(c0, c1); c <= std::max(c0, c1); ++c) {
      for (int r = std::min(r0, r1); r <= std::max(r0, r1); ++r) {
        const int v = VertexAt(c, r, size);
        if (taken[v]) {
          return ErrorAt(value.position, absl::StrCat("two setup stones on ", PointName(v, size)));
        }
        taken[v] = true;
        out.push_back(v);
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<double> Real(const Property& property) {
  absl::StatusOr<const Value*> value = SingleValue(property);
  if (!value.ok()) return value.status();
  double number = 0;
  if (!absl::SimpleAtod((*value)->text, &number)) {
    return ErrorAt((*value)->position, absl::StrCat("property ", property.id, " value \"",
                                                    (*value)->text, "\" is not a number"));
  }
  return number;
}

absl::StatusOr<v1::Color> ColorValue(const Property& property) {
  absl::StatusOr<const Value*> value = SingleValue(property);
  if (!value.ok()) return value.status();
  if ((*value)->text == "B") return v1::BLACK;
  if ((*value)->text == "W") return v1::WHITE;
  return ErrorAt((*value)->position, absl::StrCat("property ", property.id,
                                                  " must be B or W, not \"", (*value)->text, "\""));
}

absl::Status ReadBoardSize(const Node& root, SgfGame& game) {
  for (const Property& property : root) {
    if (property.id == "GM") {
      absl::StatusOr<const Value*> value = SingleValue(property);
      if (!value.ok()) return value.status();
      if ((*value)->text != "1") {
        return ErrorAt((*value)->position,
                       absl::StrCat("GM[", (*value)->text, "] is not a Go game"));
      }
    }
    if (property.id != "SZ") continue;
    absl::StatusOr<const Value*> value = SingleValue(property);
    if (!value.ok()) return value.status();
    const std::vector<absl::string_view> sides = absl::StrSplit((*value)->text, ':');
    int columns = 0, rows = 0;
    if (sides.size() > 2 || !absl::SimpleAtoi(sides[0], &columns) ||
        !absl::SimpleAtoi(sides.back(), &rows)) {
      return ErrorAt((*value)->position,
                     absl::StrCat("SZ[", (*value)->text, "] is not a board size"));
    }
    if (columns != rows || !IsSupportedBoardSize(columns)) {
      return ErrorAt((*value)->position,
                     absl::StrCat("board size ", (*value)->text,
                                  " is not supported: only 19x19, 13x13 and 9x9"));
    }
    game.board_size = columns;
  }
  return absl::OkStatus();
}

// No game clock shows more than a year; a larger BL/WL is a corrupt file
// (the sgf fuzzer's 2077777...s overflowed absl::Duration to infinity,
// which no event can carry).
constexpr int kMaxTimeLeftSeconds = 365 * 24 * 3600;

absl::Status ReadRootProperty(const Property& property, std::vector<bool>& taken, SgfGame& game) {
  const std::string& id = property.id;
  std::string* text = nullptr;
  if (id == "PB") text = &game.black_name;
  if (id == "BR") text = &game.black_rank;
  if (id == "PW") text = &game.white_name;
  if (id == "WR") text = &game.white_rank;
  if (id == "DT") text = &game.date;
  if (id == "GN") text = &game.game_name;
  if (id == "RE") text = &game.result;
  if (id == "OT") text = &game.overtime;
  if (text != nullptr) {
    absl::StatusOr<const Value*> value = SingleValue(property);
    if (!value.ok()) return value.status();
    *text = SimpleText(**value);
    return absl::OkStatus();
  }
  if (id == "KM") {
    absl::StatusOr<double> komi = Real(property);
    if (!komi.ok()) return komi.status();
    game.komi = *komi;
  } else if (id == "TM") {
    // A time limit in seconds; written otherwise ("3h") it says nothing a
    // clock can use, so it is ignored, as a game-info property that cannot
    // be corrected is preserved rather than refused.
    absl::StatusOr<double> seconds = Real(property);
    if (seconds.ok() && *seconds >= 0 && *seconds <= kMaxTimeLeftSeconds) {
      game.time_limit = absl::Milliseconds(std::llround(*seconds * 1000));
    }
  } else if (id == "FF") {
    absl::StatusOr<const Value*> value = SingleValue(property);
    if (!value.ok()) return value.status();
    int format = 0;
    if (absl::SimpleAtoi((*value)->text, &format)) game.file_format = format;
  } else if (id == "AB") {
    return AddPoints(property, game.board_size, taken, game.setup_black);
  } else if (id == "AW") {
    return AddPoints(property, game.board_size, taken, game.setup_white);
  } else if (id == "PL") {
    absl::StatusOr<v1::Color> color = ColorValue(property);
    if (!color.ok()) return color.status();
    game.player_to_move = *color;
  }
  return absl::OkStatus();
}

absl::Status ReadMoveNode(const Node& node, int size, std::vector<SgfMove>& moves) {
  const Property* move = nullptr;
  const Property* black_time = nullptr;
  const Property* white_time = nullptr;
  const Property* black_count = nullptr;
  const Property* white_count = nullptr;
  for (const Property& property : node) {
    if (property.id == "B" || property.id == "W") {
      if (move != nullptr) return ErrorAt(property.position, "two moves in one node");
      move = &property;
    } else if (property.id == "BL") {
      black_time = &property;
    } else if (property.id == "WL") {
      white_time = &property;
    } else if (property.id == "OB") {
      black_count = &property;
    } else if (property.id == "OW") {
      white_count = &property;
    }
  }
  if (move == nullptr) return absl::OkStatus();
  SgfMove out;
  out.color = move->id == "B" ? v1::BLACK : v1::WHITE;
  out.position = move->position;
  absl::StatusOr<const Value*> value = SingleValue(*move);
  if (!value.ok()) return value.status();
  const std::string& point = (*value)->text;
  // FF[4]: an empty value is a pass; "tt" also is one on boards up to 19x19.
  if (!point.empty() && point != "tt") {
    absl::StatusOr<int> vertex = SgfPoint(point, (*value)->position, size);
    if (!vertex.ok()) return vertex.status();
    out.vertex = *vertex;
  }
  if (const Property* time = out.color == v1::BLACK ? black_time : white_time; time != nullptr) {
    absl::StatusOr<double> seconds = Real(*time);
    if (!seconds.ok()) return seconds.status();
    if (*seconds < 0) return ErrorAt(time->position, absl::StrCat(time->id, " is negative"));
    if (!(*seconds <= kMaxTimeLeftSeconds)) {  // also NaN
      return ErrorAt(time->position, absl::StrCat(time->id, " is more than ", kMaxTimeLeftSeconds,
                                                  " seconds (a year)"));
    }
    // To the millisecond, so that what each move used adds up exactly.
    out.time_left = absl::Milliseconds(std::llround(*seconds * 1000));
  }
  if (const Property* count = out.color == v1::BLACK ? black_count : white_count;
      count != nullptr) {
    absl::StatusOr<const Value*> value = SingleValue(*count);
    if (!value.ok()) return value.status();
    int n = 0;
    if (!absl::SimpleAtoi((*value)->text, &n) || n < 0) {
      return ErrorAt((*value)->position,
                     absl::StrCat("property ", count->id, " value \"", (*value)->text,
                                  "\" is not a number of moves or periods"));
    }
    out.overtime_count = n;
  }
  moves.push_back(std::move(out));
  return absl::OkStatus();
}

}  // namespace

std::string PositionText(SgfPosition position) {
  return absl::StrCat("line ", position.line, ", column ", position.column);
}

absl::StatusOr<SgfGame> ParseSgf(std::string_view text) {
  std::vector<Node> nodes;
  Parser parser(text);
  if (absl::Status s = parser.ParseCollection(nodes); !s.ok()) return s;

  SgfGame game;
  if (absl::Status s = ReadBoardSize(nodes.front(), game); !s.ok()) return s;
  std::vector<bool> taken(PaddedArea(game.board_size), false);
  for (const Property& property : nodes.front()) {
    if (absl::Status s = ReadRootProperty(property, taken, game); !s.ok()) return s;
  }
  // FF[4]: PropIdent = UcLetter { UcLetter }. Older formats (FF defaults to
  // 1) wrote lower-case letters that readers ignore.
  if (game.file_format >= 4 && parser.first_lower_case().has_value()) {
    return ErrorAt(*parser.first_lower_case(),
                   "a property name must be upper-case letters in FF[4] (only FF[1]-FF[3] "
                   "may add lower-case ones)");
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (const Property& property : nodes[i]) {
      if (i > 0 && (property.id == "AB" || property.id == "AW" || property.id == "AE")) {
        return ErrorAt(property.position, absl::StrCat("setup property ", property.id,
                                                       " after the root node is not supported"));
      }
    }
    if (absl::Status s = ReadMoveNode(nodes[i], game.board_size, game.moves); !s.ok()) return s;
  }
  return game;
}

}  // namespace arbiter
