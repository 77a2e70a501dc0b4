// The set of situations (art. 6: board plus side to move) that have occurred
// in a game, keyed by their Zobrist hash. An open-addressing table with linear
// probing: a game has a few hundred situations, so the table stays small and
// a lookup is a couple of cache-line reads, which matters because every move
// is checked against it.
#ifndef ARBITER_ADJUDICATOR_ENGINE_SITUATION_SET_H_
#define ARBITER_ADJUDICATOR_ENGINE_SITUATION_SET_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace arbiter {

class SituationSet {
 public:
  SituationSet() : slots_(kInitialCapacity, kEmptySlot) {}

  bool Contains(uint64_t key) const {
    if (key == kEmptySlot) return has_empty_key_;
    const size_t mask = slots_.size() - 1;
    for (size_t i = key & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return true;
      if (slots_[i] == kEmptySlot) return false;
    }
  }

  void Insert(uint64_t key) {
    if (key == kEmptySlot) {
      has_empty_key_ = true;
      return;
    }
    if (2 * (size_ + 1) > slots_.size()) Grow();
    if (InsertNew(key)) ++size_;
  }

 private:
  // Zero marks an unused slot; a situation that hashes to zero is kept aside.
  static constexpr uint64_t kEmptySlot = 0;
  static constexpr size_t kInitialCapacity = 1024;  // a power of two

  // Returns false when the key was already present.
  bool InsertNew(uint64_t key) {
    const size_t mask = slots_.size() - 1;
    for (size_t i = key & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return false;
      if (slots_[i] == kEmptySlot) {
        slots_[i] = key;
        return true;
      }
    }
  }

  void Grow() {
    std::vector<uint64_t> old(2 * slots_.size(), kEmptySlot);
    old.swap(slots_);
    for (const uint64_t key : old) {
      if (key != kEmptySlot) InsertNew(key);
    }
  }

  std::vector<uint64_t> slots_;
  size_t size_ = 0;
  bool has_empty_key_ = false;
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_SITUATION_SET_H_
