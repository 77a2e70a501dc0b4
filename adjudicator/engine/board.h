// The board of one game under the 2002 rules, articles 2-6 and 20.
//
// Stones live in a padded one-dimensional array (see point.h). Each chain is a
// circular list through next_ with a head; the head holds the chain's size and
// its pseudo-liberties (every stone-to-empty adjacency, counted with
// multiplicity) as count, sum and sum of squares of the liberty vertices. A
// chain has no liberty when the count is zero, and exactly one liberty when
// all its pseudo-liberties are the same point, i.e. sum^2 == count * sumsq.
// That keeps play, capture and the atari test O(1) per neighbour.
//
// Every situation (art. 6: the board plus the side to move) is recorded by
// Zobrist hash, so Check() can refuse any repetition, not only single kos.
#ifndef ARBITER_ADJUDICATOR_ENGINE_BOARD_H_
#define ARBITER_ADJUDICATOR_ENGINE_BOARD_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "adjudicator/engine/point.h"
#include "adjudicator/engine/situation_set.h"
#include "arbiter/v1/events.pb.h"

namespace arbiter {

enum class Stone : uint8_t { kEmpty, kBlack, kWhite };

enum class Legality {
  kLegal,
  kOccupied,
  kSuicide,      // art. 5: no liberty after the opponent's stones were taken
  kKoRecapture,  // art. 20.1: immediate recapture of a single ko
  kRepetition,   // art. 6: any other repeated situation (the cases of 20.3)
};

const char* LegalityName(Legality legality);

// The stone colour of a player; `c` must be BLACK or WHITE.
inline Stone StoneOf(v1::Color c) { return c == v1::WHITE ? Stone::kWhite : Stone::kBlack; }

inline v1::Color Opponent(v1::Color c) { return c == v1::WHITE ? v1::BLACK : v1::WHITE; }

class Board {
 public:
  // `size` must be 9, 13 or 19 (IsSupportedBoardSize; the process aborts
  // otherwise). The empty board with Black to move is the first situation.
  explicit Board(int size);

  int size() const { return size_; }

  // The stone at an on-board vertex.
  Stone at(int vertex) const { return static_cast<Stone>(cell_[vertex]); }

  // Classifies `c` playing at `vertex` without changing anything: occupied (or
  // off the board); suicide (art. 5, judged after art. 4.2 takes the
  // opponent's stones without liberties); immediate recapture of a single ko
  // (art. 20.1): the move takes exactly one stone, the played stone is then a
  // lone stone with one liberty, and the board returns to the situation two
  // plies earlier; any other repeated situation (art. 6). `c` is BLACK or WHITE.
  Legality Check(v1::Color c, int vertex) const;

  // Plays a move that Check() called kLegal, takes the opponent's stones left
  // without liberties and records the situation (opponent to move). Returns
  // the number of stones taken.
  int Play(v1::Color c, int vertex);

  // A pass, or a void move counted as one: records the situation with the
  // opponent to move.
  void Pass(v1::Color c);

  // Records the current board with `to_move` to move as a situation that has
  // occurred, e.g. after setup stones were placed.
  void RecordSituation(v1::Color to_move);

  // Physical corrections outside play (setup stones, displaced stones): the
  // board changes, nothing is captured and no situation is recorded.
  // Place replaces whatever is at `vertex`.
  void Place(v1::Color c, int vertex);
  void Remove(int vertex);

  // Whether a stone of `c` stands, or has stood at any time, at `vertex`:
  // what a claim about stones once there (a capture error) is checked
  // against.
  bool Held(int vertex, v1::Color c) const {
    return (held_[vertex] & (1u << static_cast<int>(StoneOf(c)))) != 0;
  }

  // A liberty of the chain at `vertex` (an empty point next to one of its
  // stones), or -1 when the point is empty or the chain has none: what a
  // claim that stones were left dead on the board (18.2) is checked against.
  int Liberty(int vertex) const;

  // Prisoners taken by `c` in play.
  int captures(v1::Color c) const { return captures_[static_cast<int>(StoneOf(c))]; }

  // Zobrist hash of the stones on the board (not of the side to move).
  uint64_t hash() const { return hash_; }

  // Hash of the situation: the board with `to_move` to move.
  uint64_t SituationHash(v1::Color to_move) const;

  // Row `size` first; 'X' black, 'O' white, '.' empty.
  std::vector<std::string> Rows() const;

 private:
  static constexpr uint8_t kEdge = 3;

  bool InAtari(int head) const {
    return static_cast<int64_t>(lib_sum_[head]) * lib_sum_[head] ==
           static_cast<int64_t>(lib_count_[head]) * lib_sum_sq_[head];
  }
  void AddLiberty(int head, int vertex) {
    ++lib_count_[head];
    lib_sum_[head] += vertex;
    lib_sum_sq_[head] += vertex * vertex;
  }
  void RemoveLiberty(int head, int vertex) {
    --lib_count_[head];
    lib_sum_[head] -= vertex;
    lib_sum_sq_[head] -= vertex * vertex;
  }
  void MergeChains(int a, int b);
  int RemoveChain(int head);
  // Recomputes chains, liberties and the hash from cell_ after a correction.
  void Rebuild();

  int size_;
  int stride_;
  std::array<int, 4> offsets_;
  std::array<uint8_t, kMaxPaddedArea> cell_;    // a Stone, or kEdge
  std::array<uint8_t, kMaxPaddedArea> held_{};  // bit 1 << Stone: once held a stone of it
  std::array<int16_t, kMaxPaddedArea> head_;
  std::array<int16_t, kMaxPaddedArea> next_;
  // Indexed by chain head.
  std::array<int16_t, kMaxPaddedArea> chain_size_;
  std::array<int32_t, kMaxPaddedArea> lib_count_;
  std::array<int32_t, kMaxPaddedArea> lib_sum_;
  std::array<int32_t, kMaxPaddedArea> lib_sum_sq_;
  uint64_t hash_ = 0;
  std::array<int, 3> captures_ = {0, 0, 0};
  SituationSet seen_;
  std::vector<uint64_t> history_;  // situations in the order they occurred
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_BOARD_H_
