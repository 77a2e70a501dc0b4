// What the followers' loop (followers.h) follows: a numbered sequence of
// Server-Sent Events, readable without waiting, and an eventfd that says
// when there is more. The console's live feed (live_feed.h, numbered by
// message) and the public broadcast (broadcast.h, numbered by ledger
// position) are two; one loop serves the pages of each.
#ifndef ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FEED_SOURCE_H_
#define ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FEED_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace arbiter::service::console {

// What a page following from `after` is sent next: the text of the events
// (empty when none came; whole events, at most about the bytes asked for,
// at least one), and the number to follow from after them; `more` when
// there are events after those; `closed` once the source stopped.
struct FeedBatch {
  std::string text;
  uint64_t next = 0;
  bool closed = false;
  bool more = false;
};

class FeedSource {
 public:
  virtual ~FeedSource() = default;
  // An eventfd (non-blocking) that becomes readable when events come or the
  // source stops; its one reader reads it to clear it, then calls Next.
  virtual int wake_fd() const = 0;
  virtual FeedBatch Next(uint64_t after, size_t max_bytes) = 0;
};

}  // namespace arbiter::service::console

#endif  // ARBITER_ADJUDICATOR_SERVICE_CONSOLE_FEED_SOURCE_H_
