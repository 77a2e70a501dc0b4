// One watch stream (WatchGame, WatchAll) as a gRPC callback reactor, with a
// bounded buffer between the ledger and the client.
//
// A feeder thread takes committed events from the stream's subscription (a
// cursor over the ledger) into a buffer; gRPC writes from the buffer as fast
// as the client reads. While it catches up on what was recorded before, the
// feeder waits for room in the buffer (the history stays in the ledger).
// Once caught up, live events are not held back for a client that does not
// keep up: when the buffer passes `max_buffer` bytes (kMaxWatchBufferBytes,
// field_bounds.h) the stream drops it and ends with RESOURCE_EXHAUSTED,
// naming the revision (WatchGame) or position (WatchAll) to resume after:
// the last event the client will have received. So a stream holds at most
// `max_buffer` bytes plus the one message gRPC is writing, whatever its
// client does; with the cap on streams (auth_gatekeeper.h) that bounds what
// watchers can make the server hold.
//
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
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "arbiter/v1/service.pb.h"
#include "grpcpp/server_context.h"
#include "grpcpp/support/server_callback.h"
#include "ledger/subscription.h"

namespace arbiter::service {

class WatchStream final : public grpc::ServerWriteReactor<v1::WatchResponse> {
 public:
  // Streams `subscription` (by game: revisions; else log positions) until
  // the client goes away, `shutting_down` turns true, or the buffer
  // overflows. It deletes itself when gRPC is done with the call.
  // `shutting_down` must outlive the call.
  static WatchStream* Start(grpc::CallbackServerContext* context,
                            std::unique_ptr<ledger::Subscription> subscription, bool by_game,
                            const std::atomic<bool>* shutting_down, size_t max_buffer,
                            absl::Duration stall_timeout);

  // A stream that ends at once with `status` (a refused or malformed call).
  static grpc::ServerWriteReactor<v1::WatchResponse>* Ended(const absl::Status& status);

  void OnWriteDone(bool ok) override;
  void OnCancel() override { gone_ = true; }
  void OnDone() override;

 private:
  struct Item {
    v1::WatchResponse message;
    uint64_t cursor;  // the revision or position the client has seen once it has this
    size_t bytes;
  };

  WatchStream(grpc::CallbackServerContext* context,
              std::unique_ptr<ledger::Subscription> subscription, bool by_game,
              const std::atomic<bool>* shutting_down, size_t max_buffer,
              absl::Duration stall_timeout);

  // The feeder thread: the loop, then the wait for the end to go out.
  void Feed();
  void FeedUntilEnd();
  void AwaitFinish();
  // True when the message being written (or the end, once finishing) has
  // waited for the client longer than the stall timeout.
  bool Stalled() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Ends the stream as stalled and cancels the call.
  void CancelStalled();
  // Queues `item`; false once the stream is ending (nothing more to feed).
  bool Push(Item item, bool live);
  // Ends the stream with `status` once the message being written is done;
  // the first end wins.
  void End(const absl::Status& status);
  // Starts the next write, or the Finish, when nothing is being written.
  // Called without the lock: gRPC may run a reaction inline.
  void Pump();

  std::unique_ptr<ledger::Subscription> subscription_;  // the feeder's alone
  const bool by_game_;
  const std::atomic<bool>* shutting_down_;
  const size_t max_buffer_;
  grpc::CallbackServerContext* const context_;
  const absl::Duration stall_timeout_;
  std::atomic<bool> gone_{false};  // the client went away
  std::thread feeder_;

  absl::Mutex mu_;
  std::deque<Item> queue_ ABSL_GUARDED_BY(mu_);  // front: being written while writing_
  size_t queued_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t delivered_ ABSL_GUARDED_BY(mu_) = 0;  // cursor of the last message written
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  absl::Time write_started_ ABSL_GUARDED_BY(mu_);
  std::optional<absl::Status> end_ ABSL_GUARDED_BY(mu_);
  bool finished_ ABSL_GUARDED_BY(mu_) = false;
  absl::Time finish_started_ ABSL_GUARDED_BY(mu_);
  bool done_ ABSL_GUARDED_BY(mu_) = false;  // gRPC is done with the call
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_WATCH_STREAM_H_
