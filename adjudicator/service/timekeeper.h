// The server's own clock for live games (gameCreated.live): it appends the
// `timeExpired` that a flag fall or a lateness forfeit calls for, at the
// instant the rules say, so a flag falls even if nobody reports it.
//
// It follows the whole log from the start, so games in progress when the
// server restarts are timed again. After each committed event of a live game
// it recomputes that game's deadline (deadline.h); when the wall clock
// reaches it, it appends the event with the revision it was computed from
// as the expected revision: if an arbiter's event got in first the append is
// ABORTED and the deadline is recomputed from the new event. The appended
// event carries the deadline's time, so replay stays deterministic; games
// that are not live get no timers.
#ifndef ARBITER_ADJUDICATOR_SERVICE_TIMEKEEPER_H_
#define ARBITER_ADJUDICATOR_SERVICE_TIMEKEEPER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "adjudicator/service/deadline.h"
#include "adjudicator/service/game_folds.h"
#include "ledger/ledger.h"

namespace arbiter::service {

class Timekeeper {
 public:
  // `now` is the wall clock (tests may pass another).
  Timekeeper(ledger::Ledger* ledger, GameFolds* folds,
             std::function<absl::Time()> now = [] { return absl::Now(); });
  ~Timekeeper();  // Stop()s

  void Start();
  // Returns once the thread has finished any append in progress.
  void Stop();

 private:
  struct Timer {
    uint64_t revision = 0;  // the revision it was computed at
    Deadline deadline;
  };
  void Run();
  void Recompute(const std::string& game_id);
  void Fire(const std::string& game_id, const Timer& timer);

  ledger::Ledger* ledger_;
  GameFolds* folds_;
  std::function<absl::Time()> now_;
  std::atomic<bool> stop_{false};
  std::thread thread_;

  // Touched only by the timekeeper's thread.
  absl::flat_hash_set<std::string> live_;
  absl::flat_hash_map<std::string, Timer> timers_;
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_TIMEKEEPER_H_
