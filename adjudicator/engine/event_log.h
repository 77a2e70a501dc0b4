// The events an adjudicator has folded in, in order: an append-only sequence
// whose copies share what they have in common, so copying a game's fold
// costs the same after 3 events as after 300.
//
// The service judges every append on a copy of the game's committed fold
// (readers keep the committed one): with a plain vector of events, each copy
// duplicated the whole game, and that copy and its destruction were most of
// an append's CPU. Here the events live in fixed chunks held by shared
// pointers. A copy appends into the last chunk in place when no other copy
// has appended there since they parted (each slot is claimed once, by an
// atomic counter, so two copies never write the same slot); otherwise it
// takes a private copy of that chunk's events first (at most kChunk - 1).
// A slot is written once, before any copy that can read it exists, so copies
// may live on different threads.
#ifndef ARBITER_ADJUDICATOR_ENGINE_EVENT_LOG_H_
#define ARBITER_ADJUDICATOR_ENGINE_EVENT_LOG_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "arbiter/v1/events.pb.h"
#include "google/protobuf/arena.h"

namespace arbiter {

class EventLog {
 public:
  static constexpr size_t kChunk = 64;

  size_t size() const { return size_; }
  // `i` < size().
  const v1::Event& operator[](size_t i) const { return *chunks_[i / kChunk]->events[i % kChunk]; }

  void push_back(const v1::Event& event) {
    const size_t slot = size_ % kChunk;
    if (slot == 0) {
      chunks_.push_back(std::make_shared<Chunk>());
      chunks_.back()->claimed.store(1, std::memory_order_relaxed);
    } else if (size_t expected = slot; !chunks_.back()->claimed.compare_exchange_strong(
                   expected, slot + 1, std::memory_order_acq_rel)) {
      // Another copy has written this slot: this one goes on alone.
      auto own = std::make_shared<Chunk>();
      for (size_t i = 0; i < slot; ++i) own->Put(i, *chunks_.back()->events[i]);
      own->claimed.store(slot + 1, std::memory_order_relaxed);
      chunks_.back() = std::move(own);
    }
    chunks_.back()->Put(slot, event);
    ++size_;
  }

 private:
  // A chunk's events live on its own arena: a copy into it takes no malloc
  // of its own (the heap's malloc and free of each event's parts were a
  // third of the engine's time), and they are freed with the chunk at once.
  // An arena allocates safely from several threads; its blocks start small
  // and double, so a short game's log stays small.
  struct Chunk {
    void Put(size_t slot, const v1::Event& event) {
      events[slot] = google::protobuf::Arena::CreateMessage<v1::Event>(&arena);
      *events[slot] = event;
    }

    google::protobuf::Arena arena;
    std::array<v1::Event*, kChunk> events{};
    // The slots some copy has written (or is writing): only ever grows.
    std::atomic<size_t> claimed{0};
  };
  std::vector<std::shared_ptr<Chunk>> chunks_;
  size_t size_ = 0;
};

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_ENGINE_EVENT_LOG_H_
