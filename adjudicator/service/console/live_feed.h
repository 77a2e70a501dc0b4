// The console's live updates: each commit the ledger's commit feed
// (ledger/commit_feed.h) carries becomes one Server-Sent Event per game it
// advanced, carrying the game as GetGame answers it (arbiter.v1.Game in the
// proto3 JSON mapping), shared by every open page. Pages follow it with
// EventSource instead of polling.
//
// The commit feed only wakes the feed's one thread (its listener runs on
// the ledger's writer thread); the thread reads the commits from the commit
// feed and folds them into messages, keeping the latest revision of a game
// when several commits came meanwhile, so a page always ends on the game as
// last committed. Messages are numbered; each page reads from its number on
// (an EventSource's Last-Event-ID resumes it). A page that fell further
// behind than the kept window is told to reload, as are all pages when the
// thread itself finds the commit feed's window past it (the games advanced
// meanwhile are not named).
//
// No page holds a thread while it follows: the pages are parked on one
// loop (followers.h), which this feed wakes through its eventfd (wake_fd)
// when it has new messages, and which writes each message to every page
// without waiting. Before (cpp-httplib 0.11 calls a chunked content
// provider in a loop on the connection's thread) each page held a server
// thread, and the console took at most 200.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_LIVE_FEED_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_LIVE_FEED_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "adjudicator/service/console/feed_source.h"
#include "adjudicator/service/game_folds.h"
#include "ledger/commit_feed.h"

namespace arbiter::service::console {

class LiveFeed final : public FeedSource {
 public:
  static constexpr size_t kWindow = 4096;  // messages kept for pages that lag

  // Follows `commits` from its head on, from here to Stop(). `folds` is
  // not owned and must outlive the feed.
  LiveFeed(GameFolds* folds, std::shared_ptr<ledger::CommitFeed> commits);
  ~LiveFeed();  // Stop()s

  // Ends the feed: every Next returns `closed` from now on. Idempotent.
  void Stop();

  // An eventfd (non-blocking) that becomes readable when messages come or
  // the feed stops; its one reader reads it to clear it, then calls Next.
  int wake_fd() const override { return wake_; }

  // The number of the last message sent; a page that loaded its data now
  // follows from here.
  uint64_t Head();

  // What a page following from `after` is sent next, without waiting: the
  // text of the events (empty when none came; at most about `max_bytes`,
  // whole events, at least one), and the number to follow from after them;
  // `more` when messages after those are kept.
  using Batch = FeedBatch;
  Batch Next(uint64_t after, size_t max_bytes) override;

 private:
  void Run(uint64_t position);
  // The games the commits after `*position` advanced (latest revision of
  // each), moving `*position` on; false when the commit feed no longer
  // holds them.
  bool Advanced(uint64_t* position, absl::flat_hash_map<std::string, uint64_t>* games);

  // Makes wake_fd() readable.
  void Wake();

  GameFolds* folds_;
  const int wake_;
  const std::shared_ptr<ledger::CommitFeed> commits_;
  int listener_ = -1;
  std::thread thread_;
  absl::Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  bool committed_ ABSL_GUARDED_BY(mu_) = false;  // the commit feed moved
  // Messages [first_, first_ + messages_.size()), numbered from 1; an empty
  // one tells the pages to reload.
  std::deque<std::string> messages_ ABSL_GUARDED_BY(mu_);
  uint64_t first_ ABSL_GUARDED_BY(mu_) = 1;
};

// One Server-Sent Event: "id: N\nevent: KIND\ndata: DATA\n\n" (DATA has no
// newline: proto3 JSON on one line).
std::string ServerSentEvent(uint64_t id, absl::string_view kind, absl::string_view data);

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_LIVE_FEED_H_
