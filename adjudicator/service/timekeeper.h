// The server's own clock for live games (gameCreated.live): it appends the
// `timeExpired` that a flag fall or a lateness forfeit calls for, at the
// instant the rules say, so a flag falls even if nobody reports it.
//
// It learns of commits from the read model (a GameFolds listener), which
// hands it each advanced game's fold, so it never reads the log for them;
// at Start() it reads the log once to find the live games already in
// progress (a server that restarts times them again), after it listens, so
// it may be made at any time: a commit it was not told of is in the log. After each commit of
// a live game it recomputes that game's deadline (deadline.h); when the wall
// clock reaches it, it appends the event with the revision it was computed
// from as the expected revision: if an arbiter's event got in first the
// append is ABORTED and the deadline is recomputed from the new event. The
// appended event carries the deadline's time, so replay stays
// deterministic; games that are not live get no timers.
//
// It appends through the Recorder, the one write path, as the server's own
// clock (ServerClock(): actor `server:clock`, no role): its events pass the
// same checks as everyone's (bounds, the kind's access, the skew guard, a
// game synced from a venue written only by its sync).
#ifndef ARBITER_ADJUDICATOR_SERVICE_TIMEKEEPER_H_
#define ARBITER_ADJUDICATOR_SERVICE_TIMEKEEPER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "adjudicator/service/auth_gatekeeper.h"
#include "adjudicator/service/deadline.h"
#include "adjudicator/service/game_folds.h"
#include "adjudicator/service/recorder.h"
#include "ledger/ledger.h"

namespace arbiter::service {

class Timekeeper {
 public:
  // `now` is the wall clock (tests may pass another). Listens to `folds`'s
  // commits (`folds` judges `ledger`) from here to its destruction. Appends
  // through `recorder`. None is owned; all must outlive this.
  Timekeeper(
      ledger::Ledger* ledger, GameFolds* folds, Recorder* recorder,
      std::function<absl::Time()> now = [] { return absl::Now(); });

  // The caller the server's clock records as: actor `server:clock`, no role
  // (it may record what its deadlines call for in any game).
  static Caller ServerClock();
  ~Timekeeper();  // Stop()s

  // Finds the live games in progress, then starts the thread.
  void Start();
  // Returns once the thread has finished any append in progress.
  void Stop();

 private:
  struct Timer {
    uint64_t revision = 0;  // the revision it was computed at
    Deadline deadline;
  };
  // The listener: queues the live games a commit advanced.
  void Committed(const std::vector<GameView>& games);
  void Run();
  void Recompute(const GameView& game);
  void Fire(const std::string& game_id, const Timer& timer);

  ledger::Ledger* ledger_;
  GameFolds* folds_;
  Recorder* recorder_;
  std::function<absl::Time()> now_;
  const int listener_;  // in folds_
  std::thread thread_;

  absl::Mutex mu_;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  bool started_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<GameView> committed_ ABSL_GUARDED_BY(mu_);

  // Touched only by the timekeeper's thread.
  absl::flat_hash_map<std::string, Timer> timers_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_TIMEKEEPER_H_
