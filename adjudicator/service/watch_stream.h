// One watch stream (WatchGame, WatchAll) as a gRPC callback reactor with no
// thread of its own: it writes its next message when the previous write is
// done, and the watch hub (watch_hub.h) wakes it when a commit lands, when
// the server shuts down, and when a write of its may have stalled. It writes
// the messages as serialized bytes (the method's response is a raw
// grpc::ByteBuffer, its request typed: ArbiterService), the events' shared
// with every other stream (WatchHub::Message); clients see WatchResponses.
//
// From where the client asks, the stream reads the history from the
// ledger's pooled readers, a batch at a time and one message in flight, so
// a client that reads slowly only slows its own history. Once the history
// reaches the commit feed's window (ledger/commit_feed.h) it reads the feed
// instead: the events of each commit, shared by every stream, never read
// from the database again. At the feed's head it sends `caught_up`; what
// follows is live. The join has no gap and
// no repeat: a WatchAll stream continues after the last position it sent; a
// WatchGame stream, after the last revision it sent, skips the feed's
// entries up to the feed's head as it was before its last history read
// (the database had all of them by then). A stream whose position falls out
// of the window while idle (a burst larger than the window) reads the
// history again, and joins again, without a second `caught_up`. Before
// `caught_up` the stream waits for its client however slow it is.
//
// Live events are not held back for a client that does not keep up: the
// events committed after the stream first reached the feed are live, and
// when a message waits for the client while more than `max_buffer` bytes
// (kMaxWatchBufferBytes, field_bounds.h) of live events are past it, the
// stream ends with RESOURCE_EXHAUSTED, naming the revision (WatchGame) or
// position (WatchAll) to resume after: the last event the client will have
// received. What a stream holds meanwhile is the message being written and
// at most a read batch; the events themselves are the feed's, held once for
// all (so the cut-off is about the client, not the server's memory).

// A client that stops reading altogether would still hold its stream, and
// its place under the cap, for as long as it keeps the connection: no end
// can be sent while a message waits for it to read. So a stream whose
// message has waited `stall_timeout` for its client (`arbiter serve
// --watch-stall`, 60 s by default) is cancelled (the client sees CANCELLED),
// which frees it at once, what it held and its place included.
//
// Other ends: UNAVAILABLE when the server shuts down or the ledger closes,
// CANCELLED when the client goes away, DATA_LOSS for a stored event that no
// longer parses, the ledger's errors.
#ifndef ARBITER_ADJUDICATOR_SERVICE_WATCH_STREAM_H_
#define ARBITER_ADJUDICATOR_SERVICE_WATCH_STREAM_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/watch_hub.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/byte_buffer.h"
#include "grpcpp/support/server_callback.h"

namespace arbiter::service {

// What a stream follows: one game from a revision, or the log from a position.
struct WatchTarget {
  std::optional<std::string> game_id;  // none: the whole log
  uint64_t after = 0;                  // revision (game) or position (log)
};

class WatchStream final : public grpc::ServerWriteReactor<grpc::ByteBuffer> {
 public:
  // Streams `target` until the client goes away, the server shuts down, or
  // the client falls behind. It deletes itself once gRPC is done with the
  // call and the hub has let go of it. `hub` must outlive the call.
  static WatchStream* Start(grpc::CallbackServerContext* context, WatchHub* hub,
                            WatchTarget target);

  // A stream that ends at once with `status` (a refused or malformed call).
  static grpc::ServerWriteReactor<grpc::ByteBuffer>* Ended(const absl::Status& status);

  // The hub: a commit landed, the server is shutting down, or a stall
  // deadline passed (`now`). Returns the stall deadline of the write (or
  // end) now in flight, InfiniteFuture if none.
  absl::Time Wake(absl::Time now);
  void Ref() { refs_.fetch_add(1, std::memory_order_relaxed); }
  void Unref();

  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;

 private:
  struct Item {
    WatchBytes message;  // an event's: shared (WatchHub::Message)
    uint64_t cursor;     // the revision or position the client has seen once it has this
    uint64_t position;   // the log position the stream has read up to with it
  };

  WatchStream(grpc::CallbackServerContext* context, WatchHub* hub, int shard, WatchTarget target);

  // Writes the next message, or the end, or checks the one being written;
  // returns the stall deadline of what is in flight (InfiniteFuture: none).
  // Called without the lock: gRPC may run a reaction inline.
  absl::Time Step(absl::Time now);
  // Step, from a reaction of gRPC's (not the hub's): the hub is told the
  // deadline.
  void StepAndReport();
  // What a Step does once it lets go of the lock (at most one of the three),
  // and the stall deadline it returns.
  struct StepAction {
    bool cancel = false;                     // TryCancel: the client stalled
    const grpc::ByteBuffer* next = nullptr;  // StartWrite
    std::optional<absl::Status> finish;      // Finish
    absl::Time deadline = absl::InfiniteFuture();
  };
  // A write or the end is out: cancels the call once the client has read
  // nothing for the stall timeout, and ends a live stream whose client
  // falls too far behind the feed (it is sent nothing more).
  StepAction WatchOutstanding(absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Nothing is out: the next message to write, else the end to finish with
  // (the client gone, the server shutting down, or end_ set while reading).
  StepAction TakeNext(absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Fills queue_ from the history or the feed; may set end_.
  void Refill() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ReadHistory() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ReadFeed() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Queues `entry` as an event; false (and end_ set) if it does not parse.
  bool Queue(const v1::LedgerEntry& entry) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Reads from the feed from now on.
  void JoinFeed() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Queues `caught_up`: the stream has reached the feed's head.
  void CaughtUp() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  uint64_t cursor() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return target_.game_id ? revision_ : position_;
  }
  absl::string_view resume_field() const {
    return target_.game_id ? "after_revision " : "after_position ";
  }

  grpc::CallbackServerContext* const context_;
  WatchHub* const hub_;
  const WatchTarget target_;
  const int shard_;  // the hub's thread that wakes it
  // gRPC's reference (dropped in OnDone) and the hub's while it wakes it.
  std::atomic<int> refs_{1};

  absl::Mutex mu_;
  uint64_t revision_ ABSL_GUARDED_BY(mu_) = 0;  // last queued (game)
  // Last log position read: every entry up to it is queued (log), or every
  // entry of the game up to it is (game).
  uint64_t position_ ABSL_GUARDED_BY(mu_) = 0;
  bool in_feed_ ABSL_GUARDED_BY(mu_) = false;  // reading the feed, not the database
  bool caught_up_sent_ ABSL_GUARDED_BY(mu_) = false;
  // The feed's head when the stream first read from the feed: what was
  // committed after it is live, and a client lagging more than max_buffer
  // bytes of it is cut off; what came before is history, which waits.
  std::optional<uint64_t> live_from_ ABSL_GUARDED_BY(mu_);
  std::deque<Item> queue_ ABSL_GUARDED_BY(mu_);  // front: being written while writing_
  bool gone_ ABSL_GUARDED_BY(mu_) = false;       // the client went away
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  absl::Time write_started_ ABSL_GUARDED_BY(mu_);
  std::optional<absl::Status> end_ ABSL_GUARDED_BY(mu_);
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  absl::Time finish_started_ ABSL_GUARDED_BY(mu_);
  bool cancelled_ ABSL_GUARDED_BY(mu_) = false;  // TryCancel sent
  bool done_ ABSL_GUARDED_BY(mu_) = false;       // gRPC is done with the call
  uint64_t delivered_ ABSL_GUARDED_BY(mu_) = 0;  // cursor of the last message written
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_WATCH_STREAM_H_
