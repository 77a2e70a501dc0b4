#include "adjudicator/service/adjudicator_judge.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace arbiter::service {

absl::StatusOr<Rules> RulesOf(const v1::GameCreated& created) {
  return LoadRules(created.ruleset().empty() ? "cn-2002" : created.ruleset(),
                   created.supplement());
}

AdjudicatorFold::AdjudicatorFold(Adjudicator adjudicator) : adjudicator_(std::move(adjudicator)) {
  const Rules& r = adjudicator_.rules();
  pin_ = absl::StrCat(r.id(), " sha256:", r.hash());
  if (!r.supplement_id().empty()) {
    absl::StrAppend(&pin_, " + ", r.supplement_id(), " sha256:", r.supplement_hash());
  }
}

absl::StatusOr<ledger::Verdict> AdjudicatorFold::Apply(const v1::Event& event) {
  // A result reached, or changed (an appeal, an arbiter's decision).
  const v1::Result* before = adjudicator_.result();
  const std::string had = before != nullptr ? before->SerializeAsString() : "";
  const bool had_result = before != nullptr;
  absl::StatusOr<std::vector<v1::Ruling>> rulings = adjudicator_.Apply(event);
  if (!rulings.ok()) return rulings.status();
  ledger::Verdict v;
  v.rulings = *std::move(rulings);
  const v1::Result* after = adjudicator_.result();
  v.game_over = after != nullptr && (!had_result || after->SerializeAsString() != had);
  return v;
}

std::unique_ptr<ledger::GameJudge> AdjudicatorFold::Clone() const {
  return std::make_unique<AdjudicatorFold>(*this);
}

absl::StatusOr<std::unique_ptr<ledger::GameJudge>> AdjudicatorJudge::Open(
    absl::string_view game_id, const v1::GameCreated& created) {
  absl::StatusOr<Rules> rules = RulesOf(created);
  if (!rules.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("game '", game_id, "': ", rules.status().message()));
  }
  absl::StatusOr<Adjudicator> a = Adjudicator::Create(*std::move(rules));
  if (!a.ok()) return a.status();
  return std::make_unique<AdjudicatorFold>(*std::move(a));
}

}  // namespace arbiter::service
