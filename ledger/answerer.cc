#include "ledger/internal/answerer.h"

#include <utility>

#include "ledger/thread_name.h"

namespace arbiter::ledger {

Answerer::Answerer()
    : thread_([this] {
        NameThisThread("answerer");
        Run();
      }) {}

Answerer::~Answerer() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  thread_.join();
}

void Answerer::Hand(std::vector<AppendJob*> batch) {
  if (batch.empty()) return;
  absl::MutexLock lock(&mu_);
  batches_.push_back(std::move(batch));
}

void Answerer::Run() {
  for (;;) {
    std::deque<std::vector<AppendJob*>> taken;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || !batches_.empty();
      };
      mu_.Await(absl::Condition(&ready));
      if (batches_.empty()) return;  // stopping, and all answered
      taken.swap(batches_);
    }
    for (std::vector<AppendJob*>& batch : taken) {
      for (AppendJob* job : batch) job->Complete();
    }
  }
}

}  // namespace arbiter::ledger
