// The pages following the live feed (/api/feed, live_feed.h), or the
// public broadcast (/broadcast/events, broadcast.h), parked on a few epoll
// loops per feed (at most kMaxLoops; the console's pages and the
// broadcast's viewers take one each). The first loop may be a guest of
// another loop's thread (loop_host.h: the console's pages are on the
// console's own loop's), the others a thread each.
// Once a page's request is admitted and its answer's head is written
// (perhaps not yet sent: the page sends it first), the HTTP server hands
// its connection over (GuardedServer::HandOver) with its TLS state and its
// place in the feed, and the page is given to the loops in turn. Each loop
// is one epoll set holding its share of the pages: it wakes when the feed
// has a message (the first loop reads the feed's eventfd and tells the
// others on their own), when a page's socket takes more or closes, and
// once every kKeepAlive for all its pages together (a timerfd, armed while
// it holds a page: a keep-alive comment to each page sent nothing
// meanwhile, and the stall check). No page has a thread or a timer of its
// own; nothing polls.
//
// Writes never wait: each page's output is a queue of chunks written as
// its socket takes them, by non-blocking sends (TLS too: a partial
// SSL_write is retried with the same bytes when the socket allows). A
// message is framed once per loop for all its pages at the same place in
// the feed and shared, not copied (the feed serialised each event once). A
// page is cut off (closed: its EventSource reconnects with Last-Event-ID
// and resumes, or reloads) when its queue passes kMaxQueuedBytes or its
// socket took nothing for kWriteStall while it had output, so a page that
// does not read costs the others nothing. A page further behind than the
// feed's window is told to reload (LiveFeed::Next).
//
// A page costs its socket, its TLS state (OpenSSL's buffers are released
// while idle) and about 1-4 KiB of the server's memory (tests/bench/README.md
// "Watchers" and "The broadcast").
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FOLLOWERS_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FOLLOWERS_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/console/connection.h"
#include "adjudicator/service/console/feed_source.h"
#include "adjudicator/service/console/http_limits.h"
#include "adjudicator/service/console/loop_host.h"

namespace arbiter::service::console {

class Followers {
 public:
  // A page's output not yet taken by its socket, beyond the chunk being
  // written, beyond which it is cut off.
  static constexpr size_t kMaxQueuedBytes = 256 * 1024;
  // At most about this much of the feed is queued for a page at once: a
  // page catching up takes the next part once its socket took the last.
  static constexpr size_t kStepBytes = 64 * 1024;
  // How often a page sent nothing gets a keep-alive comment (": keep-alive").
  static constexpr absl::Duration kKeepAlive = absl::Seconds(10);
  // Loops of one feed at most (the server's thread budget, ThreadsTest).
  static constexpr int kMaxLoops = 4;

  // One loop per core the machine has, at most kMaxLoops.
  static int LoopPerCore();

  // Follows `feed` (not owned; it must outlive this) for at most
  // `limits.in_all` pages at once, `limits.per_caller` of them one
  // caller's, on `loops` loops (1 to kMaxLoops); the first is a guest of
  // `host` when one is given (not owned; it must outlive this or Stop()),
  // each other runs on a thread of its own, started here.
  Followers(FeedSource* feed, FeedLimits limits, int loops = 1, LoopHost* host = nullptr);
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
  // closes them and ends the loops. Idempotent.
  void Stop();

  // The pages parked now, on all loops (for tests and figures).
  int parked() const { return parked_.load(); }
  // The pages parked now on each loop.
  std::vector<int> ParkedByLoop() const;

 private:
  class Loop;  // one epoll set and its thread (followers.cc)
  friend class Loop;

  FeedSource* const feed_;
  const FeedLimits limits_;
  std::atomic<int> parked_{0};
  std::atomic<unsigned> next_loop_{0};
  absl::Mutex places_mu_;
  int places_ ABSL_GUARDED_BY(places_mu_) = 0;
  absl::flat_hash_map<std::string, int> places_by_caller_ ABSL_GUARDED_BY(places_mu_);
  std::vector<std::unique_ptr<Loop>> loops_;
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FOLLOWERS_H_
