// The witnesses' cosignatures of this server's checkpoints (`serve
// --witness`), kept beside the checkpoints: `cosignatures.db` in the data
// folder, one row per signature line a witness answered, under the tree
// size of the checkpoint it cosigns. Its own SQLite file, not a table of
// ledger.db: the ledger's rows are what its audit proves append-only, and a
// cosignature arrives later, from outside, and proves nothing by itself
// until checked against a witness key (which `verify --witnesses` does).
#ifndef ARBITER_LEDGER_COSIGNATURE_STORE_H_
#define ARBITER_LEDGER_COSIGNATURE_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "ledger/sqlite.h"

namespace arbiter::ledger {

class CosignatureStore {
 public:
  // The file name in a data folder.
  static constexpr char kFileName[] = "cosignatures.db";

  // Opens (creating) `path` to add to it. UNAVAILABLE when it cannot.
  static absl::StatusOr<std::unique_ptr<CosignatureStore>> Open(const std::string& path);
  // Opens `path` only to read it; an absent file reads as no cosignature.
  // UNAVAILABLE when it exists and cannot be read.
  static absl::StatusOr<std::unique_ptr<CosignatureStore>> OpenForReading(const std::string& path);

  // Keeps `line` (a note signature line, "— NAME base64\n") as a
  // cosignature of the checkpoint of `tree_size`; a line kept already is
  // kept once. UNAVAILABLE when the write fails.
  absl::Status Add(uint64_t tree_size, const std::string& line);

  // The lines kept for the checkpoint of `tree_size`, in the order added.
  absl::StatusOr<std::vector<std::string>> Lines(uint64_t tree_size);
  // The number of lines kept per tree size.
  absl::StatusOr<std::map<uint64_t, int>> Counts();

 private:
  explicit CosignatureStore(Db db) : db_(std::move(db)) {}
  absl::Mutex mu_;
  Db db_ ABSL_GUARDED_BY(mu_);
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_COSIGNATURE_STORE_H_
