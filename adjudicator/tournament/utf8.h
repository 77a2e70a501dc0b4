// UTF-8 one code point at a time, and the columns text takes on a
// terminal, through utf8proc (Unicode's own tables, kept current by its
// maintainers, rather than ranges copied by hand). Pure.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_UTF8_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_UTF8_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace arbiter::tournament {

// Decodes the code point at `*pos`, advancing it past it; nullopt (and
// `*pos` unchanged) if the bytes there are not UTF-8 (overlong forms and
// surrogates included).
std::optional<uint32_t> NextCodePoint(absl::string_view s, size_t* pos);

// Whether `cp` shows nothing by itself: Unicode's separators (Zs, Zl, Zp:
// the no-break and ideographic spaces among them) and format characters
// (Cf: zero-width spaces and joiners, direction marks, embeddings and
// isolates, the BOM). A name of these alone is blank.
bool IsInvisible(uint32_t cp);

// Whether `cp` is a control character (Cc: C0, DEL, C1).
bool IsControl(uint32_t cp);

// The first control character of `s` (IsControl) and its byte offset, or
// nullopt: what a name, which is one line of text, may not hold. Bytes that
// are not UTF-8 end the search (the request's bounds refuse them first).
struct ControlAt {
  uint32_t cp;
  size_t at;
};
std::optional<ControlAt> FirstControl(absl::string_view s);

// Appends `cp` encoded as UTF-8 (nothing if it is not a Unicode scalar value).
void AppendUtf8(uint32_t cp, std::string* out);

// The columns `s` takes on a terminal (utf8proc_charwidth: UAX #11 East
// Asian Width and emoji presentation): 2 for wide and fullwidth characters
// (CJK, kana, hangul, fullwidth forms, emoji), 0 for combining marks and
// other zero-width characters (joiners, variation selectors), 1 otherwise
// and for each byte that is not UTF-8. So a table of 李伟 and Wang Ming
// lines up.
int DisplayWidth(absl::string_view s);

// `s` followed by spaces up to `width` columns (DisplayWidth), unchanged if
// it is already as wide.
std::string PadToWidth(absl::string_view s, int width);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_UTF8_H_
