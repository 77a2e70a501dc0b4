#include "adjudicator/engine/board.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "adjudicator/engine/zobrist.h"

namespace arbiter {
namespace {

constexpr uint8_t kEmptyCell = static_cast<uint8_t>(Stone::kEmpty);

}  // namespace

const char* LegalityName(Legality legality) {
  switch (legality) {
    case Legality::kLegal:
      return "legal";
    case Legality::kOccupied:
      return "occupied";
    case Legality::kSuicide:
      return "suicide";
    case Legality::kKoRecapture:
      return "immediate ko recapture";
    case Legality::kRepetition:
      return "repeated situation";
  }
  return "unknown";
}

Board::Board(int size) : size_(size), stride_(Stride(size)) {
  // The arrays are sized for 19x19: a larger board would write past them, so
  // a caller's bad size stops here rather than corrupting memory.
  if (!IsSupportedBoardSize(size)) {
    std::fprintf(stderr, "arbiter::Board: unsupported board size %d\n", size);
    std::abort();
  }
  offsets_ = {1, -1, stride_, -stride_};
  cell_.fill(kEdge);
  for (int row = 1; row <= size_; ++row) {
    for (int column = 0; column < size_; ++column) cell_[VertexAt(column, row, size_)] = kEmptyCell;
  }
  head_.fill(0);
  next_.fill(0);
  chain_size_.fill(0);
  lib_count_.fill(0);
  lib_sum_.fill(0);
  lib_sum_sq_.fill(0);
  RecordSituation(v1::BLACK);
}

uint64_t Board::SituationHash(v1::Color to_move) const {
  return to_move == v1::WHITE ? hash_ ^ zobrist::WhiteToMoveKey() : hash_;
}

void Board::RecordSituation(v1::Color to_move) {
  const uint64_t situation = SituationHash(to_move);
  seen_.Insert(situation);
  history_.push_back(situation);
}

Legality Board::Check(v1::Color c, int vertex) const {
  if (vertex < 0 || vertex >= PaddedArea(size_) || cell_[vertex] != kEmptyCell) {
    return Legality::kOccupied;
  }
  const int me = static_cast<int>(StoneOf(c));
  const int opp = 3 - me;

  // Art. 4.2: the opponent's chains whose last liberty is `vertex` are taken
  // first; only then is the played stone's own liberty judged (art. 5).
  int captured_heads[4];
  int num_captured_chains = 0;
  int captured_stones = 0;
  bool has_liberty = false;
  bool lone_stone_in_atari = true;  // no friendly neighbour, no empty neighbour
  for (const int offset : offsets_) {
    const int n = vertex + offset;
    const int cell = cell_[n];
    if (cell == kEmptyCell) {
      has_liberty = true;
      lone_stone_in_atari = false;
    } else if (cell == me) {
      lone_stone_in_atari = false;
      if (!InAtari(head_[n])) has_liberty = true;  // its other liberty survives
    } else if (cell == opp) {
      const int head = head_[n];
      if (!InAtari(head)) continue;
      bool seen = false;
      for (int i = 0; i < num_captured_chains; ++i) seen |= captured_heads[i] == head;
      if (seen) continue;
      captured_heads[num_captured_chains++] = head;
      captured_stones += chain_size_[head];
    }
  }
  if (num_captured_chains == 0 && !has_liberty) return Legality::kSuicide;

  uint64_t after = hash_ ^ zobrist::StoneKey(me, vertex);
  for (int i = 0; i < num_captured_chains; ++i) {
    const int head = captured_heads[i];
    int s = head;
    do {
      after ^= zobrist::StoneKey(opp, s);
      s = next_[s];
    } while (s != head);
  }
  // After `c` plays, the opponent is to move.
  const uint64_t situation =
      me == static_cast<int>(Stone::kBlack) ? after ^ zobrist::WhiteToMoveKey() : after;
  if (!seen_.Contains(situation)) return Legality::kLegal;
  if (captured_stones == 1 && lone_stone_in_atari && history_.size() >= 2 &&
      history_[history_.size() - 2] == situation) {
    return Legality::kKoRecapture;
  }
  return Legality::kRepetition;
}

int Board::Play(v1::Color c, int vertex) {
  const int me = static_cast<int>(StoneOf(c));
  const int opp = 3 - me;
  cell_[vertex] = static_cast<uint8_t>(me);
  held_[vertex] |= static_cast<uint8_t>(1u << me);
  head_[vertex] = static_cast<int16_t>(vertex);
  next_[vertex] = static_cast<int16_t>(vertex);
  chain_size_[vertex] = 1;
  lib_count_[vertex] = 0;
  lib_sum_[vertex] = 0;
  lib_sum_sq_[vertex] = 0;
  hash_ ^= zobrist::StoneKey(me, vertex);

  for (const int offset : offsets_) {
    const int n = vertex + offset;
    const int cell = cell_[n];
    if (cell == kEmptyCell) {
      AddLiberty(vertex, n);
    } else if (cell != kEdge) {
      RemoveLiberty(head_[n], vertex);
    }
  }
  for (const int offset : offsets_) {
    const int n = vertex + offset;
    if (cell_[n] == me && head_[n] != head_[vertex]) MergeChains(head_[vertex], head_[n]);
  }
  int captured = 0;
  for (const int offset : offsets_) {
    const int n = vertex + offset;
    if (cell_[n] == opp && lib_count_[head_[n]] == 0) captured += RemoveChain(head_[n]);
  }
  captures_[me] += captured;
  RecordSituation(Opponent(c));
  return captured;
}

void Board::Pass(v1::Color c) { RecordSituation(Opponent(c)); }

int Board::Liberty(int vertex) const {
  if (cell_[vertex] == kEmptyCell || cell_[vertex] == kEdge) return -1;
  int s = vertex;
  do {
    for (const int offset : offsets_) {
      if (cell_[s + offset] == kEmptyCell) return s + offset;
    }
    s = next_[s];
  } while (s != vertex);
  return -1;
}

void Board::MergeChains(int a, int b) {
  if (chain_size_[a] < chain_size_[b]) std::swap(a, b);
  // Relabel the smaller chain, then splice the two circular lists.
  int s = b;
  do {
    head_[s] = static_cast<int16_t>(a);
    s = next_[s];
  } while (s != b);
  std::swap(next_[a], next_[b]);
  chain_size_[a] = static_cast<int16_t>(chain_size_[a] + chain_size_[b]);
  lib_count_[a] += lib_count_[b];
  lib_sum_[a] += lib_sum_[b];
  lib_sum_sq_[a] += lib_sum_sq_[b];
}

int Board::RemoveChain(int head) {
  const int color = cell_[head];
  int removed = 0;
  int s = head;
  do {
    cell_[s] = kEmptyCell;
    hash_ ^= zobrist::StoneKey(color, s);
    ++removed;
    s = next_[s];
  } while (s != head);
  // Only now, with the whole chain gone, do the neighbours gain liberties.
  s = head;
  do {
    for (const int offset : offsets_) {
      const int n = s + offset;
      if (cell_[n] != kEmptyCell && cell_[n] != kEdge) AddLiberty(head_[n], s);
    }
    s = next_[s];
  } while (s != head);
  return removed;
}

void Board::Place(v1::Color c, int vertex) {
  if (!IsOnBoard(vertex, size_)) return;
  cell_[vertex] = static_cast<uint8_t>(StoneOf(c));
  held_[vertex] |= static_cast<uint8_t>(1u << static_cast<int>(StoneOf(c)));
  Rebuild();
}

void Board::Remove(int vertex) {
  if (!IsOnBoard(vertex, size_)) return;
  cell_[vertex] = kEmptyCell;
  Rebuild();
}

void Board::Rebuild() {
  hash_ = 0;
  std::array<bool, kMaxPaddedArea> done{};
  std::vector<int> stack;
  for (int v = 0; v < PaddedArea(size_); ++v) {
    const int color = cell_[v];
    if (color == kEmptyCell || color == kEdge) continue;
    hash_ ^= zobrist::StoneKey(color, v);
    if (done[v]) continue;
    // Flood the chain from v, linking its stones into one circular list.
    lib_count_[v] = lib_sum_[v] = lib_sum_sq_[v] = 0;
    chain_size_[v] = 0;
    int last = v;
    done[v] = true;
    stack.assign(1, v);
    while (!stack.empty()) {
      const int s = stack.back();
      stack.pop_back();
      head_[s] = static_cast<int16_t>(v);
      next_[last] = static_cast<int16_t>(s);
      last = s;
      ++chain_size_[v];
      for (const int offset : offsets_) {
        const int n = s + offset;
        if (cell_[n] == kEmptyCell) {
          AddLiberty(v, n);
        } else if (cell_[n] == color && !done[n]) {
          done[n] = true;
          stack.push_back(n);
        }
      }
    }
    next_[last] = static_cast<int16_t>(v);
  }
}

std::vector<std::string> Board::Rows() const {
  std::vector<std::string> rows;
  rows.reserve(size_);
  for (int row = size_; row >= 1; --row) {
    std::string line(size_, '.');
    for (int column = 0; column < size_; ++column) {
      switch (static_cast<Stone>(cell_[VertexAt(column, row, size_)])) {
        case Stone::kBlack:
          line[column] = 'X';
          break;
        case Stone::kWhite:
          line[column] = 'O';
          break;
        case Stone::kEmpty:
          break;
      }
    }
    rows.push_back(std::move(line));
  }
  return rows;
}

}  // namespace arbiter
