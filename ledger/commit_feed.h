// The commit feed: the ledger's last committed entries, kept in memory in
// position order for everyone who follows the log live (the watch streams,
// the console). The writer publishes each commit into it once; followers
// read from it instead of asking the database again, and are told when a
// commit lands instead of polling.
//
// The feed keeps a window of the newest entries, bounded by count and by
// bytes (Limits). Its positions are the log's, so a follower that read up to
// position p (from the database or from the feed) continues after p with no
// gap and no repeat; a follower whose p is before the window reads the
// history from the database first (the ledger's pooled readers), then joins.
//
// A commit whose entries do not join the window (a batch of another process
// on a shared PostgreSQL ledger, seen only as a new head) empties the window
// and restarts it after the new head: followers behind it read from the
// database, which has those entries, so nothing is skipped.
//
// The feed also carries the size of the newest signed checkpoint, so a
// follower of checkpoints (the witness sender) is woken by the commit that
// signs one, including one that writes no entry (a tail bound's, one asked
// for), and reads the checkpoints only then.
#ifndef ARBITER_LEDGER_COMMIT_FEED_H_
#define ARBITER_LEDGER_COMMIT_FEED_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/log_source.h"

namespace arbiter::ledger {

struct AppendJob;

class CommitFeed {
 public:
  struct Limits {
    size_t max_entries = 1 << 16;
    size_t max_bytes = 8 << 20;  // serialized bytes of the kept entries
  };
  // Called after each publish with the new head, on the publishing thread
  // (the writer's, or an appending caller's), so it must only hand over.
  using Listener = std::function<void(uint64_t head)>;

  explicit CommitFeed(Limits limits) : limits_(limits) {}
  CommitFeed() : CommitFeed(Limits{}) {}

  // The writer, after a COMMIT that made `head` the last position:
  // `committed` are the entries it answered (any order; those at or before
  // the feed's head, such as an idempotent replay's, are left out).
  void Publish(uint64_t head, std::vector<v1::LedgerEntry> committed);

  // A commit signed the checkpoint of `tree_size` (this process's writer,
  // or another process's on a shared ledger, seen by its poller). When it
  // is newer than checkpointed(), listeners are told (with the head), even
  // though the head may not have moved.
  void PublishCheckpoint(uint64_t tree_size);

  // No more commits will come (the ledger closes); listeners are told once more.
  void Close();

  struct Slice {
    // Up to `max` entries after `after`, in position order. Shared and
    // immutable: a follower holds them without copying.
    std::vector<std::shared_ptr<const v1::LedgerEntry>> entries;
    // False when `after` is before the window: read the database first.
    bool in_window = false;
    uint64_t head = 0;
    bool closed = false;
  };
  Slice Read(uint64_t after, size_t max);

  // Serialized bytes of the entries after position `after` (what a follower
  // at `after` has yet to be sent); nullopt-like SIZE_MAX when `after` is
  // before the window.
  size_t BytesAfter(uint64_t after);

  uint64_t head();
  // The tree size of the newest checkpoint published (0: none since the
  // ledger opened; the older ones are in the database).
  uint64_t checkpointed();
  // The first position the window holds (head() + 1 when it is empty).
  uint64_t first();

  int AddListener(Listener listener);
  void RemoveListener(int id);

 private:
  struct Kept {
    std::shared_ptr<const v1::LedgerEntry> entry;
    size_t bytes;
    uint64_t bytes_through;  // bytes of all kept-ever entries up to this one
  };
  void Restart(uint64_t head) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Tell(uint64_t head);

  const Limits limits_;
  absl::Mutex mu_;
  uint64_t head_ ABSL_GUARDED_BY(mu_) = 0;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  uint64_t checkpointed_ ABSL_GUARDED_BY(mu_) = 0;
  std::deque<Kept> kept_ ABSL_GUARDED_BY(mu_);  // positions head_-size+1 .. head_
  size_t kept_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t bytes_through_ ABSL_GUARDED_BY(mu_) = 0;

  absl::Mutex listeners_mu_;
  int next_listener_ ABSL_GUARDED_BY(listeners_mu_) = 0;
  absl::flat_hash_map<int, Listener> listeners_ ABSL_GUARDED_BY(listeners_mu_);
};

// Hands `follow` up to `max` entries after position `after`, in position
// order: from `feed`'s window, or, behind it, from `log` (the database), but
// never past the feed's head. An entry the database holds that the feed has
// not published is a commit still being handed on (the judge's folds among
// it: Judge::OnCommit comes before the publish); a follower that reads it
// then reads folds older than it, and its publish, which would tell the
// follower again, finds it read. Returns how many it handed; `log`'s read
// errors.
absl::StatusOr<size_t> ReadPublished(CommitFeed& feed, LogSource& log, uint64_t after, size_t max,
                                     absl::FunctionRef<void(const v1::LedgerEntry&)> follow);

// What a committed batch of `jobs` wrote, for Publish: copies of the entries
// of its appends that succeeded (dry runs left out).
std::vector<v1::LedgerEntry> CommittedEntries(const std::vector<AppendJob*>& jobs);

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_COMMIT_FEED_H_
