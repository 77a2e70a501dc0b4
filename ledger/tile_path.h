// The resources of a tiled transparency log (C2SP tlog-tiles):
//
//   tile/<L>/<N>[.p/<W>]        the hashes at height 8·L, 256 to a full tile
//   tile/entries/<N>[.p/<W>]    the entries themselves (level 0's leaves)
//
// <N> is written in 3-digit groups, all but the last prefixed with 'x'
// (1234067 is x001/x234/067); .p/<W> marks a partial tile of W < 256 items.
#ifndef ARBITER_LEDGER_TILE_PATH_H_
#define ARBITER_LEDGER_TILE_PATH_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace arbiter::ledger {

inline constexpr int kTileHeight = 8;   // levels of the tree per tile level
inline constexpr int kTileWidth = 256;  // items of a full tile
inline constexpr int kMaxTileLevel = 63;

struct TileAddress {
  bool entries = false;  // an entry bundle (then level is 0)
  int level = 0;
  uint64_t index = 0;
  int width = kTileWidth;  // 1..256; below 256: a partial tile

  bool full() const { return width == kTileWidth; }
  // The number of events a log must hold for this tile to exist:
  // (index·256 + width)·256^level; nullopt beyond any uint64 log.
  std::optional<uint64_t> EventsNeeded() const;
};

// The path of `tile`, without a leading slash ("tile/0/x001/234.p/5").
std::string FormatTilePath(const TileAddress& tile);

// Parses a path as FormatTilePath writes it (no leading slash). Exactly one
// spelling is accepted per tile: INVALID_ARGUMENT for a level beyond 63 or
// with a leading zero, a group that is not 3 digits or lacks its 'x', a
// width outside 1..255 or with a leading zero, or anything else.
absl::StatusOr<TileAddress> ParseTilePath(absl::string_view path);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_TILE_PATH_H_
