#include "adjudicator/tournament/names.h"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "adjudicator/tournament/utf8.h"
#include "utf8proc.h"

namespace arbiter::tournament {
namespace {

bool In(uint32_t cp, uint32_t lo, uint32_t hi) { return cp >= lo && cp <= hi; }

// Java's upper case of one code point (Character.toUpperCase, and
// SpecialCasing's unconditional expansions as String.toUpperCase applies
// them: ß -> SS, ŉ -> ʼN, ﬁ -> FI, ᾳ -> ΑΙ). utf8proc has the simple
// mapping; the expansions are exactly the lower and title case letters
// whose full case folding is several code points, and their upper case is
// the upper case of that folding (İ and ẞ, upper case already, stay).
void AppendUpper(uint32_t cp, std::string* out) {
  const auto c = static_cast<utf8proc_int32_t>(cp);
  if (utf8proc_category(c) != UTF8PROC_CATEGORY_LU) {
    utf8proc_int32_t folded[4];
    int boundclass = 0;
    const utf8proc_ssize_t n =
        utf8proc_decompose_char(c, folded, 4, UTF8PROC_CASEFOLD, &boundclass);
    if (n > 1 && n <= 4) {
      for (utf8proc_ssize_t i = 0; i < n; ++i) {
        AppendUtf8(static_cast<uint32_t>(utf8proc_toupper(folded[i])), out);
      }
      return;
    }
  }
  AppendUtf8(static_cast<uint32_t>(utf8proc_toupper(c)), out);
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

// Runs of white space as one space, trimmed, then Unicode's full case
// folding in NFC (utf8proc): MÜLLER and Müller, STRAUSS and Strauß, Zoë
// typed with a combining diaeresis, all compare equal. Turkish dotted and
// dotless i fold to plain i as well, so IŞIK, Işık and ISIK name the same
// player whichever keyboard typed them.
std::string Folded(absl::string_view s) {
  std::vector<absl::string_view> words =
      absl::StrSplit(s, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
  const std::string joined = absl::StrJoin(words, " ");
  utf8proc_uint8_t* mapped = nullptr;
  const utf8proc_ssize_t n = utf8proc_map(
      reinterpret_cast<const utf8proc_uint8_t*>(joined.data()),
      static_cast<utf8proc_ssize_t>(joined.size()), &mapped,
      static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD));
  if (n < 0) return absl::AsciiStrToLower(joined);  // not UTF-8: compare ASCII case only
  std::string folded(reinterpret_cast<const char*>(mapped), static_cast<size_t>(n));
  free(mapped);
  folded = absl::StrReplaceAll(folded, {{"i\xCC\x87", "i"}, {"\xC4\xB1", "i"}});  // i̇, ı
  return folded;
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

absl::Status CheckNamesEntered(const v1::TournamentEvent& event) {
  const v1::TournamentPlayer* p = nullptr;
  if (event.has_player_added()) p = &event.player_added().player();
  if (event.has_corrected() && event.corrected().has_player_updated()) {
    p = &event.corrected().player_updated().player();
  }
  if (p == nullptr) return absl::OkStatus();
  using Field = std::pair<absl::string_view, const std::string*>;
  for (const auto& [field, text] :
       {Field{"name", &p->name()}, Field{"firstName", &p->first_name()},
        Field{"romanizedFamilyName", &p->romanized_family_name()},
        Field{"romanizedGivenName", &p->romanized_given_name()}, Field{"club", &p->club()}}) {
    if (const std::optional<ControlAt> c = FirstControl(*text)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "player '%s': %s holds a control character (U+%04X at byte %d); a name is one line "
          "of text",
          p->id(), field, c->cp, c->at));
    }
  }
  return absl::OkStatus();
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
    AppendUpper(*cp, &out);
  }
  return out;
}

}  // namespace arbiter::tournament
