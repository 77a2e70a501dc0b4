// The service's read model: each game's Adjudicator fold, kept up to the
// committed stream and advanced by the events committed since it was last
// read, so GetGame and the timekeeper cost the new events, not the game.
//
// A fold is rebuilt only from committed ledger entries, never from what a
// client sent, so what it shows is what the ledger holds. The rulings it
// derives are those the ledger recorded (the fold is deterministic); the
// recorded ones are what the service returns.
//
// The folds kept are bounded: beyond `max_games`, the least recently used
// quarter is dropped, and a dropped game is refolded from the ledger when
// next asked for. (A season's games stay readable; memory does not grow
// with them.)
#ifndef ARBITER_ADJUDICATOR_SERVICE_GAME_FOLDS_H_
#define ARBITER_ADJUDICATOR_SERVICE_GAME_FOLDS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/events.pb.h"
#include "ledger/ledger.h"
#include "ledger/log_reader.h"

namespace arbiter::service {

struct GameFold {
  std::string game_id;
  std::string rules_pin;  // as the ledger recorded it at creation
  uint64_t revision = 0;  // the last event folded in
  std::optional<Adjudicator> adjudicator;
};

class GameFolds {
 public:
  static constexpr size_t kDefaultMaxGames = 4096;

  explicit GameFolds(ledger::Ledger* ledger, size_t max_games = kDefaultMaxGames)
      : ledger_(ledger), max_games_(max_games < 1 ? 1 : max_games) {}

  // Advances `game_id`'s fold to the committed head and runs `fn` on it with
  // the game locked. NOT_FOUND when the game has no events; DATA_LOSS when a
  // stored event no longer folds (the ledger's audit will say more).
  absl::Status With(const std::string& game_id, absl::FunctionRef<void(const GameFold&)> fn);

  // How many folds are kept now (at most max_games).
  size_t size() const;

 private:
  struct Slot {
    absl::Mutex mu;
    GameFold fold ABSL_GUARDED_BY(mu);
    uint64_t last_used = 0;  // guarded by GameFolds::mu_
  };
  absl::Status Advance(GameFold& fold);
  absl::StatusOr<std::string> RulesPin(const std::string& game_id);
  // Drops the least recently used quarter of the folds.
  void EvictLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  ledger::Ledger* ledger_;
  const size_t max_games_;
  mutable absl::Mutex mu_;
  uint64_t uses_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<std::string, std::shared_ptr<Slot>> slots_ ABSL_GUARDED_BY(mu_);
  absl::Mutex reader_mu_;
  std::optional<ledger::LogReader> reader_ ABSL_GUARDED_BY(reader_mu_);
};

// The rules a game is judged under: those its ledger pinned (`pin`, as
// rulesdb/rules_pin.h writes it), else, for a game not yet recorded, those its
// gameCreated names (cn-2002 by default, at its rulesetVersion, by default the
// latest).
absl::StatusOr<Rules> RulesOf(const v1::GameCreated& created, std::string_view pin = "");

}  // namespace arbiter::service

#endif  // ARBITER_ADJUDICATOR_SERVICE_GAME_FOLDS_H_
