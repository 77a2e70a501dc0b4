#include "adjudicator/service/game_folds.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace arbiter::service {

GameFolds::GameFolds(std::shared_ptr<ledger::ReaderPool> reads, size_t max_games)
    : reads_(std::move(reads)),
      shared_(reads_->store().shared()),
      max_games_(max_games < 1 ? 1 : max_games) {}

absl::StatusOr<std::unique_ptr<ledger::GameJudge>> GameFolds::Open(absl::string_view game_id,
                                                                   const v1::GameCreated& created) {
  return judge_.Open(game_id, created);
}

absl::StatusOr<std::unique_ptr<ledger::GameJudge>> GameFolds::Reopen(absl::string_view game_id,
                                                                     const v1::GameCreated& created,
                                                                     absl::string_view pin) {
  return judge_.Reopen(game_id, created, pin);
}

std::shared_ptr<const ledger::GameJudge> GameFolds::Committed(absl::string_view game_id,
                                                              uint64_t revision) {
  absl::MutexLock lock(&mu_);
  auto it = entries_.find(game_id);
  if (it == entries_.end() || it->second.view.revision != revision) return nullptr;
  it->second.last_used = ++uses_;
  return it->second.view.fold;
}

void GameFolds::OnCommit(const std::vector<ledger::CommittedFold>& folds) {
  std::vector<GameView> views;
  views.reserve(folds.size());
  for (const ledger::CommittedFold& f : folds) {
    // Every fold the ledger judges with was made by Open() above.
    views.push_back(
        GameView{f.game_id, f.revision, std::static_pointer_cast<const AdjudicatorFold>(f.fold)});
  }
  absl::MutexLock lock(&mu_);
  for (const GameView& v : views) KeepLocked(v);
}

void GameFolds::KeepLocked(GameView view) {
  auto it = entries_.find(view.game_id);
  if (it != entries_.end()) {
    it->second.last_used = ++uses_;
    if (it->second.view.revision < view.revision) it->second.view = std::move(view);
    return;
  }
  if (entries_.size() >= max_games_) {
    // Drop the least recently used quarter.
    std::vector<uint64_t> uses;
    uses.reserve(entries_.size());
    for (const auto& [game, entry] : entries_) uses.push_back(entry.last_used);
    const size_t drop = std::max<size_t>(1, uses.size() / 4);
    std::nth_element(uses.begin(), uses.begin() + (drop - 1), uses.end());
    const uint64_t cutoff = uses[drop - 1];
    absl::erase_if(entries_, [cutoff](const auto& e) { return e.second.last_used <= cutoff; });
  }
  std::string id = view.game_id;
  entries_.emplace(std::move(id), Entry{std::move(view), ++uses_});
}

absl::StatusOr<GameView> GameFolds::Get(const std::string& game_id) {
  uint64_t kept = 0;  // the revision kept, when it must be checked
  {
    absl::MutexLock lock(&mu_);
    auto it = entries_.find(game_id);
    if (it != entries_.end()) {
      it->second.last_used = ++uses_;
      if (!shared_) return it->second.view;
      kept = it->second.view.revision;
    }
  }
  if (kept > 0) {
    // Another server may have written the game since this one last did:
    // the kept fold stands only at the revision the ledger holds.
    absl::StatusOr<uint64_t> revision = reads_->GameRevision(game_id);
    if (!revision.ok()) return revision.status();
    if (*revision == kept) {
      absl::MutexLock lock(&mu_);
      if (auto it = entries_.find(game_id); it != entries_.end()) return it->second.view;
    }
  }
  absl::StatusOr<GameView> loaded = Load(game_id);
  if (!loaded.ok()) return loaded.status();
  absl::MutexLock lock(&mu_);
  KeepLocked(*loaded);
  // A commit may have brought a later revision meanwhile: that is the one.
  return entries_.at(game_id).view;
}

absl::StatusOr<GameView> GameFolds::Load(const std::string& game_id) {
  // The rules the game was created under, by the ledger's pin: the latest
  // version may rule its events otherwise.
  absl::StatusOr<std::string> pin = reads_->RulesPin(game_id);
  if (absl::IsNotFound(pin.status())) {
    return absl::NotFoundError(absl::StrCat("game '", game_id, "' does not exist"));
  }
  if (!pin.ok()) return pin.status();
  StoredGameFold stored(judge_, game_id, *pin);
  uint64_t revision = 0;
  for (;;) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> entries = reads_->ReadGame(game_id, revision, 512);
    if (!entries.ok()) return entries.status();
    if (entries->empty()) break;
    for (const v1::LedgerEntry& entry : *entries) {
      if (absl::Status s = stored.Apply(entry); !s.ok()) return s;
      revision = entry.revision();
    }
  }
  absl::StatusOr<std::unique_ptr<AdjudicatorFold>> fold = std::move(stored).Finish();
  if (absl::IsNotFound(fold.status())) {
    return absl::NotFoundError(absl::StrCat("game '", game_id, "' does not exist"));
  }
  if (!fold.ok()) return fold.status();
  return GameView{game_id, revision, std::shared_ptr<const AdjudicatorFold>(*std::move(fold))};
}

size_t GameFolds::size() const {
  absl::MutexLock lock(&mu_);
  return entries_.size();
}

}  // namespace arbiter::service
