// What every watch stream (watch_stream.h) of a server shares: the ledger's
// commit feed, each event's message serialized once, and a few threads that
// wake the streams, so a stream holds no thread of its own and never polls.
//
// The streams are spread over the hub's threads (shards). A shard's thread
// sleeps until something happens that its streams must act on, and then
// wakes each of them once:
//   - a commit that moves the feed's head, or the feed's close (the feed's
//     listener only flags it: the writer never waits for watchers): the
//     streams at the feed's head read it and write it (a checkpoint signed
//     at the same head wakes none);
//   - the server's shutdown (Shutdown): the streams end;
//   - the stall deadline of a write in flight: the earliest time at which
//     a message will have waited `stall_timeout` for its client. A shard
//     waits with a timeout only while one of its streams has a write (or
//     its end) in flight, to the earliest such deadline.
// Nothing else wakes it: no periodic tick. A stream's own client wakes it
// directly, on gRPC's threads (a write done, a cancellation).
//
// An event is serialized once for every stream that sends it (Message): the
// streams write copies of one grpc::ByteBuffer, whose slices are shared, so
// 5,000 watchers of one event cost one encoding, not 5,000.
#ifndef ARBITER_ADJUDICATOR_SERVICE_WATCH_HUB_H_
#define ARBITER_ADJUDICATOR_SERVICE_WATCH_HUB_H_

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "arbiter/v1/service.pb.h"
#include "grpcpp/support/byte_buffer.h"
#include "ledger/commit_feed.h"
#include "ledger/ledger.h"

namespace arbiter::service {

class WatchStream;

// A WatchResponse as it goes on the wire, shared by the streams that send it.
using WatchBytes = std::shared_ptr<const grpc::ByteBuffer>;

// `message` serialized once (what gRPC would write for it).
WatchBytes ToWatchBytes(const v1::WatchResponse& message);

class WatchHub {
 public:
  // `ledger` is not owned and must outlive the hub. A live stream whose
  // client lags more than `max_buffer` bytes of the log is cut off; one
  // whose message waited `stall_timeout` is cancelled. The streams are
  // spread over `threads` threads (at least one).
  WatchHub(ledger::Ledger* ledger, size_t max_buffer, absl::Duration stall_timeout, int threads);
  // Stops the threads. The streams must be over (the server has shut down).
  ~WatchHub();

  ledger::Ledger& ledger() { return *ledger_; }
  ledger::CommitFeed& feed() { return *feed_; }
  size_t max_buffer() const { return max_buffer_; }
  absl::Duration stall_timeout() const { return stall_timeout_; }

  // The server is shutting down: every stream ends with UNAVAILABLE (after
  // the message it is writing), and a stream that starts from now on ends
  // at once. Wakes every shard.
  void Shutdown();
  bool shutting_down() const { return shutting_down_.load(std::memory_order_acquire); }
  // After Shutdown: waits until every stream has ended (left its shard in
  // its OnDone, its status written), or until `deadline`. The server waits
  // for this before gRPC's own shutdown, whose GOAWAY then follows every
  // stream's status on each connection: gRPC closes a connection as soon as
  // its last stream is done after a GOAWAY, and a client whose status was
  // still on its way then read the kernel's reset ("Connection reset by
  // peer") instead of "the server is shutting down".
  void AwaitStreamsEnded(absl::Time deadline);

  // The message of a committed entry, decoded and serialized once for every
  // stream that sends it (the latest kKeptMessages are kept). DATA_LOSS if
  // the stored event does not parse.
  absl::StatusOr<WatchBytes> Message(const v1::LedgerEntry& entry);

  // The shard a new stream goes to (in turn); the stream joins it when it
  // starts and leaves it in its OnDone.
  int PickShard();
  void Join(int shard, WatchStream* stream);
  void Leave(int shard, WatchStream* stream);
  // A stream of `shard` has started a write (or its end) that stalls if it
  // is not done by `deadline`: the shard wakes then if nothing else has
  // woken it before. Cheap when the shard already wakes earlier.
  void StallDeadline(int shard, absl::Time deadline);

 private:
  struct Shard {
    absl::Mutex mu;
    absl::flat_hash_set<WatchStream*> streams ABSL_GUARDED_BY(mu);
    bool woken ABSL_GUARDED_BY(mu) = false;        // a commit, or the shutdown
    bool rescheduled ABSL_GUARDED_BY(mu) = false;  // `check` moved earlier
    bool stopping ABSL_GUARDED_BY(mu) = false;
    // At or before the stall deadline of every write in flight of the
    // shard's streams (InfiniteFuture: none). Read without the lock only to
    // skip the lock when a deadline is later.
    std::atomic<int64_t> check{kNever};
    std::thread thread;
  };
  static constexpr int64_t kNever = INT64_MAX;  // `check`: nanoseconds since the epoch

  void Run(Shard& shard);
  static bool Empty(Shard* shard) ABSL_EXCLUSIVE_LOCKS_REQUIRED(shard->mu) {
    return shard->streams.empty();
  }
  // Wakes every stream of `shard` in turn.
  void WakeAll(Shard& shard, std::vector<WatchStream*>& woken);

  ledger::Ledger* const ledger_;
  // Held, not borrowed: the server closes the ledger before it destroys the
  // hub, whose destructor still leaves the feed.
  const std::shared_ptr<ledger::CommitFeed> feed_;
  const size_t max_buffer_;
  const absl::Duration stall_timeout_;
  std::atomic<bool> shutting_down_{false};
  std::atomic<uint64_t> told_head_{0};  // the feed's head as its listener was last told
  int listener_ = -1;

  absl::Mutex messages_mu_;
  absl::flat_hash_map<uint64_t, WatchBytes> messages_ ABSL_GUARDED_BY(messages_mu_);
  std::deque<uint64_t> message_order_ ABSL_GUARDED_BY(messages_mu_);

  std::atomic<unsigned> next_shard_{0};
  std::vector<std::unique_ptr<Shard>> shards_;  // fixed after construction
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_WATCH_HUB_H_
