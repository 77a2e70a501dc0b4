#include "adjudicator/service/console/live_feed.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/console/json.h"
#include "adjudicator/service/game_reads.h"
#include "ledger/stream.h"
#include "ledger/thread_name.h"

namespace arbiter::service::console {

std::string ServerSentEvent(uint64_t id, absl::string_view kind, absl::string_view data) {
  return absl::StrCat("id: ", id, "\nevent: ", kind, "\ndata: ", data, "\n\n");
}

LiveFeed::LiveFeed(GameFolds* folds, std::shared_ptr<ledger::CommitFeed> commits)
    : folds_(folds), wake_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)), commits_(std::move(commits)) {
  // On the committing thread: only flag (the thread reads the commits).
  listener_ = commits_->AddListener([this](uint64_t) {
    absl::MutexLock lock(&mu_);
    committed_ = true;
  });
  thread_ = std::thread([this, from = commits_->head()] {
    NameThisThread("live-feed");
    Run(from);
  });
}

LiveFeed::~LiveFeed() {
  Stop();
  if (wake_ >= 0) close(wake_);
}

void LiveFeed::Wake() {
  const uint64_t one = 1;
  // A full counter (2^64 - 2 wakes unread) is still readable: nothing lost.
  [[maybe_unused]] const ssize_t n = write(wake_, &one, sizeof one);
}

void LiveFeed::Stop() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  Wake();
  if (thread_.joinable()) thread_.join();
  if (listener_ >= 0) {
    commits_->RemoveListener(listener_);
    listener_ = -1;
  }
}

uint64_t LiveFeed::Head() {
  absl::MutexLock lock(&mu_);
  return first_ + messages_.size() - 1;
}

bool LiveFeed::Advanced(uint64_t* position, absl::flat_hash_map<std::string, uint64_t>* games) {
  for (;;) {
    ledger::CommitFeed::Slice slice = commits_->Read(*position, 1024);
    if (!slice.in_window) {
      *position = commits_->first() - 1;
      return false;
    }
    if (slice.entries.empty()) return true;
    for (const auto& e : slice.entries) {
      *position = e->position();
      // A tournament's entry is no game's: the hall shows games only.
      if (ledger::IsTournamentStream(e->game_id())) continue;
      uint64_t& revision = (*games)[e->game_id()];
      revision = std::max(revision, e->revision());
    }
  }
}

void LiveFeed::Run(uint64_t position) {
  for (;;) {
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stopping_ || committed_; };
      mu_.Await(absl::Condition(&ready));
      if (stopping_) return;
      committed_ = false;
    }
    absl::flat_hash_map<std::string, uint64_t> games;
    const bool whole = Advanced(&position, &games);
    // The game as the read model holds it now: at least the committed revision.
    std::vector<std::string> built;
    if (!whole) built.emplace_back();  // a reload
    for (const auto& [id, revision] : games) {
      v1::Game game;
      if (!FillGame(*folds_, id, &game).ok()) continue;  // evicted and unreadable: skip
      built.push_back(ToJson(game));
    }
    {
      absl::MutexLock lock(&mu_);
      for (std::string& m : built) {
        messages_.push_back(std::move(m));
        if (messages_.size() > kWindow) {
          messages_.pop_front();
          ++first_;
        }
      }
    }
    if (!built.empty()) Wake();
  }
}

LiveFeed::Batch LiveFeed::Next(uint64_t after, size_t max_bytes) {
  absl::MutexLock lock(&mu_);
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
    const std::string& m = messages_[n - first_];
    if (m.empty()) {
      // Games advanced that no message names: the page reloads.
      batch.text = ServerSentEvent(head, "reload", "{}");
      batch.next = head;
      return batch;
    }
    absl::StrAppend(&batch.text, ServerSentEvent(n, "game", m));
    batch.next = n;
    if (batch.text.size() >= max_bytes) break;
  }
  batch.more = batch.next < head;
  return batch;
}

}  // namespace arbiter::service::console
