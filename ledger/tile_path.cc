#include "ledger/tile_path.h"

#include <algorithm>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace arbiter::ledger {
namespace {

// A decimal with no sign and no leading zero, at most `max`.
bool Decimal(absl::string_view s, uint64_t max, uint64_t* out) {
  if (s.empty() || s.size() > 20 || (s.size() > 1 && s[0] == '0') ||
      !std::all_of(s.begin(), s.end(), absl::ascii_isdigit)) {
    return false;
  }
  return absl::SimpleAtoi(s, out) && *out <= max;
}

}  // namespace

std::optional<uint64_t> TileAddress::EventsNeeded() const {
  const uint64_t items = index * kTileWidth + width;
  if (index > (~uint64_t{0} - width) / kTileWidth) return std::nullopt;
  const int shift = kTileHeight * level;
  if (shift >= 64 || items > (~uint64_t{0} >> shift)) return std::nullopt;
  return items << shift;
}

std::string FormatTilePath(const TileAddress& tile) {
  std::string n = absl::StrFormat("%03d", tile.index % 1000);
  for (uint64_t rest = tile.index / 1000; rest > 0; rest /= 1000) {
    n = absl::StrCat(absl::StrFormat("x%03d", rest % 1000), "/", n);
  }
  std::string path =
      absl::StrCat("tile/", tile.entries ? "entries" : absl::StrCat(tile.level), "/", n);
  if (!tile.full()) absl::StrAppend(&path, ".p/", tile.width);
  return path;
}

absl::StatusOr<TileAddress> ParseTilePath(absl::string_view path) {
  auto bad = [&] { return absl::InvalidArgumentError(absl::StrCat("not a tile path: ", path)); };
  if (!absl::ConsumePrefix(&path, "tile/")) return bad();
  TileAddress tile;
  const size_t slash = path.find('/');
  if (slash == absl::string_view::npos) return bad();
  const absl::string_view level = path.substr(0, slash);
  path.remove_prefix(slash + 1);
  if (level == "entries") {
    tile.entries = true;
  } else {
    uint64_t l = 0;
    if (!Decimal(level, kMaxTileLevel, &l)) return bad();
    tile.level = static_cast<int>(l);
  }
  // The width, then the index's groups.
  if (const size_t p = path.find(".p/"); p != absl::string_view::npos) {
    uint64_t w = 0;
    if (!Decimal(path.substr(p + 3), kTileWidth - 1, &w) || w == 0) return bad();
    tile.width = static_cast<int>(w);
    path = path.substr(0, p);
  }
  std::vector<absl::string_view> groups = absl::StrSplit(path, '/');
  tile.index = 0;
  for (size_t i = 0; i < groups.size(); ++i) {
    absl::string_view g = groups[i];
    const bool last = i + 1 == groups.size();
    if (!last && !absl::ConsumePrefix(&g, "x")) return bad();
    if (g.size() != 3 || !std::all_of(g.begin(), g.end(), absl::ascii_isdigit)) return bad();
    if (tile.index > (~uint64_t{0} - 999) / 1000) return bad();
    tile.index = tile.index * 1000 + static_cast<uint64_t>(std::stoi(std::string(g)));
  }
  // One spelling per index: no leading "x000" group.
  if (groups.size() > 1 && groups[0] == "x000") return bad();
  return tile;
}

}  // namespace arbiter::ledger
