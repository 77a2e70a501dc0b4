// What every watch stream (watch_stream.h) of a server shares: the ledger's
// commit feed and one thread that wakes the streams, so a stream holds no
// thread of its own and never polls the database.
//
// The hub's thread wakes every stream after each commit (the feed's
// listener only flags it, so the writer never waits for watchers), and
// every 200 ms, when the streams look at their client (a write waiting past
// the stall timeout) and at the server (shutting down).
#ifndef ARBITER_ADJUDICATOR_SERVICE_WATCH_HUB_H_
#define ARBITER_ADJUDICATOR_SERVICE_WATCH_HUB_H_

#include <atomic>
#include <cstddef>
#include <deque>
#include <memory>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "arbiter/v1/service.pb.h"
#include "ledger/commit_feed.h"
#include "ledger/ledger.h"

namespace arbiter::service {

class WatchStream;

class WatchHub {
 public:
  // `ledger` and `shutting_down` are not owned and must outlive the hub. A
  // live stream whose client lags more than `max_buffer` bytes of the log is
  // cut off; one whose message waited `stall_timeout` is cancelled.
  WatchHub(ledger::Ledger* ledger, const std::atomic<bool>* shutting_down, size_t max_buffer,
           absl::Duration stall_timeout);
  // Stops the thread. The streams must be over (the server has shut down).
  ~WatchHub();

  ledger::Ledger& ledger() { return *ledger_; }
  ledger::CommitFeed& feed() { return *feed_; }
  bool shutting_down() const { return *shutting_down_; }
  size_t max_buffer() const { return max_buffer_; }
  absl::Duration stall_timeout() const { return stall_timeout_; }

  // The message of a committed entry, decoded once for every stream that
  // sends it (the latest kKeptMessages are kept); gRPC serializes it for
  // each without changing it. DATA_LOSS if the stored event does not parse.
  absl::StatusOr<std::shared_ptr<const v1::WatchResponse>> Message(const v1::LedgerEntry& entry);

  // A stream joins when it starts and leaves in its OnDone.
  void Join(WatchStream* stream);
  void Leave(WatchStream* stream);

 private:
  void Run();

  ledger::Ledger* const ledger_;
  // Held, not borrowed: the server closes the ledger before it destroys the
  // hub, whose destructor still leaves the feed.
  const std::shared_ptr<ledger::CommitFeed> feed_;
  const std::atomic<bool>* const shutting_down_;
  const size_t max_buffer_;
  const absl::Duration stall_timeout_;
  int listener_ = -1;

  absl::Mutex messages_mu_;
  absl::flat_hash_map<uint64_t, std::shared_ptr<const v1::WatchResponse>> messages_
      ABSL_GUARDED_BY(messages_mu_);
  std::deque<uint64_t> message_order_ ABSL_GUARDED_BY(messages_mu_);

  absl::Mutex mu_;
  absl::flat_hash_set<WatchStream*> streams_ ABSL_GUARDED_BY(mu_);
  bool committed_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_WATCH_HUB_H_
