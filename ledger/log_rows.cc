#include "ledger/internal/log_rows.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace arbiter::ledger {

absl::Status RulingRows::Add(uint64_t position, const std::string& bytes) {
  while (next_ < entries_.size() && entries_[next_].position() < position) ++next_;
  if (next_ == entries_.size() || entries_[next_].position() != position) {
    return absl::OkStatus();
  }
  if (!entries_[next_].add_rulings()->ParseFromString(bytes)) {
    return absl::DataLossError(absl::StrCat("ruling at position ", position, " does not parse"));
  }
  return absl::OkStatus();
}

LeafRows::LeafRows(uint64_t tree_size, uint64_t after) : tree_size_(tree_size), after_(after) {
  if (tree_size > after) leaves_.reserve(tree_size - after);
}

absl::Status LeafRows::Add(int64_t position, const std::string& bytes) {
  const uint64_t expected = after_ + leaves_.size() + 1;
  Hash h;
  if (static_cast<uint64_t>(position) != expected || !HashFromBytes(bytes, &h)) {
    return absl::DataLossError(absl::StrCat("leaf at position ", expected, " is damaged"));
  }
  leaves_.push_back(h);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Hash>> LeafRows::Finish() && {
  if (after_ + leaves_.size() != tree_size_) {
    return absl::OutOfRangeError(
        absl::StrCat("the log has ", after_ + leaves_.size(), " events, not ", tree_size_));
  }
  return std::move(leaves_);
}

absl::StatusOr<v1::Checkpoint> CheckpointRow(int64_t tree_size, const std::string& bytes) {
  v1::Checkpoint c;
  if (!c.ParseFromString(bytes) || c.tree_size() != static_cast<uint64_t>(tree_size)) {
    return absl::DataLossError(
        absl::StrCat("checkpoint row for tree size ", tree_size, " is damaged"));
  }
  return c;
}

absl::Status NoGame(const std::string& game_id) {
  return absl::NotFoundError(absl::StrCat("no game '", game_id, "' in the ledger"));
}

absl::Status NoPublicKey() { return absl::NotFoundError("the ledger records no public key"); }

}  // namespace arbiter::ledger
