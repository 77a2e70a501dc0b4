#include "adjudicator/service/watch_hub.h"

#include <algorithm>
#include <string>

#include "adjudicator/service/recorder.h"
#include "adjudicator/service/watch_stream.h"
#include "grpcpp/support/slice.h"
#include "ledger/thread_name.h"

namespace arbiter::service {
namespace {

// Serialized messages kept for the streams that send them.
constexpr size_t kKeptMessages = 4096;

int64_t Nanos(absl::Time t) {
  return t == absl::InfiniteFuture() ? INT64_MAX : absl::ToUnixNanos(t);
}

}  // namespace

WatchBytes ToWatchBytes(const v1::WatchResponse& message) {
  const std::string bytes = message.SerializeAsString();
  const grpc::Slice slice(bytes);
  return std::make_shared<const grpc::ByteBuffer>(&slice, 1);
}

WatchHub::WatchHub(ledger::Ledger* ledger, size_t max_buffer, absl::Duration stall_timeout,
                   int threads)
    : ledger_(ledger),
      feed_(ledger->commit_feed()),
      max_buffer_(max_buffer),
      stall_timeout_(stall_timeout) {
  for (int i = 0; i < std::max(threads, 1); ++i) shards_.push_back(std::make_unique<Shard>());
  listener_ = feed().AddListener([this](uint64_t head) {
    // A checkpoint signed at the same head (CommitFeed::PublishCheckpoint)
    // gives no stream anything to send: only a new head, or the feed's
    // close, wakes them. (The listeners are told one at a time.)
    if (told_head_.exchange(head) == head && !feed().Read(head, 0).closed) return;
    // A shard with no stream stays asleep: waking a thread costs more than
    // the append itself on a small machine (a stream that joins later reads
    // the feed itself once it has joined, so it misses nothing).
    for (auto& shard : shards_) {
      absl::MutexLock lock(&shard->mu);
      if (!shard->streams.empty()) shard->woken = true;
    }
  });
  for (auto& shard : shards_) {
    shard->thread = std::thread([this, s = shard.get()] {
      NameThisThread("watch-hub");
      Run(*s);
    });
  }
}

WatchHub::~WatchHub() {
  feed().RemoveListener(listener_);
  for (auto& shard : shards_) {
    {
      absl::MutexLock lock(&shard->mu);
      shard->stopping = true;
    }
    shard->thread.join();
  }
}

void WatchHub::Shutdown() {
  shutting_down_.store(true, std::memory_order_release);
  for (auto& shard : shards_) {
    absl::MutexLock lock(&shard->mu);
    shard->woken = true;
  }
}

void WatchHub::AwaitStreamsEnded(absl::Time deadline) {
  for (auto& shard : shards_) {
    Shard* s = shard.get();
    s->mu.LockWhenWithDeadline(absl::Condition(&WatchHub::Empty, s), deadline);
    s->mu.Unlock();
  }
}

absl::StatusOr<WatchBytes> WatchHub::Message(const v1::LedgerEntry& entry) {
  {
    absl::MutexLock lock(&messages_mu_);
    auto it = messages_.find(entry.position());
    if (it != messages_.end()) return it->second;
  }
  absl::StatusOr<v1::RecordedEvent> r = Decode(entry);
  if (!r.ok()) return r.status();
  v1::WatchResponse message;
  *message.mutable_event() = *std::move(r);
  WatchBytes bytes = ToWatchBytes(message);
  absl::MutexLock lock(&messages_mu_);
  auto [it, inserted] = messages_.emplace(entry.position(), std::move(bytes));
  if (inserted) {
    message_order_.push_back(entry.position());
    if (message_order_.size() > kKeptMessages) {
      messages_.erase(message_order_.front());
      message_order_.pop_front();
    }
  }
  return it->second;
}

int WatchHub::PickShard() {
  return static_cast<int>(next_shard_.fetch_add(1, std::memory_order_relaxed) %
                          static_cast<unsigned>(shards_.size()));
}

void WatchHub::Join(int shard, WatchStream* stream) {
  absl::MutexLock lock(&shards_[shard]->mu);
  shards_[shard]->streams.insert(stream);
}

void WatchHub::Leave(int shard, WatchStream* stream) {
  absl::MutexLock lock(&shards_[shard]->mu);
  shards_[shard]->streams.erase(stream);
}

void WatchHub::StallDeadline(int i, absl::Time deadline) {
  Shard& shard = *shards_[i];
  const int64_t at = Nanos(deadline);
  // Deadlines come later and later (now + a fixed timeout): most find the
  // shard already waking earlier.
  if (at >= shard.check.load(std::memory_order_acquire)) return;
  absl::MutexLock lock(&shard.mu);
  if (at < shard.check.load(std::memory_order_relaxed)) {
    shard.check.store(at, std::memory_order_release);
    shard.rescheduled = true;
  }
}

void WatchHub::Run(Shard& shard) {
  std::vector<WatchStream*> woken;
  for (;;) {
    {
      absl::MutexLock lock(&shard.mu);
      auto ready = [&shard]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(shard.mu) {
        return shard.woken || shard.stopping || shard.rescheduled;
      };
      const int64_t check = shard.check.load(std::memory_order_relaxed);
      if (check == kNever) {
        shard.mu.Await(absl::Condition(&ready));
      } else {
        shard.mu.AwaitWithDeadline(absl::Condition(&ready), absl::FromUnixNanos(check));
      }
      if (shard.stopping) return;
      shard.rescheduled = false;
      const bool due =
          absl::Now() >= absl::FromUnixNanos(shard.check.load(std::memory_order_relaxed));
      if (!shard.woken && !due) continue;  // only rescheduled: wait again
      shard.woken = false;
      // The streams report their deadlines again as they are woken (below),
      // and those that start a write meanwhile through StallDeadline.
      shard.check.store(kNever, std::memory_order_release);
      // Each held while it is woken, so its OnDone cannot free it meanwhile.
      woken.assign(shard.streams.begin(), shard.streams.end());
      for (WatchStream* s : woken) s->Ref();
    }
    WakeAll(shard, woken);
  }
}

void WatchHub::WakeAll(Shard& shard, std::vector<WatchStream*>& woken) {
  absl::Time earliest = absl::InfiniteFuture();
  for (WatchStream* s : woken) {
    earliest = std::min(earliest, s->Wake(absl::Now()));
    s->Unref();
  }
  woken.clear();
  if (earliest == absl::InfiniteFuture()) return;
  absl::MutexLock lock(&shard.mu);
  if (Nanos(earliest) < shard.check.load(std::memory_order_relaxed)) {
    shard.check.store(Nanos(earliest), std::memory_order_release);
  }
}

}  // namespace arbiter::service
