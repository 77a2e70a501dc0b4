// The pages following the live feed (/api/feed, live_feed.h), or the
// public broadcast (/broadcast/events, broadcast.h), parked on one loop
// per feed. Once a page's request is admitted and its answer's head is
// written (perhaps not yet sent: the page sends it first), the HTTP server
// hands its connection over (GuardedServer::HandOver) with its TLS state and
// its place in the feed. One thread and one epoll set hold every page: it
// wakes when the feed has a message (the feed's eventfd), when a page's
// socket takes more or closes, and once every kKeepAlive for all pages
// together (a keep-alive comment to each page sent nothing meanwhile, and
// the stall check). No page has a thread or a timer of its own; nothing
// polls.
//
// Writes never wait: each page's output is a queue of chunks written as
// its socket takes them (TLS too: a partial SSL_write is retried with the
// same bytes when the socket allows). A message is framed once for all the
// pages at the same place in the feed and shared, not copied. A page is cut
// off (closed: its EventSource reconnects with Last-Event-ID and resumes,
// or reloads) when its queue passes kMaxQueuedBytes or its socket took
// nothing for kWriteStall while it had output, so a page that does not read
// costs the others nothing. A page further behind than the feed's window
// is told to reload (LiveFeed::Next).
//
// A page costs its socket, its TLS state (OpenSSL's buffers are released
// while idle) and about 4 KiB of the server's memory (3.6 KiB per idle
// plain page measured: tests/bench/README.md "Watchers").
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FOLLOWERS_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FOLLOWERS_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/console/connection.h"
#include "adjudicator/service/console/feed_source.h"
#include "adjudicator/service/console/http_limits.h"

namespace arbiter::service::console {

class Followers {
 public:
  // A page's output not yet taken by its socket, beyond which it is cut off.
  static constexpr size_t kMaxQueuedBytes = 256 * 1024;
  // At most about this much of the feed is queued for a page at once: a
  // page catching up takes the next part once its socket took the last.
  static constexpr size_t kStepBytes = 64 * 1024;
  // How often a page sent nothing gets a keep-alive comment (": keep-alive").
  static constexpr absl::Duration kKeepAlive = absl::Seconds(10);

  // Follows `feed` (not owned; it must outlive this) for at most
  // `limits.in_all` pages at once, `limits.per_caller` of them one
  // caller's; starts the loop's thread.
  Followers(FeedSource* feed, FeedLimits limits);
  ~Followers();  // Stop()s

  // Takes one place for a page of `caller` (Caller::key) about to be
  // parked; UNAVAILABLE, saying which cap, when the caller holds
  // `per_caller`, or the server `in_all`, or, for a caller who is not an
  // `official` (an ARBITER or CHIEF_ARBITER token), all but the places
  // kept for the officials (FeedLimits::ForOfficialsOnly).
  absl::Status Reserve(const std::string& caller, bool official);
  // Gives back a place Reserve()d for a page of `caller` not parked.
  void Unreserve(const std::string& caller);

  // Takes over a page of `caller` that holds a place: its answer's head (a
  // chunked text/event-stream) is written; it is sent the feed's greeting,
  // then every message after `after`. Once stopped, closes it.
  void Park(std::unique_ptr<Connection> page, uint64_t after, std::string caller);

  // Ends every page's stream (the last chunk, if its socket takes it now),
  // closes them and ends the loop. Idempotent.
  void Stop();

  // The pages parked now (for tests and figures).
  int parked() const { return parked_.load(); }

 private:
  struct Page;
  using Chunk = std::shared_ptr<const std::string>;
  // The feed's next text for the pages at one place, framed once.
  struct Step {
    Chunk chunk;  // null: nothing new
    uint64_t next = 0;
    bool closed = false;
    bool more = false;  // the feed has more after `next`
  };
  using Steps = absl::flat_hash_map<uint64_t, Step>;

  void Run();
  // Adds the pages Park() left in inbox_ to the loop.
  void Adopt();
  // Queues what the feed has for `page` after its place (`steps`: what it
  // had for each place this turn); false when the feed closed.
  bool Catch(Page& page, Steps& steps);
  void Queue(Page& page, Chunk chunk);
  // Writes what the page's socket takes now; false when it is to be cut off.
  bool Flush(Page& page);
  // Flush()es, and while the socket takes it all and the page is behind,
  // queues the feed's next part; marks the page dead when it is cut off.
  void Pump(Page& page, Steps& steps);
  // Sends the last chunk if the socket takes it now, and closes the page.
  void End(Page& page);
  void Drop(Page* page);
  // Every kKeepAlive: a comment to each page that was sent nothing since
  // the last, and the cut-off of one whose socket took nothing for
  // kWriteStall.
  void KeepAlive(absl::Time now, Steps& steps);
  // Drops the pages marked dead this turn.
  void DropTheDead();

  // A page handed to Park(), for the loop to adopt.
  struct Arrival {
    std::unique_ptr<Connection> connection;
    uint64_t after = 0;
    std::string caller;
  };

  FeedSource* const feed_;
  const FeedLimits limits_;
  const int epoll_;
  const int wake_;  // an eventfd: Park() or Stop() has something for the loop
  std::atomic<int> parked_{0};
  absl::Mutex places_mu_;
  int places_ ABSL_GUARDED_BY(places_mu_) = 0;
  absl::flat_hash_map<std::string, int> places_by_caller_ ABSL_GUARDED_BY(places_mu_);
  absl::Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<Arrival> inbox_ ABSL_GUARDED_BY(mu_);
  // The loop thread's own.
  absl::flat_hash_map<Page*, std::unique_ptr<Page>> pages_;
  std::thread thread_;
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FOLLOWERS_H_
