#include "adjudicator/engine/ruling_history.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"

namespace arbiter {
namespace {

// What must match for a ruling issued again to reuse a recorded one: all
// but its number and what is completed after it is issued (the time a
// lateness deducts; the warnings left after an overturn on appeal).
std::string Key(v1::Ruling r) {
  r.clear_number();
  r.clear_time_deducted();
  if (r.appealed() != 0) r.clear_warnings();
  return r.SerializeAsString();
}

}  // namespace

RulingHistory RulingHistory::ForReplay(const std::vector<v1::Ruling>& notices) const {
  RulingHistory fresh;
  fresh.rulings_ = rulings_;
  fresh.voided_rulings_ = voided_rulings_;
  for (const v1::Ruling& n : notices) {
    fresh.voided_rulings_.insert(n.supersedes());
    fresh.rulings_.push_back(n);
  }
  for (const v1::Ruling& r : rulings_) {
    if (r.voided() == 0 && !voided_rulings_.contains(r.number())) {
      fresh.reusable_.insert(r.number());
    }
  }
  return fresh;
}

int RulingHistory::Record(v1::Ruling r) {
  const std::string key = reusable_.empty() ? std::string() : Key(r);
  for (auto it = reusable_.begin(); it != reusable_.end(); ++it) {
    const v1::Ruling& recorded = rulings_[*it - 1];
    if (recorded.event() != r.event() || Key(recorded) != key) continue;
    const int index = static_cast<int>(*it) - 1;
    r.set_number(*it);
    rulings_[static_cast<size_t>(index)] = std::move(r);
    reusable_.erase(it);
    return index;
  }
  r.set_number(static_cast<uint32_t>(rulings_.size() + 1));
  rulings_.push_back(std::move(r));
  return static_cast<int>(rulings_.size()) - 1;
}

const RulingHistory::Pending* RulingHistory::FindPending(uint32_t number) const {
  auto it = std::find_if(pending_.begin(), pending_.end(),
                         [&](const Pending& p) { return p.number == number; });
  return it == pending_.end() ? nullptr : &*it;
}

void RulingHistory::Resolve(uint32_t number) {
  auto it = std::find_if(pending_.begin(), pending_.end(),
                         [&](const Pending& p) { return p.number == number; });
  if (it != pending_.end()) pending_.erase(it);
}

std::optional<std::pair<v1::Incident, v1::Color>> RulingHistory::TakeCounted(uint32_t number) {
  auto it = incidents_.find(number);
  if (it == incidents_.end()) return std::nullopt;
  std::pair<v1::Incident, v1::Color> counted = it->second;
  incidents_.erase(it);
  return counted;
}

uint32_t RulingHistory::follow_on(uint32_t warning) const {
  auto it = follow_ons_.find(warning);
  return it == follow_ons_.end() ? 0 : it->second;
}

absl::Status RulingHistory::CheckAppealable(uint32_t number, absl::string_view what) const {
  if (number == 0 || number > rulings_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": there is no ruling ", number, " (", rulings_.size(), " so far)"));
  }
  if (voided_rulings_.contains(number) || rulings_[number - 1].voided() != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        what, ": ruling ", number,
        voided_rulings_.contains(number) ? " was superseded by a correction (eventVoided)"
                                         : " records a correction (eventVoided), which is final"));
  }
  if (rulings_[number - 1].pending()) {
    return absl::FailedPreconditionError(
        absl::StrCat(what, ": ruling ", number,
                     " is pending; appeal against the decision that resolves it, once made"));
  }
  if (appeal_rulings_.contains(number)) {
    return absl::FailedPreconditionError(absl::StrCat(
        what, ": ruling ", number, " is the chief arbiter's decision on appeal, which is final"));
  }
  if (confirmed_ && number <= confirmed_rulings_) {
    return absl::FailedPreconditionError(
        absl::StrCat(what, ": the result was confirmed; ruling ", number,
                     " can no longer be appealed (only a cheating misconduct, 23.1, reopens it)"));
  }
  return absl::OkStatus();
}

absl::Status RulingHistory::CheckNotAppealed(uint32_t number) const {
  auto it = appeals_.find(number);
  if (it == appeals_.end()) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("appealLodged: ruling ", number, " has already been appealed",
                   it->second ? " and decided" : "; the appeal awaits the chief arbiter"));
}

absl::Status RulingHistory::CheckAppealAwaits(uint32_t number) const {
  auto it = appeals_.find(number);
  if (it == appeals_.end()) {
    return absl::FailedPreconditionError(
        absl::StrCat("appealDecided: no appeal was lodged against ruling ", number));
  }
  if (it->second) {
    return absl::FailedPreconditionError(
        absl::StrCat("appealDecided: the appeal against ruling ", number, " was decided"));
  }
  return absl::OkStatus();
}

std::optional<v1::Result> RulingHistory::ResultBefore(uint32_t number) const {
  std::optional<v1::Result> restored;
  for (uint32_t n = number; superseded_.contains(n);) {
    auto replaced = replaced_results_.find(n);
    restored = replaced == replaced_results_.end() ? std::nullopt : replaced->second;
    if (!restored.has_value()) break;
    n = restored->ruling();
  }
  return restored;
}

absl::Status RulingHistory::CheckConfirmable() const {
  if (confirmed_ && confirmed_rulings_ == rulings_.size()) {
    return absl::FailedPreconditionError("resultConfirmed: the result is already confirmed");
  }
  if (!pending_.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("resultConfirmed: ruling ", pending_.front().number, " is pending"));
  }
  for (const auto& [number, decided] : appeals_) {
    if (!decided) {
      return absl::FailedPreconditionError(absl::StrCat(
          "resultConfirmed: the appeal against ruling ", number, " awaits the chief arbiter"));
    }
  }
  return absl::OkStatus();
}

void RulingHistory::Confirm() {
  confirmed_ = true;
  confirmed_rulings_ = static_cast<uint32_t>(rulings_.size());
}

}  // namespace arbiter
