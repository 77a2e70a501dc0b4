#include "adjudicator/service/watch_hub.h"

#include <vector>

#include "adjudicator/service/recorder.h"
#include "adjudicator/service/watch_stream.h"

namespace arbiter::service {
namespace {

// How often the streams look at their client and the server between commits.
constexpr absl::Duration kTick = absl::Milliseconds(200);
// Decoded messages kept for the streams that send them.
constexpr size_t kKeptMessages = 4096;

}  // namespace

WatchHub::WatchHub(ledger::Ledger* ledger, const std::atomic<bool>* shutting_down,
                   size_t max_buffer, absl::Duration stall_timeout)
    : ledger_(ledger),
      feed_(ledger->commit_feed()),
      shutting_down_(shutting_down),
      max_buffer_(max_buffer),
      stall_timeout_(stall_timeout) {
  listener_ = feed().AddListener([this](uint64_t) {
    absl::MutexLock lock(&mu_);
    committed_ = true;
  });
  thread_ = std::thread([this] { Run(); });
}

WatchHub::~WatchHub() {
  feed().RemoveListener(listener_);
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  thread_.join();
}

absl::StatusOr<std::shared_ptr<const v1::WatchResponse>> WatchHub::Message(
    const v1::LedgerEntry& entry) {
  {
    absl::MutexLock lock(&messages_mu_);
    auto it = messages_.find(entry.position());
    if (it != messages_.end()) return it->second;
  }
  absl::StatusOr<v1::RecordedEvent> r = Decode(entry);
  if (!r.ok()) return r.status();
  auto message = std::make_shared<v1::WatchResponse>();
  *message->mutable_event() = *std::move(r);
  absl::MutexLock lock(&messages_mu_);
  auto [it, inserted] = messages_.emplace(entry.position(), std::move(message));
  if (inserted) {
    message_order_.push_back(entry.position());
    if (message_order_.size() > kKeptMessages) {
      messages_.erase(message_order_.front());
      message_order_.pop_front();
    }
  }
  return it->second;
}

void WatchHub::Join(WatchStream* stream) {
  absl::MutexLock lock(&mu_);
  streams_.insert(stream);
}

void WatchHub::Leave(WatchStream* stream) {
  absl::MutexLock lock(&mu_);
  streams_.erase(stream);
}

void WatchHub::Run() {
  std::vector<WatchStream*> woken;
  for (;;) {
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return committed_ || stopping_; };
      mu_.AwaitWithTimeout(absl::Condition(&ready), kTick);
      if (stopping_) return;
      committed_ = false;
      // Each held while it is woken, so its OnDone cannot free it meanwhile.
      woken.assign(streams_.begin(), streams_.end());
      for (WatchStream* s : woken) s->Ref();
    }
    const absl::Time now = absl::Now();
    for (WatchStream* s : woken) {
      s->Wake(now);
      s->Unref();
    }
    woken.clear();
  }
}

}  // namespace arbiter::service
