// The service's read model: each game's fold (its Adjudicator), as last
// committed. One cache, fed by the ledger itself: this is the Judge the
// server's ledger judges with, so every commit hands it the folds it
// advanced (OnCommit) and the next append starts from them (Committed). A
// game it does not hold (never read, or evicted) is folded from the ledger
// once, on the first read.
//
// A fold here is immutable and shared: readers hold it while the ledger
// judges the next append on a copy, so a reader never sees an event that is
// refused or not yet committed. What it shows is what the ledger holds.
//
// The folds kept are bounded: beyond `max_games`, the least recently used
// quarter is dropped, and a dropped game is folded again when next read.
// (A season's games stay readable; memory does not grow with them.)
//
// On a ledger other servers write too (Store::shared), a kept fold is
// used for a read only at the revision the ledger holds; behind it, the
// game is folded again. The ledger's own judging needs no such check: it
// asks Committed() for the revision its database holds.
//
// It reads the ledger through the store's pooled readers, not through the
// Ledger: the ledger judges with it, so it is made first, with readers
// opened from the store before the ledger (OpenStore, ReaderPool), and the
// ledger is then opened with it as its judge and the same readers
// (LedgerOptions::readers). Nothing is wired after construction.
#ifndef ARBITER_ADJUDICATOR_SERVICE_GAME_FOLDS_H_
#define ARBITER_ADJUDICATOR_SERVICE_GAME_FOLDS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "adjudicator/engine/adjudicator.h"
#include "adjudicator/judge/adjudicator_judge.h"
#include "ledger/judge.h"
#include "ledger/reader_pool.h"

namespace arbiter::service {

// One game as of a committed revision.
struct GameView {
  std::string game_id;
  uint64_t revision = 0;  // the last event folded in
  std::shared_ptr<const AdjudicatorFold> fold;

  const Adjudicator& game() const { return fold->adjudicator(); }
  std::string rules_pin() const { return fold->RulesPin(); }
};

class GameFolds final : public ledger::Judge {
 public:
  static constexpr size_t kDefaultMaxGames = 4096;

  // Reads the games of the store `reads` reads (shared; the ledger that
  // judges with this must be opened over the same store).
  explicit GameFolds(std::shared_ptr<ledger::ReaderPool> reads,
                     size_t max_games = kDefaultMaxGames);

  // The game as last committed. NOT_FOUND when it has no events; DATA_LOSS
  // when a stored event no longer folds or the game's rules no longer load
  // as pinned (the ledger's audit will say more); the ledger's read errors.
  absl::StatusOr<GameView> Get(const std::string& game_id);

  // How many folds are kept now (at most max_games).
  size_t size() const;

  // ledger::Judge.
  absl::StatusOr<std::unique_ptr<ledger::GameJudge>> Open(absl::string_view game_id,
                                                          const v1::GameCreated& created) override;
  absl::StatusOr<std::unique_ptr<ledger::GameJudge>> Reopen(absl::string_view game_id,
                                                            const v1::GameCreated& created,
                                                            absl::string_view pin) override;
  std::shared_ptr<const ledger::GameJudge> Committed(absl::string_view game_id,
                                                     uint64_t revision) override;
  void OnCommit(const std::vector<ledger::CommittedFold>& folds) override;

 private:
  struct Entry {
    GameView view;
    uint64_t last_used = 0;
  };
  // Folds the game's stored stream from the ledger.
  absl::StatusOr<GameView> Load(const std::string& game_id);
  // Keeps `view` unless a later revision of the game is already kept.
  void KeepLocked(GameView view) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  AdjudicatorJudge judge_;
  const std::shared_ptr<ledger::ReaderPool> reads_;
  const bool shared_;  // other processes write the store too
  const size_t max_games_;
  mutable absl::Mutex mu_;
  uint64_t uses_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<std::string, Entry> entries_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_GAME_FOLDS_H_
