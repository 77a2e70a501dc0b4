#include "cli/nearest.h"

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace arbiter::cli {

int EditDistance(absl::string_view a, absl::string_view b) {
  const size_t n = a.size();
  const size_t m = b.size();
  // d[i][j]: the distance between a's first i and b's first j characters.
  std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = static_cast<int>(i);
  for (size_t j = 0; j <= m; ++j) d[0][j] = static_cast<int>(j);
  auto same = [](char x, char y) {
    return absl::ascii_tolower(static_cast<unsigned char>(x)) ==
           absl::ascii_tolower(static_cast<unsigned char>(y));
  };
  for (size_t i = 1; i <= n; ++i) {
    for (size_t j = 1; j <= m; ++j) {
      const int cost = same(a[i - 1], b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1])) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::optional<std::string> Nearest(absl::string_view typed,
                                   std::span<const absl::string_view> candidates) {
  std::optional<std::string> best;
  int best_distance = 0;
  for (absl::string_view c : candidates) {
    const int distance = EditDistance(typed, c);
    const int near = static_cast<int>(std::max(typed.size(), c.size()) / 3);
    const bool prefix = typed.size() >= 2 && absl::StartsWithIgnoreCase(c, typed);
    if (distance > std::max(near, 1) && !prefix) continue;
    if (!best.has_value() || distance < best_distance) {
      best = std::string(c);
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace arbiter::cli
