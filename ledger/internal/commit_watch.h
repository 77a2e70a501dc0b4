// The writer's side of the commit feed (internal to the ledger): each store
// writer holds one and publishes every commit into it, this process's with
// the entries it answered, another process's (a shared PostgreSQL ledger,
// seen by the head poll) as a new head only. Followers read the feed
// (Ledger::commit_feed(), commit_feed.h), never this.
#ifndef ARBITER_LEDGER_INTERNAL_COMMIT_WATCH_H_
#define ARBITER_LEDGER_INTERNAL_COMMIT_WATCH_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "arbiter/v1/ledger.pb.h"
#include "ledger/commit_feed.h"

namespace arbiter::ledger {

class CommitWatch {
 public:
  // A new head whose entries this process did not write (or has not kept):
  // the feed restarts after it.
  void Publish(uint64_t head) { feed_.Publish(head, {}); }
  // A commit of this process's writer: `committed`, the entries it answered.
  void Publish(uint64_t head, std::vector<v1::LedgerEntry> committed) {
    feed_.Publish(head, std::move(committed));
  }
  void Close() { feed_.Close(); }
  CommitFeed& feed() { return feed_; }

 private:
  CommitFeed feed_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_COMMIT_WATCH_H_
