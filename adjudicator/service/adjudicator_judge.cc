#include "adjudicator/service/adjudicator_judge.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/adjudicator.h"
#include "rulesdb/rules.h"

namespace arbiter::ledger {
namespace {

class AdjudicatorGameJudge : public GameJudge {
 public:
  explicit AdjudicatorGameJudge(Adjudicator adjudicator) : adjudicator_(std::move(adjudicator)) {
    const Rules& r = adjudicator_.rules();
    pin_ = absl::StrCat(r.id(), " sha256:", r.hash());
    if (!r.supplement_id().empty()) {
      absl::StrAppend(&pin_, " + ", r.supplement_id(), " sha256:", r.supplement_hash());
    }
  }

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

absl::StatusOr<std::unique_ptr<GameJudge>> AdjudicatorJudge::Open(absl::string_view game_id,
                                                                  const v1::GameCreated& created) {
  absl::StatusOr<Rules> rules = LoadRulesFor(created);
  if (!rules.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("game '", game_id, "': ", rules.status().message()));
  }
  absl::StatusOr<Adjudicator> a = Adjudicator::Create(*std::move(rules));
  if (!a.ok()) return a.status();
  return std::make_unique<AdjudicatorGameJudge>(*std::move(a));
}

}  // namespace arbiter::ledger
