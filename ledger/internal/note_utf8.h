// The UTF-8 decoding signed notes need (their texts and key names must be
// valid UTF-8, as Go's note package checks), kept to one place.
#ifndef ARBITER_LEDGER_INTERNAL_NOTE_UTF8_H_
#define ARBITER_LEDGER_INTERNAL_NOTE_UTF8_H_

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace arbiter::ledger {

// Decodes the code point at `s[*i]` and advances `*i` past it; -1 for a
// malformed, overlong or surrogate sequence (then `*i` is unchanged).
inline int32_t NextRune(absl::string_view s, size_t* i) {
  const auto c = static_cast<uint8_t>(s[*i]);
  const int n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || *i + n > s.size()) return -1;
  int32_t r = n == 1 ? c : c & (0x7F >> n);
  for (int k = 1; k < n; ++k) {
    const auto b = static_cast<uint8_t>(s[*i + k]);
    if ((b >> 6) != 0x2) return -1;
    r = (r << 6) | (b & 0x3F);
  }
  static constexpr int32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (r < kMin[n] || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) return -1;
  *i += n;
  return r;
}

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_NOTE_UTF8_H_
