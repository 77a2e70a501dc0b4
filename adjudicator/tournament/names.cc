#include "adjudicator/tournament/names.h"

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "adjudicator/tournament/utf8.h"

namespace arbiter::tournament {
namespace {

bool In(uint32_t cp, uint32_t lo, uint32_t hi) { return cp >= lo && cp <= hi; }

// Java's upper case of one code point (Unicode's, with SpecialCasing's
// ß -> SS and ŉ -> ʼN), in the blocks this file knows; nullopt elsewhere.
std::optional<std::vector<uint32_t>> Upper(uint32_t cp) {
  using V = std::vector<uint32_t>;
  if (cp < 0x80) return V{cp >= 'a' && cp <= 'z' ? cp - 0x20 : cp};
  if (cp == 0xB5) return V{0x39C};     // µ -> Μ
  if (cp == 0xDF) return V{'S', 'S'};  // ß -> SS
  if (cp == 0xFF) return V{0x178};     // ÿ -> Ÿ
  if (In(cp, 0xE0, 0xFE) && cp != 0xF7) return V{cp - 0x20};
  if (In(cp, 0x80, 0xFE)) return V{cp};     // upper case letters and symbols
  if (In(cp, 0x100, 0x17F)) {               // Latin Extended-A
    if (cp == 0x131) return V{'I'};         // dotless ı
    if (cp == 0x138) return V{cp};          // ĸ has no upper case
    if (cp == 0x149) return V{0x2BC, 'N'};  // ŉ -> ʼN
    if (cp == 0x17F) return V{'S'};         // long ſ
    if (cp == 0x178) return V{cp};
    const bool odd_lower = In(cp, 0x100, 0x137) || In(cp, 0x14A, 0x177);
    if (odd_lower) return V{cp % 2 == 1 ? cp - 1 : cp};
    return V{cp % 2 == 0 ? cp - 1 : cp};  // 0x139-0x148, 0x179-0x17E
  }
  if (In(cp, 0x391, 0x3A9) || In(cp, 0x386, 0x38F)) return V{cp};  // Greek capitals
  if (cp == 0x3C2) return V{0x3A3};                                // final ς -> Σ
  if (In(cp, 0x3B1, 0x3C9)) return V{cp - 0x20};
  if (cp == 0x3AC) return V{0x386};
  if (In(cp, 0x3AD, 0x3AF)) return V{cp - 0x25};
  if (In(cp, 0x3CA, 0x3CB)) return V{cp - 0x20};
  if (cp == 0x3CC) return V{0x38C};
  if (In(cp, 0x3CD, 0x3CE)) return V{cp - 0x3F};
  if (In(cp, 0x400, 0x42F)) return V{cp};  // Cyrillic capitals
  if (In(cp, 0x430, 0x44F)) return V{cp - 0x20};
  if (In(cp, 0x450, 0x45F)) return V{cp - 0x50};
  if (In(cp, 0xFF41, 0xFF5A)) return V{cp - 0x20};  // full-width a-z
  // Caseless: punctuation, CJK symbols, kana, CJK ideographs, Hangul,
  // compatibility ideographs, the rest of the full-width forms, and the
  // supplementary ideographs.
  if (In(cp, 0x2000, 0x206F) || In(cp, 0x3000, 0x30FF) || In(cp, 0x3400, 0x4DBF) ||
      In(cp, 0x4E00, 0x9FFF) || In(cp, 0xAC00, 0xD7AF) || In(cp, 0xF900, 0xFAFF) ||
      In(cp, 0xFF01, 0xFF40) || In(cp, 0xFF5B, 0xFFEF) || In(cp, 0x20000, 0x3FFFF)) {
    return V{cp};
  }
  return std::nullopt;
}

bool IsCjk(absl::string_view s) {
  if (s.empty()) return false;
  size_t pos = 0;
  while (pos < s.size()) {
    std::optional<uint32_t> cp = NextCodePoint(s, &pos);
    if (!cp.has_value() ||
        !(In(*cp, 0x3400, 0x9FFF) || In(*cp, 0x3040, 0x30FF) || In(*cp, 0xAC00, 0xD7AF) ||
          In(*cp, 0xF900, 0xFAFF) || In(*cp, 0x20000, 0x3FFFF))) {
      return false;
    }
  }
  return true;
}

// Lower-cased ASCII, runs of white space as one space, trimmed.
std::string Folded(absl::string_view s) {
  std::vector<absl::string_view> words =
      absl::StrSplit(s, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
  return absl::AsciiStrToLower(absl::StrJoin(words, " "));
}

}  // namespace

std::string NativeName(const v1::TournamentPlayer& p) {
  if (p.first_name().empty()) return p.name();
  if (IsCjk(p.name()) && IsCjk(p.first_name())) return absl::StrCat(p.name(), p.first_name());
  return absl::StrCat(p.name(), " ", p.first_name());
}

bool IsPrintableAscii(absl::string_view s) {
  for (char c : s) {
    if (c < 0x20 || c > 0x7E) return false;
  }
  return true;
}

absl::StatusOr<RomanizedName> Romanized(const v1::TournamentPlayer& p, absl::string_view format) {
  if (!p.romanized_family_name().empty())
    return RomanizedName{p.romanized_family_name(), p.romanized_given_name()};
  if (IsPrintableAscii(p.name()) && IsPrintableAscii(p.first_name()))
    return RomanizedName{p.name(), p.first_name()};
  return absl::InvalidArgumentError(
      absl::StrCat("player '", p.id(), "' (", NativeName(p), ") has no romanized name, and ",
                   format, " is ASCII: give the family and given names in Latin letters"));
}

bool RecordedAs(const v1::TournamentPlayer& p, absl::string_view recorded) {
  const std::string r = Folded(recorded);
  if (r.empty()) return false;
  std::vector<std::string> names = {p.id(),
                                    p.name(),
                                    NativeName(p),
                                    absl::StrCat(p.name(), p.first_name()),
                                    absl::StrCat(p.name(), " ", p.first_name()),
                                    absl::StrCat(p.first_name(), " ", p.name())};
  if (!p.romanized_family_name().empty()) {
    names.push_back(absl::StrCat(p.romanized_family_name(), " ", p.romanized_given_name()));
    names.push_back(absl::StrCat(p.romanized_given_name(), " ", p.romanized_family_name()));
    names.push_back(absl::StrCat(p.romanized_family_name(), ", ", p.romanized_given_name()));
  }
  for (const std::string& n : names) {
    if (!Folded(n).empty() && Folded(n) == r) return true;
  }
  return false;
}

absl::StatusOr<std::string> JavaUpperCase(absl::string_view utf8) {
  std::string out;
  size_t pos = 0;
  while (pos < utf8.size()) {
    const size_t at = pos;
    std::optional<uint32_t> cp = NextCodePoint(utf8, &pos);
    if (!cp.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"", utf8, "\" is not UTF-8 (byte ", at + 1, ")"));
    }
    std::optional<std::vector<uint32_t>> up = Upper(*cp);
    if (!up.has_value()) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "\"%s\": the upper case of U+%04X is not known here", std::string(utf8), *cp));
    }
    for (uint32_t u : *up) AppendUtf8(u, &out);
  }
  return out;
}

}  // namespace arbiter::tournament
