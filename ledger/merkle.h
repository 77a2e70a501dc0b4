// The RFC 6962 Merkle tree over the global log: roots, inclusion and
// consistency proofs, and their verifiers (RFC 9162 §2.1.3-2.1.4).
//
// Leaves are given as their leaf hashes (see LeafHash), in log order; a tree
// of size n is over the first n of them. Indices are 0-based here; a ledger
// position p is leaf index p - 1.
#ifndef ARBITER_LEDGER_MERKLE_H_
#define ARBITER_LEDGER_MERKLE_H_

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "ledger/hash.h"

namespace arbiter::ledger {

// The root of the tree over `leaves` (EmptyRoot() for none).
Hash MerkleRoot(std::span<const Hash> leaves);

// The audit path for leaf `index` in the tree over `leaves`. O(n): for
// more than one proof over the same leaves, build a MerkleTree.
absl::StatusOr<std::vector<Hash>> InclusionProof(uint64_t index, std::span<const Hash> leaves);

// The proof that the tree of size `old_size` is a prefix of the tree over
// `leaves`. O(n), as InclusionProof.
absl::StatusOr<std::vector<Hash>> ConsistencyProof(uint64_t old_size, std::span<const Hash> leaves);

// Every perfect subtree of the tree over a fixed list of leaves, hashed
// once (n - 1 node hashes), so that the root of any prefix and any proof
// within it cost O(log^2 n) hashes. An audit asks for a consistency proof
// per pair of successive checkpoints and a bundle for an inclusion proof per
// event of its game: computed from the bare leaves each is O(n), and the
// whole audit quadratic.
class MerkleTree {
 public:
  MerkleTree() : levels_(1) {}
  explicit MerkleTree(std::vector<Hash> leaves);

  uint64_t size() const { return levels_.front().size(); }

  // Adds the next leaf: O(1) node hashes amortised. The log is append-only,
  // so a tree kept this way answers for every prefix it has seen.
  void Append(const Hash& leaf);

  // The root of the tree over the first `tree_size` leaves; OUT_OF_RANGE
  // beyond size().
  absl::StatusOr<Hash> Root(uint64_t tree_size) const;
  // As the functions above, in the tree over the first `tree_size` leaves.
  absl::StatusOr<std::vector<Hash>> InclusionProof(uint64_t index, uint64_t tree_size) const;
  absl::StatusOr<std::vector<Hash>> ConsistencyProof(uint64_t old_size, uint64_t new_size) const;
  // The roots of the perfect subtrees of 2^height leaves numbered first ..
  // first + count - 1 (the hashes of a tlog-tiles tile: height 8 * level);
  // OUT_OF_RANGE unless all of them are complete within size().
  absl::StatusOr<std::vector<Hash>> PerfectSubtrees(int height, uint64_t first,
                                                    uint64_t count) const;

 private:
  // MTH of leaves [begin, end), a subtree of RFC 6962's recursion.
  Hash Subtree(uint64_t begin, uint64_t end) const;
  void Path(uint64_t m, uint64_t begin, uint64_t end, std::vector<Hash>* out) const;
  void SubProof(uint64_t m, uint64_t begin, uint64_t end, bool whole, std::vector<Hash>* out) const;

  // levels_[k][i]: the perfect subtree over leaves [i * 2^k, (i + 1) * 2^k).
  std::vector<std::vector<Hash>> levels_;
};

// OK iff `proof` shows `leaf` at `index` in the tree of `tree_size` with
// `root`; DATA_LOSS with the reason otherwise.
absl::Status VerifyInclusion(uint64_t index, uint64_t tree_size, const Hash& leaf,
                             std::span<const Hash> proof, const Hash& root);

// OK iff `proof` shows the tree (old_size, old_root) is a prefix of the tree
// (new_size, new_root); DATA_LOSS with the reason otherwise.
absl::Status VerifyConsistency(uint64_t old_size, uint64_t new_size, const Hash& old_root,
                               const Hash& new_root, std::span<const Hash> proof);

// The right edge of a growing tree: one hash per perfect subtree, so that
// appending a leaf and taking the root cost O(log n) and no re-read of the
// log. The ledger's writer keeps one; the verifier folds the log through one.
class CompactRange {
 public:
  void Append(const Hash& leaf);
  Hash Root() const;
  uint64_t size() const { return size_; }

 private:
  uint64_t size_ = 0;
  std::vector<Hash> peaks_;  // largest (leftmost) subtree first
};

}  // namespace arbiter::ledger

#endif  // ARBITER_LEDGER_MERKLE_H_
