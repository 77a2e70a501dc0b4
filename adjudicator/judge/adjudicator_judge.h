// The judge adapter: the Adjudicator (the pure engine) as the ledger's Judge.
// Each game is folded under the ruleset (and supplement) its gameCreated
// names, by default cn-2002. The service's read model
// (adjudicator/service/game_folds.h) keeps the folds this makes; `arbiter
// verify` and `arbiter sync` use it to re-adjudicate. It sits between the
// engine and its users: it knows the engine, the rules and the ledger's
// judge.h interface, and nothing of gRPC, storage or the service.
#ifndef ARBITER_ADJUDICATOR_JUDGE_ADJUDICATOR_JUDGE_H_
#define ARBITER_ADJUDICATOR_JUDGE_ADJUDICATOR_JUDGE_H_

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "adjudicator/engine/adjudicator.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/judge.h"
#include "rulesdb/rules.h"

namespace arbiter {

// One game's Adjudicator, as the ledger folds it.
class AdjudicatorFold final : public ledger::GameJudge {
 public:
  explicit AdjudicatorFold(Adjudicator adjudicator);

  absl::StatusOr<ledger::Verdict> Apply(const v1::Event& event) override;
  // CheckNewEvent (adjudicator/engine/new_input.h), then Apply.
  absl::StatusOr<ledger::Verdict> ApplyNew(const v1::Event& event) override;
  // "<ruleset> sha256:<hex>", with " + <supplement> sha256:<hex>" when the
  // game names a supplement (rulesdb/rules_pin.h).
  std::string RulesPin() const override { return pin_; }
  const v1::Result* result() const override { return adjudicator_.result(); }
  std::unique_ptr<ledger::GameJudge> Clone() const override;

  const Adjudicator& adjudicator() const { return adjudicator_; }

 private:
  Adjudicator adjudicator_;
  std::string pin_;
};

class AdjudicatorJudge : public ledger::Judge {
 public:
  // A fold per game under the rules its gameCreated names (at its
  // rulesetVersion, by default the latest). INVALID_ARGUMENT when the game
  // names rules this binary does not have.
  absl::StatusOr<std::unique_ptr<ledger::GameJudge>> Open(absl::string_view game_id,
                                                          const v1::GameCreated& created) override;

  // A recorded game's fold under the ruleset version its pin names, even
  // when a later version exists. INVALID_ARGUMENT when no built-in rules
  // match the pin.
  absl::StatusOr<std::unique_ptr<ledger::GameJudge>> Reopen(absl::string_view game_id,
                                                            const v1::GameCreated& created,
                                                            absl::string_view pin) override;
};

// A game's stored entries folded in order under the rules its ledger
// pinned, with the checks a stored log must pass: DATA_LOSS, naming the
// position, when an event does not parse, the first is not gameCreated, the
// pinned rules no longer open, or an event no longer folds. The service
// folds a stored game this way, for its read model (GameFolds) and for a
// tournament's games at a tree size (tournament_at.cc).
class StoredGameFold {
 public:
  StoredGameFold(AdjudicatorJudge& judge, std::string game_id, std::string pin)
      : judge_(judge), game_id_(std::move(game_id)), pin_(std::move(pin)) {}

  // Folds the next stored entry of the game.
  absl::Status Apply(const v1::LedgerEntry& entry);

  // The fold of the entries applied: NOT_FOUND when there were none,
  // DATA_LOSS when its rules now load under another pin than the ledger's.
  absl::StatusOr<std::unique_ptr<AdjudicatorFold>> Finish() &&;

 private:
  AdjudicatorJudge& judge_;
  const std::string game_id_;
  const std::string pin_;
  std::unique_ptr<ledger::GameJudge> fold_;
};

// The rules a game is judged under: those its ledger pinned (`pin`, as
// rulesdb/rules_pin.h writes it), else, for a game not yet recorded, those
// its gameCreated names (cn-2002 by default, at its rulesetVersion, by
// default the latest).
absl::StatusOr<Rules> RulesOf(const v1::GameCreated& created, absl::string_view pin = "");

}  // namespace arbiter

#endif  // ARBITER_ADJUDICATOR_JUDGE_ADJUDICATOR_JUDGE_H_
