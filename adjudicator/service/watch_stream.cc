#include "adjudicator/service/watch_stream.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/grpc_status.h"
#include "adjudicator/service/recorder.h"

namespace arbiter::service {
namespace {

// How often the feeder looks at the client, the server and the buffer while
// no event comes.
constexpr absl::Duration kPoll = absl::Milliseconds(200);
// Entries read from the ledger at a time: what the feeder holds besides the
// buffer (at most this many events of 16 KiB with their rulings).
constexpr size_t kBatch = 16;

class EndedStream final : public grpc::ServerWriteReactor<v1::WatchResponse> {
 public:
  explicit EndedStream(const absl::Status& status) { Finish(ToGrpc(status)); }
  void OnDone() override { delete this; }
};

}  // namespace

WatchStream* WatchStream::Start(grpc::CallbackServerContext* context,
                                std::unique_ptr<ledger::Subscription> subscription, bool by_game,
                                const std::atomic<bool>* shutting_down, size_t max_buffer,
                                absl::Duration stall_timeout) {
  auto* stream = new WatchStream(context, std::move(subscription), by_game, shutting_down,
                                 max_buffer, stall_timeout);
  stream->feeder_ = std::thread([stream] { stream->Feed(); });
  return stream;
}

grpc::ServerWriteReactor<v1::WatchResponse>* WatchStream::Ended(const absl::Status& status) {
  return new EndedStream(status);
}

WatchStream::WatchStream(grpc::CallbackServerContext* context,
                         std::unique_ptr<ledger::Subscription> subscription, bool by_game,
                         const std::atomic<bool>* shutting_down, size_t max_buffer,
                         absl::Duration stall_timeout)
    : subscription_(std::move(subscription)),
      by_game_(by_game),
      shutting_down_(shutting_down),
      max_buffer_(max_buffer),
      context_(context),
      stall_timeout_(stall_timeout) {}

void WatchStream::Feed() {
  FeedUntilEnd();
  AwaitFinish();
}

bool WatchStream::Stalled() {
  const absl::Time now = absl::Now();
  return (writing_ && now - write_started_ > stall_timeout_) ||
         (finished_ && now - finish_started_ > stall_timeout_);
}

void WatchStream::CancelStalled() {
  {
    absl::MutexLock lock(&mu_);
    if (!end_.has_value()) {
      end_ = absl::DeadlineExceededError(absl::StrCat(
          "this watcher's client read nothing for ", absl::FormatDuration(stall_timeout_),
          " while a message waited for it; watch again with ",
          by_game_ ? "after_revision " : "after_position ", delivered_));
    }
  }
  // Without the lock: gRPC may run OnCancel and OnWriteDone inline.
  context_->TryCancel();
}

void WatchStream::AwaitFinish() {
  // The end goes out after the message being written (and the status after
  // what the transport still holds); a client that never reads them would
  // keep the stream until it disconnects.
  for (;;) {
    bool stalled = false;
    {
      absl::MutexLock lock(&mu_);
      auto over = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return done_; };
      if (mu_.AwaitWithTimeout(absl::Condition(&over), kPoll)) return;
      stalled = Stalled();
    }
    if (stalled) return CancelStalled();
  }
}

void WatchStream::FeedUntilEnd() {
  bool caught_up = false;
  for (;;) {
    {
      absl::MutexLock lock(&mu_);
      if (end_.has_value()) return;
      if (Stalled()) break;
    }
    if (gone_) return End(absl::CancelledError("the client went away"));
    if (*shutting_down_) return End(absl::UnavailableError("the server is shutting down"));
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
        subscription_->Next(caught_up ? kPoll : absl::ZeroDuration(), kBatch);
    if (!entries.ok()) {
      if (absl::IsCancelled(entries.status())) {
        return End(absl::UnavailableError("the server is shutting down"));
      }
      return End(entries.status());
    }
    for (const v1::LedgerEntry& entry : *entries) {
      absl::StatusOr<v1::RecordedEvent> r = Decode(entry);
      if (!r.ok()) return End(r.status());
      Item item;
      item.cursor = by_game_ ? entry.revision() : entry.position();
      *item.message.mutable_event() = *std::move(r);
      item.bytes = item.message.ByteSizeLong();
      if (!Push(std::move(item), caught_up)) return;
    }
    if (entries->empty() && !caught_up) {
      caught_up = true;
      Item item;
      item.cursor = subscription_->cursor();
      if (by_game_) {
        item.message.mutable_caught_up()->set_revision(item.cursor);
      } else {
        item.message.mutable_caught_up()->set_position(item.cursor);
      }
      item.bytes = item.message.ByteSizeLong();
      if (!Push(std::move(item), false)) return;
    }
  }
  CancelStalled();
}

