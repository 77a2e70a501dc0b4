#include "ledger/bundle.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "ledger/hash.h"
#include "ledger/merkle.h"
#include "ledger/stream.h"

namespace arbiter::ledger {

absl::StatusOr<v1::AuditBundle> ExportBundle(LogSource& reader, const std::string& game_id) {
  return BundleExporter(reader).Export(game_id);
}

absl::Status BundleExporter::Grow(uint64_t tree_size) {
  while (tree_.size() < tree_size) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> page =
        reader_.ReadLog(tree_.size(), std::min<uint64_t>(4096, tree_size - tree_.size()));
    if (!page.ok()) return page.status();
    if (page->empty()) return absl::OkStatus();  // the root check then fails
    for (const v1::LedgerEntry& e : *page) {
      if (e.position() != tree_.size() + 1) {
        return absl::DataLossError(
            absl::StrCat("the log has a gap at position ", tree_.size() + 1));
      }
      tree_.Append(EntryLeafHash(e));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::AuditBundle> BundleExporter::Export(const std::string& game_id) {
  // A tournament's stream has no rules pin: no judge reads it.
  const bool tournament = IsTournamentStream(game_id);
  absl::StatusOr<std::string> pin = tournament ? std::string() : reader_.RulesPin(game_id);
  if (!pin.ok()) return pin.status();
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      reader_.ReadGame(game_id, 0, std::numeric_limits<int64_t>::max());
  if (!entries.ok()) return entries.status();
  if (entries->empty()) {
    return absl::NotFoundError(
        absl::StrCat(tournament ? "" : "game '", game_id, "' has no events"));
  }
  uint64_t last = entries->back().position();

  // The earliest checkpoint covering the game; the list is read again only
  // when none read so far does (a log signed since).
  auto find_cover = [&]() -> const v1::Checkpoint* {
    for (const v1::Checkpoint& c : checkpoints_) {
      if (c.tree_size() >= last) return &c;
    }
    return nullptr;
  };
  const v1::Checkpoint* cover = find_cover();
  if (cover == nullptr) {
    absl::StatusOr<std::vector<v1::Checkpoint>> checkpoints = reader_.Checkpoints();
    if (!checkpoints.ok()) return checkpoints.status();
    checkpoints_ = *std::move(checkpoints);
    cover = find_cover();
  }
  if (cover == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("no checkpoint covers position ", last, " (game '", game_id,
                     "' has not ended and no periodic checkpoint has passed it yet)"));
  }

  // The leaves, from the event bytes themselves, hashed once per log.
  const uint64_t size = cover->tree_size();
  if (absl::Status s = Grow(size); !s.ok()) return s;
  absl::StatusOr<Hash> root = tree_.Root(size);  // O(log^2 n) from the tree
  if (tree_.size() < size || !root.ok() || AsBytes(*root) != cover->root_hash()) {
    return absl::DataLossError(absl::StrCat("the log does not match its checkpoint at size ", size,
                                            "; run `arbiter verify`"));
  }

  absl::StatusOr<std::string> key = reader_.RecordedPublicKey();
  if (!key.ok()) return key.status();
  v1::AuditBundle bundle;
  bundle.set_game_id(game_id);
  bundle.set_rules_pin(*pin);
  *bundle.mutable_checkpoint() = *cover;
  bundle.set_public_key(*key);
  for (v1::LedgerEntry& e : *entries) {
    absl::StatusOr<std::vector<Hash>> proof = tree_.InclusionProof(e.position() - 1, size);
    if (!proof.ok()) return proof.status();
    v1::ProvenEntry* p = bundle.add_entries();
    for (const Hash& h : *proof) p->add_inclusion_proof(std::string(AsBytes(h)));
    *p->mutable_entry() = std::move(e);
  }
  return bundle;
}

}  // namespace arbiter::ledger
