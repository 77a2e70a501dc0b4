#include "adjudicator/service/console/live_feed.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/console/json.h"
#include "adjudicator/service/game_reads.h"

namespace arbiter::service::console {

std::string ServerSentEvent(uint64_t id, absl::string_view kind, absl::string_view data) {
  return absl::StrCat("id: ", id, "\nevent: ", kind, "\ndata: ", data, "\n\n");
}

void LiveFeed::Committed(const std::vector<GameView>& games) {
  absl::MutexLock lock(&mu_);
  for (const GameView& g : games) {
    uint64_t& revision = queued_[g.game_id];
    if (g.revision > revision) revision = g.revision;
  }
}

void LiveFeed::Start() {
  absl::MutexLock lock(&mu_);
  if (started_ || stopping_) return;
  started_ = true;
  thread_ = std::thread([this] { Run(); });
}

void LiveFeed::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (thread_.joinable()) thread_.join();
}

uint64_t LiveFeed::Head() {
  absl::MutexLock lock(&mu_);
  return first_ + messages_.size() - 1;
}

void LiveFeed::Run() {
  for (;;) {
    absl::flat_hash_map<std::string, uint64_t> games;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]()
                       ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_ || !queued_.empty(); };
      mu_.Await(absl::Condition(&ready));
      if (stopping_) return;
      games.swap(queued_);
    }
    // The game as the read model holds it now: at least the queued revision.
    std::vector<std::string> built;
    for (const auto& [id, revision] : games) {
      v1::Game game;
      if (!FillGame(*folds_, id, &game).ok()) continue;  // evicted and unreadable: skip
      built.push_back(ToJson(game));
    }
    absl::MutexLock lock(&mu_);
    for (std::string& m : built) {
      messages_.push_back(std::move(m));
      if (messages_.size() > kWindow) {
        messages_.pop_front();
        ++first_;
      }
    }
  }
}

LiveFeed::Batch LiveFeed::Next(uint64_t after, absl::Duration wait) {
  absl::MutexLock lock(&mu_);
  auto news = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return stopping_ || first_ + messages_.size() - 1 > after;
  };
  mu_.AwaitWithTimeout(absl::Condition(&news), wait);
  Batch batch;
  const uint64_t head = first_ + messages_.size() - 1;
  batch.closed = stopping_;
  batch.next = after;
  if (batch.closed || head <= after) return batch;
  if (after + 1 < first_) {
    // Fell behind the window: the page reloads what it shows.
    batch.text = ServerSentEvent(head, "reload", "{}");
    batch.next = head;
    return batch;
  }
  for (uint64_t n = after + 1; n <= head; ++n) {
    absl::StrAppend(&batch.text, ServerSentEvent(n, "game", messages_[n - first_]));
  }
  batch.next = head;
  return batch;
}

}  // namespace arbiter::service::console
