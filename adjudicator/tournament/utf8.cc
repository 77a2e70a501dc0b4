#include "adjudicator/tournament/utf8.h"

#include <algorithm>

namespace arbiter::tournament {

// Decodes one UTF-8 code point at `*pos`, advancing it; nullopt if malformed.
std::optional<uint32_t> NextCodePoint(absl::string_view s, size_t* pos) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b0 = byte(*pos);
  int extra = 0;
  uint32_t cp = 0;
  if (b0 < 0x80) {
    cp = b0;
  } else if ((b0 & 0xE0) == 0xC0) {
    extra = 1;
    cp = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    extra = 2;
    cp = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    extra = 3;
    cp = b0 & 0x07;
  } else {
    return std::nullopt;
  }
  if (*pos + extra >= s.size() && extra > 0) return std::nullopt;
  for (int i = 1; i <= extra; ++i) {
    const unsigned char b = byte(*pos + i);
    if ((b & 0xC0) != 0x80) return std::nullopt;
    cp = (cp << 6) | (b & 0x3F);
  }
  *pos += extra + 1;
  return cp;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

namespace {

// UAX #11 East Asian Width W and F ranges, the blocks a player's name or a
// tournament's title can hold (the full table also has symbols and emoji).
bool Wide(uint32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) ||  // Hangul Jamo initials
         (cp >= 0x2E80 && cp <= 0x303E) ||  // CJK radicals, punctuation
         (cp >= 0x3041 && cp <= 0x33FF) ||  // kana, bopomofo, CJK compatibility
         (cp >= 0x3400 && cp <= 0x4DBF) ||  // CJK extension A
         (cp >= 0x4E00 && cp <= 0x9FFF) ||  // CJK unified ideographs
         (cp >= 0xA000 && cp <= 0xA4CF) ||  // Yi
         (cp >= 0xAC00 && cp <= 0xD7A3) ||  // Hangul syllables
         (cp >= 0xF900 && cp <= 0xFAFF) ||  // CJK compatibility ideographs
         (cp >= 0xFE30 && cp <= 0xFE4F) ||  // CJK compatibility forms
         (cp >= 0xFF00 && cp <= 0xFF60) ||  // fullwidth forms
         (cp >= 0xFFE0 && cp <= 0xFFE6) ||  // fullwidth signs
         (cp >= 0x20000 && cp <= 0x3FFFD);  // CJK extensions B and later
}

bool Combining(uint32_t cp) {
  return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
         (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
         (cp >= 0xFE20 && cp <= 0xFE2F);
}

}  // namespace

int DisplayWidth(absl::string_view s) {
  int width = 0;
  size_t pos = 0;
  while (pos < s.size()) {
    std::optional<uint32_t> cp = NextCodePoint(s, &pos);
    if (!cp.has_value()) {
      ++pos;
      ++width;
    } else if (Wide(*cp)) {
      width += 2;
    } else if (!Combining(*cp)) {
      ++width;
    }
  }
  return width;
}

std::string PadToWidth(absl::string_view s, int width) {
  std::string out(s);
  out.append(static_cast<size_t>(std::max(0, width - DisplayWidth(s))), ' ');
  return out;
}

}  // namespace arbiter::tournament
