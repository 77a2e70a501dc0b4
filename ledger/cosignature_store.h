// The witnesses' cosignatures of this server's checkpoints (`serve
// --witness`): a table of the ledger's database (server_tables.h), one row
// per signature line a witness answered, under the tree size of the
// checkpoint it cosigns, so every server of a PostgreSQL database and the
// offline commands read the same. Not one of the ledger's audited tables: a
// cosignature arrives later, from outside, and proves nothing by itself
// until checked against a witness key (which `verify --witnesses` does).
// Earlier releases kept them in `cosignatures.db` beside: imported once by
// the server that opens the folder, and read meanwhile by OpenForReading.
#ifndef ARBITER_LEDGER_COSIGNATURE_STORE_H_
#define ARBITER_LEDGER_COSIGNATURE_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ledger/server_tables.h"
#include "ledger/store.h"

namespace arbiter::ledger {

class CosignatureStore {
 public:
  // The file an earlier release kept them in, in a data folder.
  static constexpr char kFileName[] = "cosignatures.db";

  // The cosignatures of `store`, to add to, after importing once a
  // cosignatures.db of an older release in `own_dir` (the file is then
  // left read-only). UNAVAILABLE when the database or the file cannot be
  // read or written.
  static absl::StatusOr<std::unique_ptr<CosignatureStore>> Open(Store& store,
                                                                const std::string& own_dir);
  // The cosignatures of `store`, only to read them, with those of a
  // cosignatures.db not yet imported in `own_dir` (empty: none).
  static absl::StatusOr<std::unique_ptr<CosignatureStore>> OpenForReading(
      Store& store, const std::string& own_dir);

  // Keeps `line` (a note signature line, "— NAME base64\n") as a
  // cosignature of the checkpoint of `tree_size`; a line kept already is
  // kept once. UNAVAILABLE when the write fails.
  absl::Status Add(uint64_t tree_size, const std::string& line);

  // The lines kept for the checkpoint of `tree_size`, in the order added.
  absl::StatusOr<std::vector<std::string>> Lines(uint64_t tree_size);
  // The number of lines kept per tree size.
  absl::StatusOr<std::map<uint64_t, int>> Counts();

 private:
  using Legacy = std::map<uint64_t, std::vector<std::string>>;
  CosignatureStore(std::unique_ptr<ServerTables> tables, Legacy legacy)
      : tables_(std::move(tables)), legacy_(std::move(legacy)) {}
  std::unique_ptr<ServerTables> tables_;
  const Legacy legacy_;  // a cosignatures.db not yet imported (reading only)
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_COSIGNATURE_STORE_H_
