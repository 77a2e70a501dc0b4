#include "adjudicator/service/watch_hub.h"

#include <vector>

#include "adjudicator/service/watch_stream.h"

namespace arbiter::service {
namespace {

// How often the streams look at their client and the server between commits.
constexpr absl::Duration kTick = absl::Milliseconds(200);

}  // namespace

WatchHub::WatchHub(ledger::Ledger* ledger, const std::atomic<bool>* shutting_down,
                   size_t max_buffer, absl::Duration stall_timeout)
    : ledger_(ledger),
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
