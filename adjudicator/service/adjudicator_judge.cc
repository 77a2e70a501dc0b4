#include "adjudicator/service/adjudicator_judge.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "rulesdb/rules.h"
#include "rulesdb/rules_pin.h"

namespace arbiter::ledger {
namespace {

class AdjudicatorGameJudge : public GameJudge {
 public:
  explicit AdjudicatorGameJudge(Adjudicator adjudicator)
      : adjudicator_(std::move(adjudicator)), pin_(::arbiter::RulesPin(adjudicator_.rules())) {}

  absl::StatusOr<Verdict> Apply(const v1::Event& event) override {
    const bool had_result = adjudicator_.result() != nullptr;
    std::string before = had_result ? adjudicator_.result()->SerializeAsString() : "";
    absl::StatusOr<std::vector<v1::Ruling>> rulings = adjudicator_.Apply(event);
    if (!rulings.ok()) return rulings.status();
    Verdict v;
    v.rulings = *std::move(rulings);
    // A result reached, or changed (an appeal, an arbiter's decision).
    v.game_over = adjudicator_.result() != nullptr &&
                  (!had_result || adjudicator_.result()->SerializeAsString() != before);
    return v;
  }

  std::string RulesPin() const override { return pin_; }

 private:
  Adjudicator adjudicator_;
  std::string pin_;
};

}  // namespace

namespace {

absl::StatusOr<std::unique_ptr<GameJudge>> JudgeUnder(absl::string_view game_id,
                                                      absl::StatusOr<Rules> rules) {
  if (!rules.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("game '", game_id, "': ", rules.status().message()));
  }
  absl::StatusOr<Adjudicator> a = Adjudicator::Create(*std::move(rules));
  if (!a.ok()) return a.status();
  return std::make_unique<AdjudicatorGameJudge>(*std::move(a));
}

}  // namespace

absl::StatusOr<std::unique_ptr<GameJudge>> AdjudicatorJudge::Open(absl::string_view game_id,
                                                                  const v1::GameCreated& created) {
  return JudgeUnder(game_id, LoadRulesFor(created));
}

absl::StatusOr<std::unique_ptr<GameJudge>> AdjudicatorJudge::Reopen(
    absl::string_view game_id, const v1::GameCreated& created, absl::string_view pin) {
  return JudgeUnder(game_id, pin.empty() ? LoadRulesFor(created)
                                         : LoadPinnedRules(std::string_view(pin.data(), pin.size())));
}

}  // namespace arbiter::ledger
