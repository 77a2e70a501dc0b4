#include "adjudicator/service/watch_stream.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "adjudicator/service/grpc_status.h"
#include "adjudicator/service/recorder.h"
#include "ledger/stream.h"

namespace arbiter::service {
namespace {

// Entries read from the database at a time while catching up, and at most
// queued from the feed: what a stream holds besides the feed (at most this
// many events of 16 KiB with their rulings).
constexpr size_t kWatchBatch = 16;
// Live events queued at a time from the feed (shared there; decoded copies here).
constexpr size_t kLiveBatch = 4;

class EndedStream final : public grpc::ServerWriteReactor<grpc::ByteBuffer> {
 public:
  explicit EndedStream(const absl::Status& status) { Finish(ToGrpc(status)); }
  void OnDone() override { delete this; }
};

}  // namespace

WatchStream* WatchStream::Start(grpc::CallbackServerContext* context, WatchHub* hub,
                                WatchTarget target) {
  auto* stream = new WatchStream(context, hub, hub->PickShard(), std::move(target));
  hub->Join(stream->shard_, stream);
  stream->StepAndReport();
  return stream;
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* WatchStream::Ended(const absl::Status& status) {
  return new EndedStream(status);
}

WatchStream::WatchStream(grpc::CallbackServerContext* context, WatchHub* hub, int shard,
                         WatchTarget target)
    : context_(context), hub_(hub), target_(std::move(target)), shard_(shard) {
  absl::MutexLock lock(&mu_);
  (target_.game_id ? revision_ : position_) = target_.after;
  delivered_ = target_.after;
}

void WatchStream::Unref() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

absl::Time WatchStream::Wake(absl::Time now) { return Step(now); }

void WatchStream::StepAndReport() {
  const absl::Time deadline = Step(absl::Now());
  if (deadline != absl::InfiniteFuture()) hub_->StallDeadline(shard_, deadline);
}

void WatchStream::OnCancel() {
  {
    absl::MutexLock lock(&mu_);
    gone_ = true;
  }
  StepAndReport();
}

void WatchStream::OnWriteDone(bool ok) {
  {
    absl::MutexLock lock(&mu_);
    writing_ = false;
    if (ok) delivered_ = queue_.front().cursor;
    queue_.pop_front();
    if (!ok) gone_ = true;
  }
  StepAndReport();
}

void WatchStream::OnDone() {
  {
    absl::MutexLock lock(&mu_);
    done_ = true;
  }
  hub_->Leave(shard_, this);
  Unref();
}

absl::Time WatchStream::Step(absl::Time now) {
  StepAction action;
  {
    absl::MutexLock lock(&mu_);
    if (done_) return action.deadline;
    action = finished_ || writing_ ? WatchOutstanding(now) : TakeNext(now);
  }
  // Without the lock: gRPC may run OnCancel and OnWriteDone inline.
  if (action.cancel) {
    context_->TryCancel();
  } else if (action.next != nullptr) {
    StartWrite(action.next);
  } else if (action.finish.has_value()) {
    Finish(ToGrpc(*action.finish));
  }
  return action.deadline;
}

WatchStream::StepAction WatchStream::WatchOutstanding(absl::Time now) {
  StepAction action;
  const absl::Duration stall = hub_->stall_timeout();
  // The end goes out after the message being written (and the status after
  // what the transport still holds); a client that never reads them would
  // keep the stream until it disconnects.
  const absl::Time waiting_since = finished_ ? finish_started_ : write_started_;
  if (now - waiting_since >= stall && !cancelled_) {
    cancelled_ = action.cancel = true;
    if (!end_.has_value()) {
      end_ = absl::DeadlineExceededError(absl::StrCat(
          "this watcher's client read nothing for ", absl::FormatDuration(stall),
          " while a message waited for it; watch again with ", resume_field(), delivered_));
    }
  } else if (!finished_ && live_from_.has_value() && !end_.has_value() &&
             hub_->feed().BytesAfter(std::max(queue_.front().position, *live_from_)) >
                 hub_->max_buffer()) {
    // Live, and the client does not keep up: drop what it was not sent.
    queue_.erase(queue_.begin() + 1, queue_.end());
    end_ = absl::ResourceExhaustedError(absl::StrCat(
        "this watcher fell more than ", hub_->max_buffer(),
        " bytes behind the live events (its client does not read them); watch again with ",
        resume_field(), queue_.front().cursor));
  }
  if (!cancelled_) action.deadline = waiting_since + stall;
  return action;
}

WatchStream::StepAction WatchStream::TakeNext(absl::Time now) {
  StepAction action;
  if (!end_.has_value() && gone_) end_ = absl::CancelledError("the client went away");
  if (!end_.has_value() && hub_->shutting_down()) {
    end_ = absl::UnavailableError("the server is shutting down");
  }
  if (!end_.has_value() && queue_.empty()) Refill();
  if (end_.has_value()) {
    queue_.clear();
    finished_ = true;
    finish_started_ = now;
    action.finish = *end_;
    action.deadline = now + hub_->stall_timeout();
  } else if (!queue_.empty()) {
    writing_ = true;
    write_started_ = now;
    action.next = queue_.front().message.get();  // stays put until OnWriteDone pops it
    action.deadline = now + hub_->stall_timeout();
  }
  return action;
}

void WatchStream::Refill() {
  if (!in_feed_) ReadHistory();
  if (in_feed_ && queue_.empty() && !end_.has_value()) ReadFeed();
}

bool WatchStream::Queue(const v1::LedgerEntry& entry) {
  // WatchAll shows game events only (WatchResponse carries a game's
  // RecordedEvent): a tournament's entry is passed over, the cursor past it.
  if (!target_.game_id && ledger::IsTournamentStream(entry.game_id())) {
    position_ = entry.position();
    return true;
  }
  absl::StatusOr<WatchBytes> m = hub_->Message(entry);
  if (!m.ok()) {
    end_ = m.status();
    return false;
  }
  Item item;
  item.message = *std::move(m);
  item.position = entry.position();
  if (target_.game_id) {
    revision_ = entry.revision();
    item.cursor = revision_;
  } else {
    position_ = entry.position();
    item.cursor = position_;
  }
  queue_.push_back(std::move(item));
  return true;
}

void WatchStream::ReadHistory() {
  ledger::CommitFeed& feed = hub_->feed();
  if (!target_.game_id) {
    // Read on while every entry read was a tournament's (Queue passes over
    // them): a stream with nothing queued and no feed joined would wait
    // for a commit that may never come.
    while (queue_.empty()) {
      if (position_ + 1 >= feed.first()) return JoinFeed();
      absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
          hub_->ledger().log().ReadLog(position_, kWatchBatch);
      if (!entries.ok()) {
        end_ = entries.status();
        return;
      }
      for (const v1::LedgerEntry& e : *entries) {
        if (!Queue(e)) return;
      }
      if (entries->empty()) {
        if (position_ + 1 >= feed.first()) JoinFeed();
        return;
      }
    }
    return;
  }
  // The feed's head before the read: the database has every entry up to it.
  const uint64_t head = feed.head();
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      hub_->ledger().log().ReadGame(*target_.game_id, revision_, kWatchBatch);
  if (!entries.ok()) {
    end_ = entries.status();
    return;
  }
  for (const v1::LedgerEntry& e : *entries) {
    if (!Queue(e)) return;
  }
  if (entries->size() < kWatchBatch) {
    // All of the game's entries up to `head` are queued now.
    position_ = std::max(position_, head);
    if (position_ + 1 >= feed.first()) JoinFeed();
  } else if (!entries->empty()) {
    position_ = std::max(position_, entries->back().position());
  }
}

void WatchStream::JoinFeed() {
  in_feed_ = true;
  if (!live_from_.has_value()) live_from_ = hub_->feed().head();
}

void WatchStream::CaughtUp() {
  caught_up_sent_ = true;
  Item item;
  item.cursor = cursor();
  item.position = position_;
  v1::WatchResponse message;
  if (target_.game_id) {
    message.mutable_caught_up()->set_revision(item.cursor);
  } else {
    message.mutable_caught_up()->set_position(item.cursor);
  }
  item.message = ToWatchBytes(message);
  queue_.push_back(std::move(item));
}

void WatchStream::ReadFeed() {
  for (;;) {
    ledger::CommitFeed::Slice slice = hub_->feed().Read(position_, 16 * kLiveBatch);
    if (!slice.in_window) {
      // A burst larger than the window passed while this stream was idle:
      // the database has it.
      in_feed_ = false;
      return ReadHistory();
    }
    for (const auto& e : slice.entries) {
      if (target_.game_id && (e->game_id() != *target_.game_id || e->revision() <= revision_)) {
        position_ = e->position();
        continue;
      }
      if (!Queue(*e)) return;
      position_ = e->position();
      if (queue_.size() >= kLiveBatch) return;
    }
    if (slice.entries.empty()) {
      if (slice.closed) {
        end_ = absl::UnavailableError("the server is shutting down");
      } else if (!caught_up_sent_) {
        CaughtUp();  // at the head: what follows is live
      }
      return;
    }
    if (!queue_.empty()) return;
  }
}

}  // namespace arbiter::service
