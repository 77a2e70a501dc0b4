#include "adjudicator/judge/adjudicator_judge.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "adjudicator/engine/new_input.h"
#include "rulesdb/rules_pin.h"

namespace arbiter {

namespace {

absl::StatusOr<std::unique_ptr<ledger::GameJudge>> FoldUnder(absl::string_view game_id,
                                                             absl::StatusOr<Rules> rules) {
  if (!rules.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("game '", game_id, "': ", rules.status().message()));
  }
  absl::StatusOr<Adjudicator> a = Adjudicator::Create(*std::move(rules));
  if (!a.ok()) return a.status();
  return std::make_unique<AdjudicatorFold>(*std::move(a));
}

}  // namespace

absl::StatusOr<Rules> RulesOf(const v1::GameCreated& created, absl::string_view pin) {
  return pin.empty() ? LoadRulesFor(created)
                     : LoadPinnedRules(std::string_view(pin.data(), pin.size()));
}

AdjudicatorFold::AdjudicatorFold(Adjudicator adjudicator)
    : adjudicator_(std::move(adjudicator)), pin_(::arbiter::RulesPin(adjudicator_.rules())) {}

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

absl::StatusOr<ledger::Verdict> AdjudicatorFold::ApplyNew(const v1::Event& event) {
  if (absl::Status s = CheckNewEvent(adjudicator_, event); !s.ok()) return s;
  return Apply(event);
}

std::unique_ptr<ledger::GameJudge> AdjudicatorFold::Clone() const {
  return std::make_unique<AdjudicatorFold>(*this);
}

absl::StatusOr<std::unique_ptr<ledger::GameJudge>> AdjudicatorJudge::Open(
    absl::string_view game_id, const v1::GameCreated& created) {
  return FoldUnder(game_id, RulesOf(created));
}

absl::StatusOr<std::unique_ptr<ledger::GameJudge>> AdjudicatorJudge::Reopen(
    absl::string_view game_id, const v1::GameCreated& created, absl::string_view pin) {
  return FoldUnder(game_id, RulesOf(created, pin));
}

absl::Status StoredGameFold::Apply(const v1::LedgerEntry& entry) {
  v1::Event event;
  if (!event.ParseFromString(entry.event()) || (fold_ == nullptr && !event.has_game_created())) {
    return absl::DataLossError(absl::StrCat("position ", entry.position(), ": game '", game_id_,
                                            "' has a stored event that does not parse or "
                                            "does not begin with gameCreated"));
  }
  if (fold_ == nullptr) {
    absl::StatusOr<std::unique_ptr<ledger::GameJudge>> opened =
        judge_.Reopen(game_id_, event.game_created(), pin_);
    if (!opened.ok()) return absl::DataLossError(opened.status().message());
    fold_ = *std::move(opened);
  }
  if (absl::StatusOr<ledger::Verdict> v = fold_->Apply(event); !v.ok()) {
    return absl::DataLossError(
        absl::StrCat("position ", entry.position(),
                     ": the stored event no longer folds: ", v.status().message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<AdjudicatorFold>> StoredGameFold::Finish() && {
  if (fold_ == nullptr) return absl::NotFoundError(absl::StrCat("no game '", game_id_, "'"));
  if (fold_->RulesPin() != pin_) {
    return absl::DataLossError(absl::StrCat("game '", game_id_, "' was created under '", pin_,
                                            "' but its rules now load as '", fold_->RulesPin(),
                                            "'"));
  }
  // Reopen makes an AdjudicatorFold (FoldUnder).
  return std::unique_ptr<AdjudicatorFold>(static_cast<AdjudicatorFold*>(fold_.release()));
}

}  // namespace arbiter
