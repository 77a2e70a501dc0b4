// Subscriptions: a pull cursor over committed events, by game or over the
// whole log. Positions are gapless and assigned in commit order, so resuming
// after position p (or revision r) yields exactly the events after it: none
// skipped, none repeated.
#ifndef ARBITER_LEDGER_SUBSCRIPTION_H_
#define ARBITER_LEDGER_SUBSCRIPTION_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/commit_feed.h"
#include "ledger/log_source.h"

namespace arbiter::ledger {

// The committed head, published by the writer after each COMMIT, and the
// commit feed (commit_feed.h) its entries go into.
class CommitWatch {
 public:
  explicit CommitWatch(uint64_t head) : head_(head) {}
  // A new head whose entries this process did not write (or has not kept):
  // the feed restarts after it.
  void Publish(uint64_t head) { Publish(head, {}); }
  // A commit of this process's writer: `committed`, the entries it answered.
  void Publish(uint64_t head, std::vector<v1::LedgerEntry> committed);
  void Close();
  CommitFeed& feed() { return feed_; }
  // Waits until the head passes `after`, the watch closes, or `timeout`
  // passes; returns the head and whether the watch is still open.
  std::pair<uint64_t, bool> WaitBeyond(uint64_t after, absl::Duration timeout);
  uint64_t head();

 private:
  absl::Mutex mu_;
  uint64_t head_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  CommitFeed feed_;
};

class Subscription {
 public:
  // Every event with position > `after_position`.
  static std::unique_ptr<Subscription> ForLog(std::unique_ptr<LogSource> reader,
                                              std::shared_ptr<CommitWatch> watch,
                                              uint64_t after_position);
  // The events of `game_id` with revision > `after_revision`.
  static std::unique_ptr<Subscription> ForGame(std::unique_ptr<LogSource> reader,
                                               std::shared_ptr<CommitWatch> watch,
                                               std::string game_id, uint64_t after_revision);

  // The next committed events (at most `max`), waiting up to `timeout` for
  // one; empty when none came. CANCELLED once the ledger has closed.
  absl::StatusOr<std::vector<v1::LedgerEntry>> Next(absl::Duration timeout, size_t max = 256);

  // The last position (log) or revision (game) delivered: resume after it.
  uint64_t cursor() const { return cursor_; }

 private:
  Subscription(std::unique_ptr<LogSource> reader, std::shared_ptr<CommitWatch> watch,
               std::optional<std::string> game_id, uint64_t cursor)
      : reader_(std::move(reader)),
        watch_(std::move(watch)),
        game_id_(std::move(game_id)),
        cursor_(cursor) {}

  std::unique_ptr<LogSource> reader_;
  std::shared_ptr<CommitWatch> watch_;
  std::optional<std::string> game_id_;
  uint64_t cursor_;
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_SUBSCRIPTION_H_