bool WatchStream::Push(Item item, bool live) {
  bool stalled = false;
  {
    absl::MutexLock lock(&mu_);
    auto room = [this, &item]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return end_.has_value() || queue_.empty() || queued_bytes_ + item.bytes <= max_buffer_;
    };
    // History waits for room (it stays in the ledger meanwhile) as long as
    // the client is there and reads.
    while (!live && !mu_.AwaitWithTimeout(absl::Condition(&room), kPoll)) {
      if (gone_ || *shutting_down_) break;
      if (Stalled()) {
        stalled = true;
        break;
      }
    }
    if (!end_.has_value() && gone_) end_ = absl::CancelledError("the client went away");
    if (!end_.has_value() && *shutting_down_) {
      end_ = absl::UnavailableError("the server is shutting down");
    }
    if (end_.has_value() || stalled) {
      // Nothing more is queued; the end is sent after what is.
    } else if (room()) {
      queued_bytes_ += item.bytes;
      queue_.push_back(std::move(item));
    } else {
      // Live, and the client does not keep up: drop what it was not sent.
      const uint64_t resume = writing_ ? queue_.front().cursor : delivered_;
      queue_.erase(queue_.begin() + (writing_ ? 1 : 0), queue_.end());
      queued_bytes_ = writing_ ? queue_.front().bytes : 0;
      end_ = absl::ResourceExhaustedError(absl::StrCat(
          "this watcher fell more than ", max_buffer_,
          " bytes behind the live events (its client does not read them); watch again with ",
          by_game_ ? "after_revision " : "after_position ", resume));
    }
  }
  if (stalled) {
    CancelStalled();
    return false;
  }
  Pump();
  absl::MutexLock lock(&mu_);
  return !end_.has_value();
}

void WatchStream::End(const absl::Status& status) {
  {
    absl::MutexLock lock(&mu_);
    if (!end_.has_value()) end_ = status;
  }
  Pump();
}

void WatchStream::Pump() {
  const v1::WatchResponse* next = nullptr;
  std::optional<absl::Status> finish;
  {
    absl::MutexLock lock(&mu_);
    if (finished_ || writing_) return;
    if (end_.has_value()) {
      finished_ = true;
      finish_started_ = absl::Now();
      finish = *end_;
    } else if (!queue_.empty()) {
      writing_ = true;
      write_started_ = absl::Now();
      next = &queue_.front().message;  // stays put until OnWriteDone pops it
    } else {
      return;
    }
  }
  if (next != nullptr) {
    StartWrite(next);
  } else {
    Finish(ToGrpc(*finish));
  }
}

void WatchStream::OnWriteDone(bool ok) {
  {
    absl::MutexLock lock(&mu_);
    writing_ = false;
    delivered_ = queue_.front().cursor;
    queued_bytes_ -= queue_.front().bytes;
    queue_.pop_front();
    if (!ok && !end_.has_value()) end_ = absl::CancelledError("the client went away");
  }
  Pump();
}

void WatchStream::OnDone() {
  {
    absl::MutexLock lock(&mu_);
    done_ = true;
  }
  End(absl::CancelledError("the call is over"));  // stops the feeder
  feeder_.join();
  delete this;
}

}  // namespace arbiter::service
