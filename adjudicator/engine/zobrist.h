// Zobrist keys: one random 64-bit key per (colour, vertex) and one for
// "White to move", so a board's hash is the XOR of the keys of its stones and
// a situation (art. 6: board plus side to move) is that hash XOR the side key.
// The keys are fixed at compile time so hashes are stable across runs.
#ifndef ARBITER_ADJUDICATOR_ENGINE_ZOBRIST_H_
#define ARBITER_ADJUDICATOR_ENGINE_ZOBRIST_H_

#include <array>
#include <cstdint>

#include "adjudicator/engine/point.h"

namespace arbiter::zobrist {

namespace internal {

// splitmix64: a well-mixed, reproducible sequence.
constexpr uint64_t SplitMix(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

struct Keys {
  // Index 0 is unused so that the table can be indexed by Stone (1 black, 2 white).
  std::array<std::array<uint64_t, kMaxPaddedArea>, 3> stone{};
  uint64_t white_to_move = 0;
};

constexpr Keys MakeKeys() {
  Keys keys;
  uint64_t state = 0x61726269746572ULL;  // "arbiter"
  for (int color = 1; color <= 2; ++color) {
    for (int v = 0; v < kMaxPaddedArea; ++v) keys.stone[color][v] = SplitMix(state);
  }
  keys.white_to_move = SplitMix(state);
  return keys;
}

inline constexpr Keys kKeys = MakeKeys();

}  // namespace internal

// `color` is 1 (black) or 2 (white); `vertex` an index of a padded array.
inline uint64_t StoneKey(int color, int vertex) { return internal::kKeys.stone[color][vertex]; }

inline uint64_t WhiteToMoveKey() { return internal::kKeys.white_to_move; }

}  // namespace arbiter::zobrist

#endif  // ARBITER_ADJUDICATOR_ENGINE_ZOBRIST_H_
