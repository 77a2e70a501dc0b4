// What both readers of the log (LogReader on SQLite, PgLogReader on
// PostgreSQL) make of the rows they read, whatever the database (internal to
// the ledger): each row checked the same way, with the same errors.
#ifndef ARBITER_LEDGER_INTERNAL_LOG_ROWS_H_
#define ARBITER_LEDGER_INTERNAL_LOG_ROWS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "arbiter/v1/ledger.pb.h"
#include "ledger/hash.h"

namespace arbiter::ledger {

// Attaches the rulings of a query's events, read in position order.
class RulingRows {
 public:
  explicit RulingRows(std::vector<v1::LedgerEntry>& entries) : entries_(entries) {}
  // The ruling row (`position`, `bytes`): a row of a position not among the
  // entries (another game's event in the range) is passed over. DATA_LOSS
  // when the ruling does not parse.
  absl::Status Add(uint64_t position, const std::string& bytes);

 private:
  std::vector<v1::LedgerEntry>& entries_;
  size_t next_ = 0;
};

// Collects the leaf hashes of positions after + 1 .. tree_size.
class LeafRows {
 public:
  LeafRows(uint64_t tree_size, uint64_t after);
  // The next row: DATA_LOSS when it is not the next position or its hash is
  // damaged.
  absl::Status Add(int64_t position, const std::string& bytes);
  // The leaves; OUT_OF_RANGE when the rows stopped short of tree_size.
  absl::StatusOr<std::vector<Hash>> Finish() &&;

 private:
  uint64_t tree_size_, after_;
  std::vector<Hash> leaves_;
};

// A checkpoints row; DATA_LOSS when it does not parse or is not the size its
// row says.
absl::StatusOr<v1::Checkpoint> CheckpointRow(int64_t tree_size, const std::string& bytes);

// What a reader answers when there is no row.
absl::Status NoGame(const std::string& game_id);  // NOT_FOUND
absl::Status NoPublicKey();                       // NOT_FOUND

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_INTERNAL_LOG_ROWS_H_
