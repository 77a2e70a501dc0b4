#include "adjudicator/tournament/utf8.h"

#include <algorithm>

#include "utf8proc.h"

namespace arbiter::tournament {

std::optional<uint32_t> NextCodePoint(absl::string_view s, size_t* pos) {
  if (*pos >= s.size()) return std::nullopt;
  utf8proc_int32_t cp;
  const utf8proc_ssize_t n =
      utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(s.data()) + *pos,
                       static_cast<utf8proc_ssize_t>(s.size() - *pos), &cp);
  if (n <= 0) return std::nullopt;
  *pos += static_cast<size_t>(n);
  return static_cast<uint32_t>(cp);
}

bool IsInvisible(uint32_t cp) {
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(cp))) {
    case UTF8PROC_CATEGORY_ZS:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP:
    case UTF8PROC_CATEGORY_CF:
      return true;
    default:
      return false;
  }
}

bool IsControl(uint32_t cp) {
  return utf8proc_category(static_cast<utf8proc_int32_t>(cp)) == UTF8PROC_CATEGORY_CC;
}

std::optional<ControlAt> FirstControl(absl::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t at = i;
    const std::optional<uint32_t> c = NextCodePoint(s, &i);
    if (!c.has_value()) break;
    if (IsControl(*c)) return ControlAt{*c, at};
  }
  return std::nullopt;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (!utf8proc_codepoint_valid(static_cast<utf8proc_int32_t>(cp))) return;
  utf8proc_uint8_t buf[4];
  const utf8proc_ssize_t n = utf8proc_encode_char(static_cast<utf8proc_int32_t>(cp), buf);
  out->append(reinterpret_cast<const char*>(buf), static_cast<size_t>(n));
}

int DisplayWidth(absl::string_view s) {
  int width = 0;
  size_t pos = 0;
  while (pos < s.size()) {
    std::optional<uint32_t> cp = NextCodePoint(s, &pos);
    if (!cp.has_value()) {
      ++pos;
      ++width;
    } else {
      width += utf8proc_charwidth(static_cast<utf8proc_int32_t>(*cp));
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
