// UTF-8 one code point at a time, for the XML reader's character
// references and the case mapping of names. Pure.
#ifndef ARBITER_ADJUDICATOR_TOURNAMENT_UTF8_H_
#define ARBITER_ADJUDICATOR_TOURNAMENT_UTF8_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace arbiter::tournament {

// Decodes the code point at `*pos`, advancing it past it; nullopt (and
// `*pos` unchanged) if the bytes there are not UTF-8.
std::optional<uint32_t> NextCodePoint(absl::string_view s, size_t* pos);

// Appends `cp` encoded as UTF-8.
void AppendUtf8(uint32_t cp, std::string* out);

// The columns `s` takes on a terminal: 2 for East Asian wide and fullwidth
// characters (Unicode UAX #11 W and F: CJK ideographs, kana, hangul,
// fullwidth forms), 0 for combining marks, 1 otherwise and for each byte
// that is not UTF-8. So a table of 李伟 and Wang Ming lines up.
int DisplayWidth(absl::string_view s);

// `s` followed by spaces up to `width` columns (DisplayWidth), unchanged if
// it is already as wide.
std::string PadToWidth(absl::string_view s, int width);

}  // namespace arbiter::tournament

#endif  // ARBITER_ADJUDICATOR_TOURNAMENT_UTF8_H_
