#include "adjudicator/service/game_folds.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "rulesdb/rules.h"
#include "rulesdb/rules_pin.h"

namespace arbiter::service {

absl::StatusOr<Rules> RulesOf(const v1::GameCreated& created, std::string_view pin) {
  return pin.empty() ? LoadRulesFor(created) : LoadPinnedRules(pin);
}

absl::Status GameFolds::With(const std::string& game_id,
                             absl::FunctionRef<void(const GameFold&)> fn) {
  std::shared_ptr<Slot> slot;
  {
    absl::MutexLock lock(&mu_);
    auto it = slots_.find(game_id);
    if (it == slots_.end()) {
      if (slots_.size() >= max_games_) EvictLocked();
      auto s = std::make_shared<Slot>();
      absl::MutexLock fold_lock(&s->mu);
      s->fold.game_id = game_id;
      it = slots_.emplace(game_id, std::move(s)).first;
    }
    slot = it->second;
    slot->last_used = ++uses_;
  }
  {
    absl::MutexLock lock(&slot->mu);
    if (absl::Status s = Advance(slot->fold); !s.ok()) return s;
    if (slot->fold.revision > 0) {
      fn(slot->fold);
      return absl::OkStatus();
    }
  }
  // No such game: keep no slot for it, so asking for made-up names costs
  // no memory. (A game created meanwhile just gets a fresh slot next time.)
  {
    absl::MutexLock lock(&mu_);
    auto it = slots_.find(game_id);
    if (it != slots_.end() && it->second == slot) slots_.erase(it);
  }
  return absl::NotFoundError(absl::StrCat("game '", game_id, "' does not exist"));
}

size_t GameFolds::size() const {
  absl::MutexLock lock(&mu_);
  return slots_.size();
}

void GameFolds::EvictLocked() {
  // A call holding an evicted slot finishes with its own reference; the
  // next call for that game starts a fresh fold.
  std::vector<uint64_t> uses;
  uses.reserve(slots_.size());
  for (const auto& [game, slot] : slots_) uses.push_back(slot->last_used);
  const size_t drop = std::max<size_t>(1, uses.size() / 4);
  std::nth_element(uses.begin(), uses.begin() + (drop - 1), uses.end());
  const uint64_t cutoff = uses[drop - 1];
  absl::erase_if(slots_, [cutoff](const auto& entry) { return entry.second->last_used <= cutoff; });
}

absl::Status GameFolds::Advance(GameFold& fold) {
  for (;;) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
        ledger_->ReadGame(fold.game_id, fold.revision, 512);
    if (!entries.ok()) return entries.status();
    if (entries->empty()) return absl::OkStatus();
    for (const v1::LedgerEntry& entry : *entries) {
      v1::Event event;
      if (!event.ParseFromString(entry.event())) {
        return absl::DataLossError(
            absl::StrCat("position ", entry.position(), ": the stored event does not parse"));
      }
      if (!fold.adjudicator.has_value()) {
        if (!event.has_game_created()) {
          return absl::DataLossError(absl::StrCat("game '", fold.game_id,
                                                  "': the first stored event is not gameCreated"));
        }
        // The rules the game was created under, by the ledger's pin:
        // the latest version may rule its events otherwise.
        absl::StatusOr<std::string> pin = RulesPin(fold.game_id);
        if (!pin.ok()) return pin.status();
        absl::StatusOr<Rules> rules = RulesOf(event.game_created(), *pin);
        if (!rules.ok()) return absl::DataLossError(rules.status().message());
        absl::StatusOr<Adjudicator> a = Adjudicator::Create(*std::move(rules));
        if (!a.ok()) return a.status();
        fold.adjudicator.emplace(*std::move(a));
        fold.rules_pin = *std::move(pin);
      }
      if (absl::StatusOr<std::vector<v1::Ruling>> r = fold.adjudicator->Apply(event); !r.ok()) {
        return absl::DataLossError(absl::StrCat("position ", entry.position(),
                                                ": the stored event no longer folds: ",
                                                r.status().message()));
      }
      fold.revision = entry.revision();
    }
  }
}

absl::StatusOr<std::string> GameFolds::RulesPin(const std::string& game_id) {
  absl::MutexLock lock(&reader_mu_);
  if (!reader_.has_value()) {
    absl::StatusOr<ledger::LogReader> r = ledger::LogReader::Open(ledger_->db_path());
    if (!r.ok()) return r.status();
    reader_.emplace(*std::move(r));
  }
  return reader_->RulesPin(game_id);
}

}  // namespace arbiter::service
