#include "ledger/bundle.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "ledger/hash.h"
#include "ledger/merkle.h"

namespace arbiter::ledger {

absl::StatusOr<v1::AuditBundle> ExportBundle(LogSource& reader, const std::string& game_id) {
  absl::StatusOr<std::string> pin = reader.RulesPin(game_id);
  if (!pin.ok()) return pin.status();
  absl::StatusOr<std::vector<v1::LedgerEntry>> entries =
      reader.ReadGame(game_id, 0, std::numeric_limits<int64_t>::max());
  if (!entries.ok()) return entries.status();
  if (entries->empty())
    return absl::NotFoundError(absl::StrCat("game '", game_id, "' has no events"));
  uint64_t last = entries->back().position();

  absl::StatusOr<std::vector<v1::Checkpoint>> checkpoints = reader.Checkpoints();
  if (!checkpoints.ok()) return checkpoints.status();
  const v1::Checkpoint* cover = nullptr;
  for (const v1::Checkpoint& c : *checkpoints) {
    if (c.tree_size() >= last) {
      cover = &c;
      break;
    }
  }
  if (cover == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("no checkpoint covers position ", last, " (game '", game_id,
                     "' has not ended and no periodic checkpoint has passed it yet)"));
  }

  // The leaves, from the event bytes themselves.
  std::vector<Hash> leaves;
  leaves.reserve(cover->tree_size());
  for (uint64_t after = 0; after < cover->tree_size();) {
    absl::StatusOr<std::vector<v1::LedgerEntry>> page =
        reader.ReadLog(after, std::min<uint64_t>(4096, cover->tree_size() - after));
    if (!page.ok()) return page.status();
    if (page->empty()) break;
    for (const v1::LedgerEntry& e : *page) {
      if (e.position() != leaves.size() + 1) {
        return absl::DataLossError(
            absl::StrCat("the log has a gap at position ", leaves.size() + 1));
      }
      leaves.push_back(LeafHash(e.event()));
    }
    after = page->back().position();
  }
  const MerkleTree tree(std::move(leaves));
  if (tree.size() != cover->tree_size() || AsBytes(*tree.Root(tree.size())) != cover->root_hash()) {
    return absl::DataLossError(absl::StrCat("the log does not match its checkpoint at size ",
                                            cover->tree_size(), "; run `arbiter verify`"));
  }

  absl::StatusOr<std::string> key = reader.RecordedPublicKey();
  if (!key.ok()) return key.status();
  v1::AuditBundle bundle;
  bundle.set_game_id(game_id);
  bundle.set_rules_pin(*pin);
  *bundle.mutable_checkpoint() = *cover;
  bundle.set_public_key(*key);
  for (v1::LedgerEntry& e : *entries) {
    absl::StatusOr<std::vector<Hash>> proof = tree.InclusionProof(e.position() - 1, tree.size());
    if (!proof.ok()) return proof.status();
    v1::ProvenEntry* p = bundle.add_entries();
    for (const Hash& h : *proof) p->add_inclusion_proof(std::string(AsBytes(h)));
    *p->mutable_entry() = std::move(e);
  }
  return bundle;
}

}  // namespace arbiter::ledger
