// The reads of a store's committed data on a pool of its read connections:
// a LogSource that any number of threads may call at once, each call on a
// connection of its own (taken from the pool, or opened when none is free,
// and put back after). The ledger reads through one; so does anything that
// must read the ledger before the ledger exists, such as the service's read
// model, which the ledger needs as its judge when it opens: both share the
// one pool, made from the store before either (OpenStore, store.h).
#ifndef ARBITER_LEDGER_READER_POOL_H_
#define ARBITER_LEDGER_READER_POOL_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "ledger/log_source.h"
#include "ledger/store.h"

namespace arbiter::ledger {

class ReaderPool final : public LogSource {
 public:
  // Reads `store`, which it shares (the ledger writes it through the same
  // Store). Opens no connection yet: the first read does, so a pool may be
  // made before the ledger has created its database.
  explicit ReaderPool(std::shared_ptr<Store> store) : store_(std::move(store)) {}

  Store& store() const { return *store_; }
  const std::shared_ptr<Store>& shared_store() const { return store_; }

  // Runs `fn(LogSource&)` on a pooled connection and returns what it does;
  // the errors of Store::OpenReader when no connection can be had.
  template <typename Fn>
  auto With(Fn fn) -> decltype(fn(std::declval<LogSource&>())) {
    absl::StatusOr<std::unique_ptr<LogSource>> reader = Take();
    if (!reader.ok()) return reader.status();
    auto result = fn(**reader);
    Give(*std::move(reader));
    return result;
  }

  // LogSource, each call on a pooled connection (log_source.h has the
  // meanings; Store::OpenReader's errors besides).
  absl::StatusOr<uint64_t> Head() override;
  absl::StatusOr<std::vector<v1::LedgerEntry>> ReadLog(uint64_t after, size_t max) override;
  absl::StatusOr<std::vector<v1::LedgerEntry>> ReadGame(const std::string& game_id, uint64_t after,
                                                        size_t max) override;
  absl::StatusOr<std::optional<v1::LedgerEntry>> FindKey(const std::string& game_id,
                                                         const std::string& key) override;
  absl::StatusOr<uint64_t> GameRevision(const std::string& game_id) override;
  absl::StatusOr<std::vector<GameListing>> ListGames(uint64_t after, size_t max) override;
  absl::StatusOr<std::vector<std::string>> ListTournaments() override;
  absl::StatusOr<std::string> RulesPin(const std::string& game_id) override;
  absl::StatusOr<std::vector<v1::Checkpoint>> Checkpoints() override;
  absl::StatusOr<std::vector<v1::Checkpoint>> CheckpointsBetween(uint64_t first,
                                                                 uint64_t last) override;
  absl::StatusOr<std::vector<Hash>> LeafHashes(uint64_t tree_size, uint64_t after = 0) override;
  absl::StatusOr<std::string> RecordedPublicKey() override;
  absl::StatusOr<std::vector<Arrival>> Arrivals(uint64_t after, size_t max) override;

 private:
  absl::StatusOr<std::unique_ptr<LogSource>> Take();
  void Give(std::unique_ptr<LogSource> reader);

  const std::shared_ptr<Store> store_;
  absl::Mutex mu_;
  std::vector<std::unique_ptr<LogSource>> free_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_READER_POOL_H_
