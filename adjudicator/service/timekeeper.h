// The server's own clock for live games (gameCreated.live): it appends the
// `timeExpired` that a flag fall or a lateness forfeit calls for, at the
// instant the rules say, so a flag falls even if nobody reports it.
//
// It follows the log like every other follower: it listens to the ledger's
// commit feed (commit_feed.h) from its construction, reads the log from the
// start once (a server that restarts times the live games in progress
// again), then reads each commit's entries from the feed (or, behind its
// window, from the database: another server's commits on a shared ledger
// too). After each commit of a live game it recomputes that game's deadline
// (deadline.h) from the read model's fold. The deadlines wait in a queue
// ordered by time; the thread sleeps until the earliest one or a commit, and
// with no deadline pending it sleeps until a commit: an idle server's clock
// never wakes. When the wall clock reaches a deadline, it appends the event
// with the revision it was computed from as the expected revision: if an
// arbiter's event got in first the append is ABORTED and the deadline is
// recomputed from the new event. The appended event carries the deadline's
// time, so replay stays deterministic; games that are not live get no timers.
//
// It appends through the Recorder, the one write path, as the server's own
// clock (ServerClock(): actor `server:clock`, no role): its events pass the
// same checks as everyone's (bounds, the kind's access, the skew guard, a
// game synced from a venue written only by its sync).
#ifndef ARBITER_ADJUDICATOR_SERVICE_TIMEKEEPER_H_
#define ARBITER_ADJUDICATOR_SERVICE_TIMEKEEPER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/auth_gatekeeper.h"
#include "adjudicator/service/deadline.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/recorder.h"
#include "ledger/commit_feed.h"
#include "ledger/ledger.h"

namespace arbiter::service {

class Timekeeper {
 public:
  // `now` is the wall clock (tests may pass another). Listens to `ledger`'s
  // commit feed from here to its destruction; reads the games from `folds`
  // (which judges `ledger`). Appends through `recorder`. None is owned; all
  // must outlive this.
  Timekeeper(
      ledger::Ledger* ledger, GameFolds* folds, Recorder* recorder,
      std::function<absl::Time()> now = [] { return absl::Now(); });

  // The caller the server's clock records as: actor `server:clock`, no role
  // (it may record what its deadlines call for in any game).
  static Caller ServerClock();
  ~Timekeeper();  // Stop()s

  // Starts the thread, which first finds the live games in progress.
  void Start();
  // Returns once the thread has finished any append in progress.
  void Stop();

 private:
  struct Timer {
    uint64_t revision = 0;  // the revision it was computed at
    Deadline deadline;
  };
  void Run();
  // Reads the log after read_through_ to its end; recomputes the live games
  // it advanced.
  void FollowLog();
  // One batch after read_through_ (from the feed, or the database behind
  // its window); false when there was none (or it could not be read).
  bool ReadBatch(absl::flat_hash_set<std::string>* advanced);
  void Note(const v1::LedgerEntry& entry, absl::flat_hash_set<std::string>* advanced);
  void Recompute(const GameView& game);
  // Appends what the deadlines due by now call for.
  void FireDue();
  void Fire(const std::string& game_id, const Timer& timer);
  void Forget(const std::string& game_id);
  // Sleeps until a commit, Stop(), or the earliest deadline; false on Stop().
  bool Sleep();

  ledger::Ledger* ledger_;
  GameFolds* folds_;
  Recorder* recorder_;
  std::function<absl::Time()> now_;
  const std::shared_ptr<ledger::CommitFeed> commits_;
  int listener_ = -1;  // in commits_
  std::thread thread_;

  absl::Mutex mu_;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  // A commit since the thread last read the feed (true: read the log first).
  bool committed_ ABSL_GUARDED_BY(mu_) = true;

  // Touched only by the timekeeper's thread.
  uint64_t read_through_ = 0;              // the last position read
  absl::flat_hash_set<std::string> live_;  // games created live
  absl::flat_hash_map<std::string, Timer> timers_;
  std::set<std::pair<absl::Time, std::string>> queue_;  // timers_ by fire_at
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_TIMEKEEPER_H_
