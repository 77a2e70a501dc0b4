#include "ledger/reader_pool.h"

namespace arbiter::ledger {

absl::StatusOr<std::unique_ptr<LogSource>> ReaderPool::Take() {
  {
    absl::MutexLock lock(&mu_);
    if (!free_.empty()) {
      std::unique_ptr<LogSource> r = std::move(free_.back());
      free_.pop_back();
      return r;
    }
  }
  return store_->OpenReader();
}

void ReaderPool::Give(std::unique_ptr<LogSource> reader) {
  absl::MutexLock lock(&mu_);
  free_.push_back(std::move(reader));
}

absl::StatusOr<uint64_t> ReaderPool::Head() {
  return With([](LogSource& r) { return r.Head(); });
}

absl::StatusOr<std::vector<v1::LedgerEntry>> ReaderPool::ReadLog(uint64_t after, size_t max) {
  return With([&](LogSource& r) { return r.ReadLog(after, max); });
}

absl::StatusOr<std::vector<v1::LedgerEntry>> ReaderPool::ReadGame(const std::string& game_id,
                                                                  uint64_t after, size_t max) {
  return With([&](LogSource& r) { return r.ReadGame(game_id, after, max); });
}

absl::StatusOr<std::optional<v1::LedgerEntry>> ReaderPool::FindKey(const std::string& game_id,
                                                                   const std::string& key) {
  return With([&](LogSource& r) { return r.FindKey(game_id, key); });
}

absl::StatusOr<uint64_t> ReaderPool::GameRevision(const std::string& game_id) {
  return With([&](LogSource& r) { return r.GameRevision(game_id); });
}

absl::StatusOr<std::vector<std::string>> ReaderPool::ListTournaments() {
  return With([&](LogSource& r) { return r.ListTournaments(); });
}

absl::StatusOr<std::vector<GameListing>> ReaderPool::ListGames(uint64_t after, size_t max) {
  return With([&](LogSource& r) { return r.ListGames(after, max); });
}

absl::StatusOr<std::string> ReaderPool::RulesPin(const std::string& game_id) {
  return With([&](LogSource& r) { return r.RulesPin(game_id); });
}

absl::StatusOr<std::vector<v1::Checkpoint>> ReaderPool::Checkpoints() {
  return With([](LogSource& r) { return r.Checkpoints(); });
}

absl::StatusOr<std::vector<v1::Checkpoint>> ReaderPool::CheckpointsBetween(uint64_t first,
                                                                           uint64_t last) {
  return With([&](LogSource& r) { return r.CheckpointsBetween(first, last); });
}

absl::StatusOr<std::vector<Hash>> ReaderPool::LeafHashes(uint64_t tree_size, uint64_t after) {
  return With([&](LogSource& r) { return r.LeafHashes(tree_size, after); });
}

absl::StatusOr<std::string> ReaderPool::RecordedPublicKey() {
  return With([](LogSource& r) { return r.RecordedPublicKey(); });
}

absl::StatusOr<std::vector<Arrival>> ReaderPool::Arrivals(uint64_t after, size_t max) {
  return With([&](LogSource& r) { return r.Arrivals(after, max); });
}

}  // namespace arbiter::ledger
